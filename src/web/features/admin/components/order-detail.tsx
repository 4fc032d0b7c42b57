import { useEffect, useState } from 'react';
import { Download } from 'lucide-react';
import { ADMIN_NOTES_MAX, type AdminOrderDetail } from '#shared/schemas/admin';
import { orderStatusLabel } from '#shared/catalogue';
import { addressLines } from '#shared/orders/address';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Label, Textarea } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';
import { useDownloadCard, useOrderDetail, useSaveNotes } from '#web/features/admin/api';
import { formatCents, formatDateTime } from '#web/features/admin/format';
import { StatusBadge } from '#web/components/status-badge';
import { OrderPaymentPanel } from './order-payment';
import { OrderStatusActions } from './order-status-actions';

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium break-all">{value || '—'}</dd>
    </div>
  );
}

function Section({ title, children, className }: { title: string; children: React.ReactNode; className?: string }) {
  return (
    <section className={cn('rounded-lg border border-border p-4', className)}>
      <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-muted-foreground">{title}</h3>
      {children}
    </section>
  );
}

function DesignPreview({ order }: { order: AdminOrderDetail }) {
  const front = order.design?.frontImageUrl ?? order.previewUrl;
  const back = order.design?.backImageUrl ?? null;
  if (!front && !back && !order.design) return <p className="text-sm text-muted-foreground">This order has no design or artwork to preview.</p>;
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      {front ? (
        <figure>
          <img src={front} alt={`Front of the card for order #${order.id}`} className="w-full rounded-md border border-border bg-black object-contain" />
          <figcaption className="mt-1 text-xs text-muted-foreground">{order.design ? 'Front' : 'Uploaded artwork'}</figcaption>
        </figure>
      ) : null}
      {back ? (
        <figure>
          <img src={back} alt={`Back of the card for order #${order.id}`} className="w-full rounded-md border border-border bg-black object-contain" />
          <figcaption className="mt-1 text-xs text-muted-foreground">Back (QR code)</figcaption>
        </figure>
      ) : null}
      {!front && !back ? <p className="text-sm text-muted-foreground sm:col-span-2">This design has no preview image yet.</p> : null}
      {order.design ? (
        <p className="text-xs text-muted-foreground sm:col-span-2">
          Template {order.design.templateId} · design {order.design.status}
          {order.design.reviewNotes ? ` · review note: ${order.design.reviewNotes}` : ''}
        </p>
      ) : null}
      {order.design?.printOverride ? (
        <p className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs sm:col-span-2" data-testid="print-override">
          <span className="font-semibold">Approved with an override.</span> {order.design.printOverride}
        </p>
      ) : null}
    </div>
  );
}

/** How the order left the floor: the carrier's tracking link, or the studio pickup code. */
function ShipmentRows({ shipment }: { shipment: NonNullable<AdminOrderDetail['shipment']> }) {
  return (
    <>
      {shipment.trackingNumber ? (
        <Row
          label="Tracking"
          value={
            <span data-testid="order-tracking">
              {shipment.carrierLabel}{' '}
              {shipment.trackingUrl ? (
                <a className="underline" href={shipment.trackingUrl} target="_blank" rel="noopener noreferrer">
                  {shipment.trackingNumber}
                </a>
              ) : (
                shipment.trackingNumber
              )}
            </span>
          }
        />
      ) : null}
      {shipment.shippedAt ? <Row label="Shipped" value={formatDateTime(shipment.shippedAt)} /> : null}
      {shipment.pickupCode ? <Row label="Pickup code" value={<span className="font-mono">{shipment.pickupCode}</span>} /> : null}
      {shipment.pickupReadyAt ? <Row label="Ready for pickup" value={formatDateTime(shipment.pickupReadyAt)} /> : null}
    </>
  );
}

