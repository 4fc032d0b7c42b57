import { useState } from 'react';
import { Mail } from 'lucide-react';
import { OUTBOX_STATUSES } from '#shared/schemas/admin';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { useOutbox, useOutboxEmail, useRetryEmail } from '#web/features/admin/api';
import { formatDateTime } from '#web/features/admin/format';
import { FilterSelect, ListLoadState, PageButtons, pageCount, useListPage } from './list-controls';

const STATUS_BADGE = { pending: 'yellow', sent: 'green', failed: 'red' } as const;

function EmailDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const email = useOutboxEmail(id);
  const retry = useRetryEmail();
  const e = email.data;
  return (
    <Dialog open={id !== null} onOpenChange={(o) => !o && onClose()}>
      {id !== null ? (
        <DialogContent className="max-w-3xl">
          <DialogTitle>{e?.subject ?? 'E-mail'}</DialogTitle>
          <DialogDescription>{e ? `To ${e.toAddress} · ${formatDateTime(e.createdAt)} · ${e.status}` : 'Loading...'}</DialogDescription>
          {email.isLoading ? <Skeleton className="h-64" /> : null}
          {email.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(email.error)}
            </p>
          ) : null}
          {e ? (
            <div className="space-y-3">
              {e.lastError ? <p className="text-sm text-destructive">Last error: {e.lastError}</p> : null}
              {e.status === 'failed' ? (
                <Button size="sm" onClick={() => retry.mutate(e.id)} disabled={retry.isPending}>
                  Send again
                </Button>
              ) : null}
              <p className="text-xs text-muted-foreground">One-time links (password reset, e-mail change, verification, order claim, team invitation) are shown as a label: only the recipient gets them.</p>
              <iframe title="E-mail as the customer sees it" sandbox="" srcDoc={e.htmlBody} className="h-96 w-full rounded-md border border-border bg-white" />
              <details>
                <summary className="cursor-pointer text-sm">Plain-text part</summary>
                <pre className="mt-2 whitespace-pre-wrap rounded-md bg-muted p-3 text-xs">{e.textBody}</pre>
              </details>
            </div>
          ) : null}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** The e-mail outbox: every e-mail the product sends, readable here (without SMTP this is where they stay). */
export function OutboxViewer() {
  const [status, setStatus] = useState('');
  const { page, setPage, backToFirstPage } = useListPage();
  const [open, setOpen] = useState<number | null>(null);
  const outbox = useOutbox({ status, page });
  const data = outbox.data;
  const pages = pageCount(data);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {data
            ? `${data.counts.pending} waiting · ${data.counts.sent} sent · ${data.counts.failed} failed${data.smtpConfigured ? '' : ' · SMTP is not configured, so e-mails stay here'}`
            : ' '}
        </p>
        <FilterSelect label="E-mail status" className="w-40" value={status} onChange={backToFirstPage(setStatus)} allLabel="All e-mails" values={OUTBOX_STATUSES} valueLabel={(s) => s[0].toUpperCase() + s.slice(1)} />
      </div>
      <ListLoadState query={outbox} errorText="Could not load the outbox." />
      {data && data.emails.length === 0 ? <p className="text-sm text-muted-foreground">No e-mails yet.</p> : null}
      <ul className={data?.emails.length ? 'divide-y divide-border rounded-md border border-border' : 'hidden'} aria-label="E-mails">
        {data?.emails.map((e) => (
          <li key={e.id}>
            <button type="button" className="flex w-full items-center gap-3 p-3 text-left text-sm hover:bg-accent cursor-pointer" onClick={() => setOpen(e.id)}>
              <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{e.subject}</span>
                <span className="block truncate text-xs text-muted-foreground">
                  {e.toAddress} · {formatDateTime(e.createdAt)}
                </span>
              </span>
              <Badge variant={STATUS_BADGE[e.status as keyof typeof STATUS_BADGE] ?? 'grey'}>{e.status}</Badge>
            </button>
          </li>
        ))}
      </ul>
      {data && data.total > data.pageSize ? (
        <PageButtons page={page} pages={pages} setPage={setPage} className="flex justify-end gap-2" />
      ) : null}
      <EmailDialog id={open} onClose={() => setOpen(null)} />
    </div>
  );
}
