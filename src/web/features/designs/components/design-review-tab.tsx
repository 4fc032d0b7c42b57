import { useState, type ComponentType } from 'react';
import { CheckCircle2, Eye, ScanLine, ThumbsDown, ThumbsUp, XCircle } from 'lucide-react';
import { ADMIN_REVIEW_NOTES_MAX, type PendingDesign } from '#shared/schemas/designs';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Label, Textarea } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { PRINT_OVERRIDE_REASON_MAX } from '#shared/schemas/print';
import { formatDateTime } from '#web/lib/format';
import { useApproveBatch, usePendingDesigns, useReviewDesign, useScanCheck } from '#web/features/designs/api';

/**
 * The print check of a card (issue 22), which the print feature makes: the admin page passes it in.
 * `useGate` tells whether the check blocks "Approve" (and whether it is still being made); `Panel`
 * shows the proof and the checks.
 */
export interface PrintCheckSlot {
  useGate: (cardId: number) => { blocking: boolean; isLoading: boolean };
  Panel: ComponentType<{ cardId: number }>;
}

export const NO_PENDING_TITLE = 'No pending reviews.';
export const NO_PENDING_TEXT = 'All business card designs have been reviewed.';

function ScanResult({ id }: { id: number }) {
  const scan = useScanCheck(id);
  if (scan.isLoading)
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="scan-check">
        <Spinner className="size-4" label="Scanning the QR code" /> Scanning the QR code on the card back...
      </p>
    );
  if (scan.isError || !scan.data)
    return (
      <p className="text-sm text-destructive" role="alert" data-testid="scan-check">
        Scan check could not run: {errorMessage(scan.error)}
      </p>
    );
  const pass = scan.data.status === 'pass';
  return (
    <div
      className={pass ? 'rounded-md border border-green-600/40 bg-green-500/10 p-2 text-sm' : 'rounded-md border border-red-600/40 bg-red-500/10 p-2 text-sm'}
      data-testid="scan-check"
      data-status={scan.data.status}
    >
      <p className="flex items-center gap-2 font-semibold">
        {pass ? <CheckCircle2 className="size-4 text-green-500" aria-hidden="true" /> : <XCircle className="size-4 text-red-500" aria-hidden="true" />}
        Scan check: {pass ? 'pass' : 'fail'}
      </p>
      <p className="mt-1">{scan.data.message}</p>
      {scan.data.decodedText ? <p className="mt-1 break-all text-xs text-muted-foreground">Decoded: {scan.data.decodedText}</p> : null}
    </div>
  );
}

function Sides({ d, large }: { d: PendingDesign; large?: boolean }) {
  return (
    <div className={large ? 'grid gap-3 md:grid-cols-2' : 'grid grid-cols-2 gap-2'}>
      {[
        { url: d.frontImageUrl, side: 'Front' },
        { url: d.backImageUrl, side: 'Back' },
      ].map(({ url, side }) => (
        <figure key={side}>
          {url ? (
            <img src={url} alt={`${side} of ${d.profile.fullName || 'the customer'}'s card`} className="aspect-[1.75] w-full rounded-md border border-border bg-black object-contain" />
          ) : (
            <div className="flex aspect-[1.75] w-full items-center justify-center rounded-md border border-dashed border-border text-xs text-muted-foreground">No {side.toLowerCase()} image</div>
          )}
          <figcaption className="mt-1 text-xs text-muted-foreground">{side}</figcaption>
        </figure>
      ))}
    </div>
  );
}

