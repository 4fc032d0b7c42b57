import { Link } from 'react-router';
import { TEMPLATE_IDS } from '#shared/catalogue';
import { templateDisplayName } from '#shared/templates/display-name';
import type { TemplateSummary } from '#shared/schemas/templates';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useAuth } from '#web/lib/session/use-auth';
import { TemplateThumbnail } from '#web/components/template-thumbnail';
import { useHydrated } from '#web/lib/use-hydrated';
import { SectionHeading } from './section-heading';

/** One row of GET /api/templates (the fields the home page reads). */
type TemplateListItem = Pick<TemplateSummary, 'id' | 'name' | 'description' | 'category' | 'isActive'> & { version?: number };

/** Shown with the spec's message when the list cannot be loaded: the four built-in templates. */
const FALLBACK_TEMPLATES: TemplateListItem[] = Object.entries(TEMPLATE_IDS).map(([key, id]) => ({
  id,
  name: key.charAt(0).toUpperCase() + key.slice(1),
  description: '',
  category: 'Business Card',
  isActive: true,
}));

/** A template's link: its accessible name is its visible text (WCAG 2.5.3 Label in Name), so no aria-label. */
function TemplateCard({ t, to }: { t: TemplateListItem; to: string }) {
  return (
    <Link
      to={to}
      data-testid="home-template"
      className="group block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <Card className="flex h-full flex-col overflow-hidden transition-colors group-hover:border-gold/60">
        <TemplateThumbnail template={t} className="rounded-none shadow-none ring-0" />
        <CardContent className="flex flex-1 flex-col gap-1 p-4">
          <h3 className="font-semibold">{templateDisplayName(t)}</h3>
          {t.description ? <p className="text-sm text-muted-foreground">{t.description}</p> : null}
        </CardContent>
      </Card>
    </Link>
  );
}

/** The template list as the page asks it (GET /api/templates). */
interface TemplatesQuery {
  isLoading: boolean;
  isError: boolean;
  data?: TemplateListItem[];
}

/**
 * The home page's template gallery (the four built-ins, with the spec's message, if the list fails).
 * The page asks the templates feature for the list and passes the query in.
 */
export function HomeTemplates({ query }: { query: TemplatesQuery }) {
  const { user } = useAuth();
  // prerendered with the list loading: hydrate against that even if the list has arrived (use-hydrated.ts)
  const hydrated = useHydrated();
  const q = hydrated ? query : { isLoading: true, isError: false, data: undefined };
  const templates = q.isError ? FALLBACK_TEMPLATES : (q.data ?? []).filter((t) => t.isActive);
  return (
    <section aria-labelledby="templates-heading" className="border-y border-border bg-card/40 px-4 py-16 sm:py-20">
      <SectionHeading id="templates-heading" title="Business Card Templates">
        Start from a professionally designed template and make it yours.
      </SectionHeading>
      <div className="mx-auto mt-10 max-w-6xl">
        {q.isError ? (
          <p role="status" className="mb-4 text-center text-sm text-muted-foreground">
            Failed to load templates from database. Showing fallback templates.
          </p>
        ) : null}
        {q.isLoading ? (
          <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4" aria-label="Loading templates">
            {[0, 1, 2, 3].map((i) => (
              <li key={i}>
                <Card className="overflow-hidden">
                  <Skeleton className="aspect-[7/4] rounded-none" />
                  <div className="space-y-2 p-4">
                    <Skeleton className="h-3 w-20" />
                    <Skeleton className="h-5 w-28" />
                    <Skeleton className="h-4 w-full" />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        ) : templates.length === 0 ? (
          <p className="text-center text-muted-foreground">No templates found</p>
        ) : (
          <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {templates.map((t) => (
              <li key={t.id}>
                <TemplateCard t={t} to={user ? `/design?templateId=${t.id}` : '/templates'} />
              </li>
            ))}
          </ul>
        )}
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Button asChild variant="outline">
            <Link to="/templates">Browse Templates</Link>
          </Button>
          <Button asChild variant="gold">
            <Link to="/order">Order Cards</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
