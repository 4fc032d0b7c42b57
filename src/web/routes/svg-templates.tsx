import { RefreshCw, ShieldAlert } from 'lucide-react';
import { TEMPLATE_FOLDERS } from '#shared/templates/urls';
import { Button } from '#web/components/ui/button';
import { PageSpinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/use-auth';
import { useSvgTemplates } from '#web/features/templates/api';
import { AuthRequired } from '#web/components/auth-required';
import { errorMessage } from '#web/lib/api';
import { usePageTitle } from '#web/lib/use-page-title';

import { TemplateEditor } from '#web/features/templates/components/svg-template-editor';
import { ConfirmIdentityDialog } from '#web/features/auth/components/confirm-identity-dialog';

export default function SvgTemplatesPage() {
  usePageTitle('SVG Templates');
  const { user, isLoading, isAdmin } = useAuth();
  if (isLoading) return <PageSpinner />;
  if (!user) return <AuthRequired note="The SVG template manager is for administrators only. Please sign in with an administrator account." />;
  if (!isAdmin) {
    return (
      <div className="mx-auto max-w-md px-4 py-20 text-center">
        <ShieldAlert aria-hidden="true" className="mx-auto size-8 text-destructive" />
        <h1 className="mt-3 text-2xl font-bold">Administrators only</h1>
        <p className="mt-2 text-sm text-muted-foreground">You are signed in as {user.email}, which is not an administrator account, so you cannot manage templates.</p>
      </div>
    );
  }
  return <Manager />;
}

function Manager() {
  const q = useSvgTemplates();
  // the manager lists the four built-in folders (minimal, classic, modern, simple)
  const list = (q.data ?? []).filter((t) => (TEMPLATE_FOLDERS as readonly string[]).includes(t.folder));
  const order = ['minimal', 'classic', 'modern', 'simple'];
  list.sort((a, b) => order.indexOf(a.folder) - order.indexOf(b.folder));
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">SVG Templates</h1>
          <p className="mt-1 text-sm text-muted-foreground">Replace a template's front or back. Uploaded files are cleaned (no scripts or outside references) before they are saved.</p>
        </div>
        <Button variant="outline" onClick={() => q.refetch()} disabled={q.isFetching}>
          <RefreshCw className={q.isFetching ? 'animate-spin' : undefined} /> Reload
        </Button>
      </div>
      {q.isLoading ? (
        <PageSpinner />
      ) : q.isError ? (
        <p role="alert" className="mt-8 text-destructive">
          {errorMessage(q.error, 'Failed to fetch templates')}
        </p>
      ) : (
        <div className="mt-8 grid gap-8">
          {list.map((t) => (
            <TemplateEditor key={t.id} template={t} />
          ))}
        </div>
      )}
      <ConfirmIdentityDialog />
    </div>
  );
}
