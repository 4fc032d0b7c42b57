import { Link } from 'react-router';
import { AlertTriangle, CheckCircle2, Circle, PencilLine, QrCode, Store, Truck } from 'lucide-react';
import type { OrderDesignView, OrderStatusView, OrderTimelineEntry } from '#shared/schemas/orders';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';

export const orderWhen = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Spec colours: pending yellow, processing blue, completed green, cancelled red, anything else grey. */
export const ORDER_STATUS_COLOURS: Record<string, 'yellow' | 'blue' | 'green' | 'red'> = { pending: 'yellow', processing: 'blue', completed: 'green', cancelled: 'red' };

const DESIGN_COLOURS: Record<string, 'yellow' | 'green' | 'red'> = { pending: 'yellow', approved: 'green', rejected: 'red' };

function StepIcon({ entry, latest }: { entry: OrderTimelineEntry; latest: boolean }) {
  if (entry.kind === 'design' && entry.event === 'rejected') return <AlertTriangle className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />;
  if (latest) return <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-gold" aria-hidden="true" />;
  return <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />;
}

/** The order's true state, newest first: status changes and the design review loop with its reasons. */
export function OrderTimeline({ timeline }: { timeline: OrderTimelineEntry[] }) {
  const steps = [...timeline].reverse();
  return (
    <ol className="space-y-3" aria-label="Order timeline">
      {steps.map((h, i) => (
        <li key={`${h.kind}-${h.event}-${h.at}-${i}`} className="flex items-start gap-3" data-testid="timeline-step">
          <StepIcon entry={h} latest={i === 0} />
          <div className="min-w-0">
            <p className="font-medium">{h.label}</p>
            {h.reason ? <p className="text-sm break-words text-muted-foreground">Reason: {h.reason}</p> : null}
            {h.detail ? (
              <p className="text-sm break-words" data-testid="timeline-detail">
                {h.href ? (
                  <a className="font-mono underline" href={h.href} target="_blank" rel="noopener noreferrer">
                    {h.detail}
                  </a>
                ) : (
                  <span className="font-mono">{h.detail}</span>
                )}
              </p>
            ) : null}
            <p className="text-xs text-muted-foreground">{orderWhen(h.at)}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The order's card design: its images, its review state, the reason and "Edit and resubmit". */
export function OrderDesign({ design }: { design: OrderDesignView }) {
  return (
    <div className="space-y-3" data-testid="order-design">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-muted-foreground">Design</span>
        <Badge variant={DESIGN_COLOURS[design.status] ?? 'grey'} data-testid="design-status">
          {design.statusLabel}
        </Badge>
      </div>
      {design.reason ? (
        <p className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm break-words" role="note">
          <span className="font-medium">What to change: </span>
          {design.reason}
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {design.frontImageUrl ? <img src={design.frontImageUrl} alt="Card front" className="w-full rounded-md border border-border" loading="lazy" /> : null}
        {design.backImageUrl ? <img src={design.backImageUrl} alt="Card back" className="w-full rounded-md border border-border" loading="lazy" /> : null}
      </div>
      {design.editPath ? (
        <Button asChild variant="gold">
          <Link to={design.editPath}>
            <PencilLine /> Edit and resubmit
          </Link>
        </Button>
      ) : null}
    </div>
  );
}

/** Where the cards' QR code leads, and whether it still waits for the buyer's profile. */
export function OrderCardLink({ order }: { order: Pick<OrderStatusView, 'cardLink' | 'waitsForProfile'> }) {
  if (!order.cardLink) return null;
  return (
    <div className="flex items-start gap-3 text-sm" data-testid="order-card-link">
      <QrCode className="mt-0.5 size-5 shrink-0 text-gold" aria-hidden="true" />
      <p className="min-w-0 break-words">
        Your cards' QR code: <a className="font-mono underline" href={order.cardLink}>{order.cardLink.replace(/^https?:\/\//, '')}</a>
        {order.waitsForProfile ? ' (waiting for your profile: claim the order with the link in your order e-mail)' : ' opens your digital profile.'}
      </p>
    </div>
  );
}

/** Shipped: the carrier's tracking link; ready for pickup: the code to show at the studio (issue 22). */
export function OrderFulfilment({ order }: { order: Pick<OrderStatusView, 'fulfilment' | 'status'> }) {
  const f = order.fulfilment;
  if (!f) return null;
  if (f.pickupCode && (order.status === 'ready-for-pickup' || !f.trackingNumber)) {
    return (
      <div className="flex items-start gap-3 text-sm" data-testid="order-fulfilment">
        <Store className="mt-0.5 size-5 shrink-0 text-gold" aria-hidden="true" />
        <p className="min-w-0 break-words">
          Pickup code: <span className="font-mono text-lg font-semibold tracking-widest" data-testid="pickup-code">{f.pickupCode}</span>
          <br />
          Show it at our New York studio when you collect your cards.
        </p>
      </div>
    );
  }
  if (!f.trackingNumber) return null;
  return (
    <div className="flex items-start gap-3 text-sm" data-testid="order-fulfilment">
      <Truck className="mt-0.5 size-5 shrink-0 text-gold" aria-hidden="true" />
      <p className="min-w-0 break-words">
        Shipped with {f.carrierLabel}:{' '}
        {f.trackingUrl ? (
          <a className="font-mono underline" href={f.trackingUrl} target="_blank" rel="noopener noreferrer">
            {f.trackingNumber}
          </a>
        ) : (
          <span className="font-mono">{f.trackingNumber}</span>
        )}
      </p>
    </div>
  );
}
