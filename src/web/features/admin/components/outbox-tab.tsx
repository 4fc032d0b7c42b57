import { useState } from 'react';
import { OUTBOX_STATUSES } from '#shared/schemas/admin';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';
import { useOutbox, useOutboxEmail, useRetryEmail } from '#web/features/admin/api';
import { formatDateTime } from '#web/features/admin/format';
import { useDebounced } from '#web/features/admin/use-debounced';
import { FilterSelect, PageNav, SearchField, pageCount, useListPage } from './list-controls';

const STATUS_BADGE = { pending: 'yellow', sent: 'green', failed: 'red' } as const;
/** what staff read for each status: "pending" is an e-mail still waiting to be sent */
const STATUS_LABEL: Record<string, string> = { pending: 'Waiting', sent: 'Sent', failed: 'Failed' };
const statusLabel = (s: string) => STATUS_LABEL[s] ?? s;

/** A table cell that becomes a labelled row on a phone (its label from data-label), as in the orders table. */
const STACKED_CELL =
  'max-md:flex max-md:items-start max-md:gap-3 max-md:px-3 max-md:py-1.5 max-md:before:w-20 max-md:before:shrink-0 max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

function EmailDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const email = useOutboxEmail(id);
  const retry = useRetryEmail();
  const e = email.data;
  return (
    <Dialog open={id !== null} onOpenChange={(o) => !o && onClose()}>
      {id !== null ? (
        <DialogContent className="max-w-3xl">
          <DialogTitle>{e?.subject ?? 'E-mail'}</DialogTitle>
          <DialogDescription>{e ? `To ${e.toAddress} · ${formatDateTime(e.createdAt)} · ${statusLabel(e.status)}` : 'Loading...'}</DialogDescription>
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
                <pre className="mt-2 whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-xs">{e.textBody}</pre>
              </details>
            </div>
          ) : null}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/**
 * The e-mail outbox (issue 37: a staff tab of its own): every e-mail the product sends, searched by
 * address or subject, the order it is about and its status, one page at a time. Without SMTP this
 * is where the e-mails stay. On a phone each e-mail is a stacked block of labelled rows.
 */
export function OutboxTab() {
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState('');
  const [status, setStatus] = useState('');
  const { page, setPage, backToFirstPage } = useListPage();
  const [open, setOpen] = useState<number | null>(null);
  const q = useDebounced(search.trim(), 300);
  const orderQ = useDebounced(order.trim(), 300);
  const outbox = useOutbox({ q, order: orderQ, status, page });
  const data = outbox.data;
  const pages = pageCount(data);
  const filtered = Boolean(q || orderQ || status);

  return (
    <div className="space-y-4" data-testid="outbox-tab">
      <p className="text-sm text-muted-foreground">
        {data
          ? `${data.counts.pending} waiting · ${data.counts.sent} sent · ${data.counts.failed} failed${data.smtpConfigured ? '' : ' · SMTP is not configured, so e-mails stay here'}`
          : ' '}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SearchField label="Search e-mails" placeholder="Search by address or subject" className="flex-1" value={search} onChange={backToFirstPage(setSearch)} />
        <Input
          aria-label="Order number"
          placeholder="Order #"
          inputMode="numeric"
          className="sm:w-32"
          value={order}
          onChange={(e) => {
            setOrder(e.target.value);
            setPage(1);
          }}
        />
        <FilterSelect label="E-mail status" className="sm:w-40" value={status} onChange={backToFirstPage(setStatus)} allLabel="All e-mails" values={OUTBOX_STATUSES} valueLabel={statusLabel} />
      </div>

      <Card className="md:overflow-x-auto">
        <table className="w-full text-sm md:min-w-[760px]">
          <thead className="border-b border-border text-left text-muted-foreground max-md:sr-only">
            <tr>
              <th scope="col" className="p-3 font-medium">To</th>
              <th scope="col" className="p-3 font-medium">Subject</th>
              <th scope="col" className="p-3 font-medium">Order</th>
              <th scope="col" className="p-3 font-medium">Queued</th>
              <th scope="col" className="p-3 font-medium">Status</th>
              <th scope="col" className="p-3 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {outbox.isLoading ? (
              <tr>
                <td colSpan={6} className="p-3">
                  <Skeleton className="h-24 w-full" />
                </td>
              </tr>
            ) : null}
            {outbox.isError ? (
              <tr>
                <td colSpan={6} className="p-6 text-center text-destructive" role="alert">
                  {errorMessage(outbox.error, 'Could not load the outbox.')}
                </td>
              </tr>
            ) : null}
            {data && data.emails.length === 0 ? (
              <tr>
                <td colSpan={6} className="p-6 text-center text-muted-foreground">
                  {filtered ? 'No e-mails match this search.' : 'No e-mails yet.'}
                </td>
              </tr>
            ) : null}
            {data?.emails.map((e) => (
              <tr key={e.id} className="border-b border-border last:border-0 max-md:block max-md:py-2" data-testid={`outbox-row-${e.id}`}>
                <td data-label="To" className={cn(STACKED_CELL, 'p-3 break-all')}>{e.toAddress}</td>
                <td data-label="Subject" className={cn(STACKED_CELL, 'p-3 break-words')}>
                  <span className="min-w-0">{e.subject}</span>
                </td>
                <td data-label="Order" className={cn(STACKED_CELL, 'p-3')}>
                  <span className="font-mono">{e.orderId ? `#${e.orderId}` : '—'}</span>
                </td>
                <td data-label="Queued" className={cn(STACKED_CELL, 'p-3 md:whitespace-nowrap')}>{formatDateTime(e.createdAt)}</td>
                <td data-label="Status" className={cn(STACKED_CELL, 'p-3')}>
                  <Badge variant={STATUS_BADGE[e.status as keyof typeof STATUS_BADGE] ?? 'grey'}>{statusLabel(e.status)}</Badge>
                </td>
                <td data-label="" className={cn(STACKED_CELL, 'p-3 max-md:before:hidden')}>
                  <Button size="sm" variant="outline" onClick={() => setOpen(e.id)} aria-label={`Read the e-mail to ${e.toAddress}: ${e.subject}`}>
                    Read
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {data && data.total > 0 ? (
        <PageNav
          summary={`${(page - 1) * data.pageSize + 1}-${Math.min(page * data.pageSize, data.total)} of ${data.total}`}
          announce
          page={page}
          pages={pages}
          setPage={setPage}
        />
      ) : null}
      <EmailDialog id={open} onClose={() => setOpen(null)} />
    </div>
  );
}
