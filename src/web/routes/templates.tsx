// page-length: the gallery's filter, fallback list and empty states are one screen of the spec;
// the cards themselves come from the templates feature.
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ArrowRight, LayoutDashboard, UserRound } from 'lucide-react';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';
import { templateDisplayName } from '#shared/templates/display-name';
import type { TemplateSummary } from '#shared/schemas/templates';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/use-auth';
import { useTemplates } from '#web/features/templates/api';
import { TemplateThumbnail } from '#web/components/template-thumbnail';
import { toast } from '#web/lib/toast';
import { usePageTitle } from '#web/lib/use-page-title';
import { cn } from '#web/lib/utils';

/** Shown when the list cannot be loaded: the built-in designs, which always exist. */
const FALLBACK: TemplateSummary[] = BUILTIN_TEMPLATES.map((t) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  category: t.category,
  isActive: true,
  folder: t.folder,
  version: 0,
  updatedAt: '',
  invertThumbnail: false,
  thumbnailFront: '',
  thumbnailBack: '',
}));

export default function TemplatesPage() {
  usePageTitle('Business Card Templates', 'Browse our premium metal business card templates: Minimal, Classic, Simple and Modern, each with a QR code to your digital profile.');
  const { user } = useAuth();
  const q = useTemplates();
  const [category, setCategory] = useState<string>('All');

  useEffect(() => {
    if (q.isError) toast({ title: 'Failed to fetch templates', description: 'Showing our built-in templates instead.', variant: 'destructive' });
  }, [q.isError]);

  const active = useMemo(() => (q.isError ? FALLBACK : (q.data ?? [])).filter((t) => t.isActive), [q.data, q.isError]);
  const categories = useMemo(() => ['All', ...Array.from(new Set(active.map((t) => t.category)))], [active]);
  const shown = category === 'All' ? active : active.filter((t) => t.category === category);

  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Business Card Templates</h1>
        <p className="mt-3 text-muted-foreground">
          Designs engineered for metal, each shown as it is made: black steel, bright engraving, and a QR code that opens your digital profile. Hover a card to see its back.
        </p>
      </header>

      {q.isError ? (
        <p role="alert" className="mx-auto mt-8 max-w-2xl rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-center text-sm">
          Failed to load templates from database. Showing fallback templates.
        </p>
      ) : null}

      <div role="group" aria-label="Filter by category" className="mt-8 flex flex-wrap justify-center gap-2">
        {categories.map((c) => (
          <Button key={c} size="sm" variant={category === c ? 'default' : 'outline'} aria-pressed={category === c} onClick={() => setCategory(c)}>
            {c}
          </Button>
        ))}
      </div>

      {q.isLoading ? (
        <div className="mt-10">
          <p className="mb-4 flex items-center justify-center gap-2 text-sm text-muted-foreground">
            <Spinner className="size-4" /> Loading templates...
          </p>
          <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <Card key={i} className="overflow-hidden">
                <Skeleton className="aspect-[7/4] w-full rounded-none" />
                <CardContent className="space-y-3 p-5">
                  <Skeleton className="h-5 w-1/3" />
                  <Skeleton className="h-4 w-full" />
                  <Skeleton className="h-10 w-full" />
                </CardContent>
              </Card>
            ))}
          </div>
        </div>
      ) : (
        <>
          {q.isFetching ? (
            <p className="mt-6 flex items-center justify-center gap-2 text-sm text-muted-foreground">
              <Spinner className="size-4" /> Loading latest templates...
            </p>
          ) : null}
          {shown.length === 0 ? (
            <div className="mx-auto mt-12 max-w-md text-center" data-testid="templates-empty">
              <p className="text-lg font-medium">No templates found</p>
              <Button className="mt-4" variant="outline" onClick={() => setCategory('All')}>
                View all templates
              </Button>
            </div>
          ) : (
            <ul className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Templates">
              {shown.map((t, i) => (
                <li key={t.id}>
                  <Card className="flex h-full flex-col overflow-hidden" data-testid={`template-card-${t.id}`}>
                    <div className="p-3">
                      <TemplateThumbnail template={t} linkTo="/templates" priority={i < 2} />
                    </div>
                    <CardContent className="flex flex-1 flex-col gap-3 p-5 pt-2">
                      <h2 className="text-lg font-semibold">{templateDisplayName(t)}</h2>
                      <p className="flex-1 text-sm text-muted-foreground">{t.description}</p>
                      <p className="text-xs uppercase tracking-wider text-muted-foreground">{t.category}</p>
                      {user ? (
                        <Button asChild variant="gold" className="w-full">
                          <Link to={`/design?templateId=${t.id}`}>Use This Template</Link>
                        </Button>
                      ) : (
                        <Button asChild variant="outline" className="w-full">
                          <Link to="/login">Sign In to Use</Link>
                        </Button>
                      )}
                    </CardContent>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      <section className={cn('mx-auto mt-16 max-w-3xl rounded-2xl border border-border bg-card p-8 text-center')} aria-labelledby="templates-cta">
        <h2 id="templates-cta" className="text-2xl font-semibold">
          {user ? 'Ready to make it yours?' : 'Create your digital profile'}
        </h2>
        <p className="mt-2 text-muted-foreground">
          {user
            ? 'Keep your profile up to date, then follow its views on your dashboard. Every card you order opens it.'
            : 'Sign in to design your card with a live preview and get a QR code that always opens your latest details.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {user ? (
            <>
              <Button asChild variant="gold">
                <Link to="/profile">
                  <UserRound /> Edit Your Profile
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/dashboard">
                  <LayoutDashboard /> Go to Dashboard
                </Link>
              </Button>
            </>
          ) : (
            <Button asChild variant="gold">
              <Link to="/login">
                Get Started <ArrowRight />
              </Link>
            </Button>
          )}
        </div>
      </section>
    </div>
  );
}
