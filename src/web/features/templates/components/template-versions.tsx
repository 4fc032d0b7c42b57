import { useState } from 'react';
import { History, RotateCcw } from 'lucide-react';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useRollbackTemplate, useTemplateVersions } from '#web/features/templates/api';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Every kept version of a template, and a way back to any of them (as a new version, issue 20). */
export function TemplateVersions({ templateId, folder }: { templateId: number; folder: string }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const q = useTemplateVersions(templateId, open);
  const rollback = useRollbackTemplate(templateId);

  async function roll(version: number) {
    try {
      const r = await rollback.mutateAsync(version);
      setConfirming(null);
      toast({ title: 'Template rolled back', description: r.message });
    } catch (err) {
      toast({ title: 'Error', description: errorMessage(err, 'Could not roll back'), variant: 'destructive' });
    }
  }

  return (
    <div className="space-y-3" data-testid={`versions-${folder}`}>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <History aria-hidden="true" /> {open ? 'Hide version history' : 'Version history'}
      </Button>
      {open ? (
        q.isLoading ? (
          <Spinner />
        ) : q.isError || !q.data ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(q.error, 'Could not load the versions')}
          </p>
        ) : (
          <ol className="divide-y divide-border rounded-md border border-border text-sm" aria-label="Versions">
            {q.data.versions.map((v) => (
              <li key={v.version} className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid={`version-${folder}-${v.version}`}>
                <div className="min-w-0">
                  <p className="font-medium">
                    Version {v.version} {v.current ? <Badge variant="green">Live</Badge> : null}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {when(v.createdAt)}
                    {v.createdBy ? ` · ${v.createdBy}` : ' · built in'}
                  </p>
                  {v.notes ? <p className="break-words text-xs">{v.notes}</p> : null}
                </div>
                {v.current ? null : confirming === v.version ? (
                  <div className="flex flex-wrap gap-2">
                    <Button type="button" size="sm" variant="destructive" disabled={rollback.isPending} onClick={() => void roll(v.version)}>
                      {rollback.isPending ? <Spinner className="size-4" label="Rolling back" /> : <RotateCcw aria-hidden="true" />}
                      Make version {v.version} live for everyone
                    </Button>
                    <Button type="button" size="sm" variant="outline" onClick={() => setConfirming(null)}>
                      Cancel
                    </Button>
                  </div>
                ) : (
                  <Button type="button" size="sm" variant="outline" onClick={() => setConfirming(v.version)}>
                    <RotateCcw aria-hidden="true" /> Roll back to this version
                  </Button>
                )}
              </li>
            ))}
          </ol>
        )
      ) : null}
    </div>
  );
}