function Notes({ order }: { order: AdminOrderDetail }) {
  const [text, setText] = useState(order.internalNotes);
  const save = useSaveNotes();
  // a fresh copy of the order (after a save elsewhere) resets the box
  useEffect(() => setText(order.internalNotes), [order.id, order.internalNotes]);
  const tooLong = text.length > ADMIN_NOTES_MAX;
  return (
    <div className="space-y-2">
      <Label htmlFor={`notes-${order.id}`}>Internal notes</Label>
      <Textarea
        id={`notes-${order.id}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Only staff see these notes."
        aria-invalid={tooLong}
        aria-describedby={`notes-${order.id}-count`}
      />
      <div className="flex items-center justify-between gap-2">
        <span id={`notes-${order.id}-count`} className={cn('text-xs', tooLong ? 'text-destructive' : 'text-muted-foreground')}>
          {text.length} / {ADMIN_NOTES_MAX}
        </span>
        <Button size="sm" onClick={() => save.mutate({ id: order.id, notes: text })} disabled={save.isPending || tooLong || text.trim() === order.internalNotes}>
          {save.isPending ? 'Saving...' : 'Save Notes'}
        </Button>
      </div>
      {order.notes.length ? (
        <ol className="space-y-2" aria-label="Notes history">
          {order.notes.map((n) => (
            <li key={n.id} className="rounded-md bg-muted p-2 text-sm">
              <p className="whitespace-pre-wrap">{n.body}</p>
              <p className="mt-1 text-xs text-muted-foreground">
                {n.author} · {formatDateTime(n.createdAt)}
              </p>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

/** Everything about one order: customer, order, special requests, real design preview, status actions, notes. */
export function OrderDetailBody({ order }: { order: AdminOrderDetail }) {
  const download = useDownloadCard();
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Section title="Customer Information">
        <dl>
          <Row label="Name" value={order.customerName} />
          <Row label="Email" value={<a className="underline" href={`mailto:${order.email}`}>{order.email}</a>} />
          <Row label="Phone" value={order.phone ? <a className="underline" href={`tel:${order.phone.replace(/[^+\d]/g, '')}`}>{order.phone}</a> : null} />
          <Row label="Company" value={order.companyName} />
          <Row label="Position" value={order.position} />
          <Row label="Address" value={order.address} />
        </dl>
      </Section>
      <Section title="Order Details">
        <dl>
          <Row label="Quantity" value={order.quantity} />
          <Row label="Card type" value={order.cardTypeLabel} />
          <Row label="Style" value={order.cardStyle} />
          <Row label="Delivery" value={order.deliveryLabel} />
          <Row
            label="Ship to"
            value={
              order.deliveryOption === 'pickup-nyc' ? (
                'Pickup at the studio'
              ) : order.shippingAddress ? (
                <span className="whitespace-pre-line" data-testid="admin-ship-to">
                  {addressLines(order.shippingAddress).join('\n')}
                </span>
              ) : (
                'No delivery address on the order'
              )
            }
          />
          <Row label="Date" value={formatDateTime(order.createdAt)} />
          <Row label="Status" value={<StatusBadge status={order.status} />} />
          {order.waitsForProfile ? <Row label="QR code" value="Waits for profile: the buyer has not claimed the order yet (the claim link is in the order e-mail)" /> : null}
          <Row label="Total" value={formatCents(order.totalCents)} />
          {order.shipment ? <ShipmentRows shipment={order.shipment} /> : null}
        </dl>
      </Section>
      <Section title="Payment">
        <OrderPaymentPanel order={order} />
      </Section>
      <Section title="Special Requests">
        <p className="whitespace-pre-wrap text-sm">{order.specialRequests || 'None'}</p>
      </Section>
      <Section title="Design Preview">
        <DesignPreview order={order} />
      </Section>
      <Section title="Actions" className="lg:col-span-2">
        <OrderStatusActions order={order} />
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="gold" size="sm" disabled={download.isPending} onClick={() => download.mutate(order)}>
            <Download aria-hidden="true" />
            {download.isPending ? 'Downloading...' : 'Download card'}
          </Button>
        </div>
      </Section>
      <Section title="Status History">
        {order.history.length ? (
          <ol className="space-y-1 text-sm" aria-label="Status history">
            {order.history.map((h) => (
              <li key={h.id}>
                <span className="font-medium">{h.fromStatus ? `${orderStatusLabel(h.fromStatus)} → ${orderStatusLabel(h.toStatus)}` : orderStatusLabel(h.toStatus)}</span>
                <span className="text-muted-foreground"> · {h.changedBy} · {formatDateTime(h.createdAt)}</span>
                {h.note ? <span className="block text-xs text-amber-600 dark:text-amber-400">{h.note}</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-muted-foreground">No status changes yet.</p>
        )}
      </Section>
      <Section title="Internal Notes">
        <Notes order={order} />
      </Section>
    </div>
  );
}

function DetailLoader({ id }: { id: number }) {
  const q = useOrderDetail(id);
  if (q.isLoading) return <Skeleton className="h-96 w-full" />;
  if (q.isError || !q.data)
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(q.error, 'Could not load this order.')}
      </p>
    );
  return <OrderDetailBody order={q.data} />;
}

/**
 * The order detail: a full-screen panel on /admin, a dialog of max width 2xl on the profile's admin tab.
 */
export function OrderDetailDialog({ orderId, onClose, fullScreen }: { orderId: number | null; onClose: () => void; fullScreen?: boolean }) {
  return (
    <Dialog open={orderId !== null} onOpenChange={(open) => !open && onClose()}>
      {orderId !== null ? (
        <DialogContent
          className={cn(
            fullScreen ? 'left-0 top-0 h-dvh max-h-none w-full max-w-none translate-x-0 translate-y-0 rounded-none p-4 sm:p-8' : 'max-w-2xl',
          )}
          data-testid="order-detail"
        >
          <div className={cn(fullScreen && 'mx-auto w-full max-w-6xl')}>
            <DialogTitle className="text-xl">Order #{orderId}</DialogTitle>
            <DialogDescription className="mb-4">Customer, order and design details, status and internal notes.</DialogDescription>
            <DetailLoader id={orderId} />
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