function Details({ d }: { d: PendingDesign }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="text-muted-foreground">Email</dt>
      <dd className="break-all">{d.profile.email || '—'}</dd>
      <dt className="text-muted-foreground">Job title</dt>
      <dd>{d.profile.jobTitle || '—'}</dd>
      <dt className="text-muted-foreground">Submitted</dt>
      <dd>{formatDateTime(d.createdAt)}</dd>
      <dt className="text-muted-foreground">Template</dt>
      <dd>{d.templateId}</dd>
      <dt className="text-muted-foreground">QR link</dt>
      <dd className="break-all">
        {d.qrCodeUrl ? (
          <a href={d.qrCodeUrl} target="_blank" rel="noopener noreferrer" className="underline">
            {d.qrCodeUrl}
          </a>
        ) : (
          '—'
        )}
      </dd>
      {d.orderId ? (
        <>
          <dt className="text-muted-foreground">Order</dt>
          <dd>#{d.orderId}</dd>
        </>
      ) : null}
      {d.order ? (
        <>
          <dt className="text-muted-foreground">Metal</dt>
          <dd>{d.order.cardTypeLabel}</dd>
          <dt className="text-muted-foreground">Finish</dt>
          <dd>{d.order.cardStyle}</dd>
          <dt className="text-muted-foreground">Quantity</dt>
          <dd>{d.order.quantity}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The order the design is for (issue 37): number, metal, finish and quantity, on the card itself. */
function OrderFacts({ d }: { d: PendingDesign }) {
  if (!d.order) return <p className="text-sm text-muted-foreground">{d.orderId ? `Order #${d.orderId}` : 'No order yet'}</p>;
  const o = d.order;
  return (
    <p className="text-sm font-medium" data-testid={`design-order-${d.id}`}>
      Order #{o.id} · {o.quantity} × {o.cardTypeLabel} · {o.cardStyle} finish
    </p>
  );
}

function DesignCard({ d, printCheck }: { d: PendingDesign; printCheck: PrintCheckSlot }) {
  const { Panel: PrintCheckPanel } = printCheck;
  const review = useReviewDesign();
  const scan = useScanCheck(d.id);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState(false);
  const [confirmFail, setConfirmFail] = useState(false);
  const [override, setOverride] = useState('');
  const print = printCheck.useGate(d.id);
  const name = d.profile.fullName || 'Unnamed customer';
  // a failing print check blocks "Approve" unless staff give a reason (issue 22; the server checks too)
  const printBlocks = print.blocking;
  // Approve waits for both checks: a click before the scan result came would read as a failed scan
  const printPending = print.isLoading || scan.isLoading;

  const approve = () => {
    if (printBlocks && !override.trim()) return;
    if (scan.data?.status !== 'pass' && !confirmFail) {
      setConfirmFail(true);
      return;
    }
    review.mutate({ id: d.id, status: 'approved', reviewNotes: '', overrideReason: printBlocks ? override.trim() : undefined });
  };
  const overrideError = fieldErrors(review.error).overrideReason;

  return (
    <Card className="space-y-3 p-4" data-testid={`design-${d.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold">{name}</h3>
          <p className="text-sm text-muted-foreground">
            {d.profile.jobTitle || 'No job title'} · {d.profile.email || 'no e-mail'}
          </p>
          <OrderFacts d={d} />
          <p className="text-xs text-muted-foreground">
            Submitted {formatDateTime(d.createdAt)} · Template {d.templateId}
          </p>
        </div>
        {d.qrCodeUrl ? (
          <a href={d.qrCodeUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-sm underline">
            <ScanLine className="size-4" aria-hidden="true" /> QR link
          </a>
        ) : null}
      </div>
      <Sides d={d} />
      <ScanResult id={d.id} />
      <PrintCheckPanel cardId={d.id} />
      {printBlocks || overrideError ? (
        <div className="space-y-1">
          <Label htmlFor={`override-${d.id}`}>Override reason (required to approve with a failing print check)</Label>
          <Textarea
            id={`override-${d.id}`}
            value={override}
            maxLength={PRINT_OVERRIDE_REASON_MAX}
            onChange={(e) => setOverride(e.target.value)}
            placeholder="e.g. The customer confirmed the small QR code; the engraver tested it."
            aria-invalid={!!overrideError}
          />
          {overrideError ? (
            <p role="alert" className="text-sm text-destructive">
              {overrideError}
            </p>
          ) : null}
        </div>
      ) : null}
      {confirmFail && scan.data?.status !== 'pass' ? (
        <p role="alert" className="text-sm text-destructive">
          The scan check did not pass. Press Approve again to approve anyway.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={approve} disabled={review.isPending || printPending || (printBlocks && !override.trim())}>
          <ThumbsUp aria-hidden="true" />
          {printBlocks ? 'Approve with override' : confirmFail && scan.data?.status !== 'pass' ? 'Approve anyway' : 'Approve'}
        </Button>
        <Button size="sm" variant="destructive" onClick={() => setRejecting(true)} disabled={review.isPending}>
          <ThumbsDown aria-hidden="true" />
          Reject
        </Button>
        <Button size="sm" variant="outline" onClick={() => setDetails(true)}>
          <Eye aria-hidden="true" />
          View Details
        </Button>
      </div>

      <Dialog open={rejecting} onOpenChange={setRejecting}>
        <DialogContent>
          <DialogTitle>Reject design</DialogTitle>
          <DialogDescription>{name} gets an e-mail; the reason, if you give one, is included.</DialogDescription>
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              review.mutate(
                { id: d.id, status: 'rejected', reviewNotes: reason.trim() },
                {
                  onSuccess: () => setRejecting(false),
                },
              );
            }}
          >
            <Label htmlFor={`reason-${d.id}`}>Reason (optional)</Label>
            <Textarea id={`reason-${d.id}`} value={reason} maxLength={ADMIN_REVIEW_NOTES_MAX} onChange={(e) => setReason(e.target.value)} placeholder="e.g. The logo is too low resolution." />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setRejecting(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={review.isPending}>
                {review.isPending ? 'Rejecting...' : 'Reject design'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={details} onOpenChange={setDetails}>
        <DialogContent className="max-w-3xl">
          <DialogTitle>{name}</DialogTitle>
          <DialogDescription>Design #{d.id} waiting for review</DialogDescription>
          <Sides d={d} large />
          <Details d={d} />
          <ScanResult id={d.id} />
          <PrintCheckPanel cardId={d.id} />
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** The staff's design review (admin tab Card Reviews): approve, reject, team batches, scan and print check. */
export function DesignReviewTab({ printCheck }: { printCheck: PrintCheckSlot }) {
  const pending = usePendingDesigns();
  if (pending.isLoading)
    return (
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Skeleton className="h-80" />
        <Skeleton className="h-80" />
      </div>
    );
  if (pending.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(pending.error, 'Could not load the designs waiting for review.')}
      </p>
    );
  const list = pending.data ?? [];
  if (list.length === 0)
    return (
      <Card className="p-10 text-center" data-testid="no-pending">
        <CheckCircle2 className="mx-auto mb-3 size-10 text-green-500" aria-hidden="true" />
        <p className="font-semibold">{NO_PENDING_TITLE}</p>
        <p className="text-sm text-muted-foreground">{NO_PENDING_TEXT}</p>
      </Card>
    );
  // a team order's cards are one batch: approve all at once, or reject one with a reason (issue 21)
  const batches = new Map<number, PendingDesign[]>();
  for (const d of list) if (d.batch) batches.set(d.batch.orderId, [...(batches.get(d.batch.orderId) ?? []), d]);
  const single = list.filter((d) => !d.batch);
  return (
    <div className="space-y-6">
      {[...batches.values()].map((group) => (
        <BatchGroup key={group[0].batch!.orderId} group={group} printCheck={printCheck} />
      ))}
      {single.length ? (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {single.map((d) => (
            <DesignCard key={d.id} d={d} printCheck={printCheck} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

function BatchGroup({ group, printCheck }: { group: PendingDesign[]; printCheck: PrintCheckSlot }) {
  const approve = useApproveBatch();
  const [override, setOverride] = useState('');
  const b = group[0].batch!;
  // the server refuses a batch with a failing print check without a reason (issue 22)
  const overrideError = fieldErrors(approve.error).overrideReason;
  return (
    <section className="space-y-3 rounded-lg border p-4" data-testid={`design-batch-${b.orderId}`} aria-label={`Team order #${b.orderId}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">
          {b.teamName}: team order #{b.orderId} · {group.length} {group.length === 1 ? 'design' : 'designs'} waiting
        </h3>
        <Button size="sm" onClick={() => approve.mutate({ orderId: b.orderId, overrideReason: override.trim() || undefined })} disabled={approve.isPending || (!!overrideError && !override.trim())}>
          <ThumbsUp aria-hidden="true" /> {overrideError ? `Approve all ${group.length} with override` : `Approve all ${group.length}`}
        </Button>
      </div>
      {overrideError ? (
        <div className="space-y-1">
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(approve.error)}
          </p>
          <Label htmlFor={`batch-override-${b.orderId}`}>Override reason</Label>
          <Textarea id={`batch-override-${b.orderId}`} value={override} maxLength={PRINT_OVERRIDE_REASON_MAX} onChange={(e) => setOverride(e.target.value)} />
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {group.map((d) => (
          <DesignCard key={d.id} d={d} printCheck={printCheck} />
        ))}
      </div>
    </section>
  );
}
