import { useState } from 'react';
import { ClipboardCheck, Factory, PackageCheck, RotateCcw, Store, Truck, XCircle } from 'lucide-react';
import type { AdminOrderDetail } from '#shared/schemas/admin';
import { orderStepLabel } from '#shared/catalogue';
import { offeredMoves, REQUIREMENT_LABELS } from '#shared/orders/status-machine';
import { CARRIERS, trackingNumberError, type CarrierId } from '#shared/production/tracking';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog';
import { Input, Label, Select } from '#web/components/ui/input';
import { useFulfilOrder, useUpdateOrderStatus } from '#web/features/admin/api';

const ICONS: Record<string, typeof Factory> = {
  pending: RotateCcw,
  processing: ClipboardCheck,
  'in-production': Factory,
  'quality-check': ClipboardCheck,
  shipped: Truck,
  'ready-for-pickup': Store,
  completed: PackageCheck,
  cancelled: XCircle,
};

const PROOF_TEXT: Record<AdminOrderDetail['workflow']['proof']['state'], string> = {
  none: 'No proof yet: the design is not approved.',
  awaiting: "Proof sent: waiting for the customer's approval.",
  approved: 'The customer approved the proof.',
  changes: 'The customer asked for changes.',
};

type Move = ReturnType<typeof offeredMoves>[number];

/**
 * The order's status moves (issue 35, decision 35-04): only the moves the status machine allows are
 * offered (the same shared code the server enforces), each blocked move says what it still needs;
 * a move that e-mails the customer is confirmed first; shipping asks the carrier and tracking number.
 */
export function OrderStatusActions({ order }: { order: AdminOrderDetail }) {
  const update = useUpdateOrderStatus();
  const fulfil = useFulfilOrder();
  const [pending, setPending] = useState<Move | null>(null);
  const [override, setOverride] = useState('');
  const [carrier, setCarrier] = useState<CarrierId>('ups');
  const [tracking, setTracking] = useState('');
  const [touched, setTouched] = useState(false);
  const { facts, proof } = order.workflow;
  const moves = offeredMoves(facts);
  const busy = update.isPending || fulfil.isPending;
  const label = (status: string) => orderStepLabel(status, order.deliveryOption);
  const close = () => {
    setPending(null);
    setOverride('');
    setTracking('');
    setTouched(false);
  };

  const shipping = pending?.status === 'shipped';
  const trackingError = shipping && touched ? trackingNumberError(carrier, tracking) : null;
  const needsOverride = !!pending && !pending.allowed && pending.overridable;

  const confirm = () => {
    if (!pending) return;
    if (pending.status === 'shipped') {
      setTouched(true);
      if (trackingNumberError(carrier, tracking)) return;
      fulfil.mutate({ id: order.id, ship: { carrier, trackingNumber: tracking } }, { onSuccess: close });
    } else if (pending.status === 'ready-for-pickup') {
      fulfil.mutate({ id: order.id }, { onSuccess: close });
    } else {
      update.mutate({ id: order.id, status: pending.status, overrideReason: needsOverride ? override.trim() : undefined }, { onSuccess: close });
    }
  };
  const start = (m: Move) => {
    // a plain move that e-mails nobody goes at once; the rest ask first
    if (m.allowed && !m.emailsCustomer && m.status !== 'cancelled') update.mutate({ id: order.id, status: m.status });
    else setPending(m);
  };

  return (
    <div className="space-y-3" data-testid="order-status-actions">
      <p className="text-sm" data-testid="order-proof-state" data-proof={proof.state}>
        <span className="font-medium">Proof: </span>
        {PROOF_TEXT[proof.state]}
        {proof.message ? <span className="mt-1 block whitespace-pre-wrap rounded-md bg-muted p-2">“{proof.message}”</span> : null}
      </p>
      {proof.cards?.length ? (
        <div className="text-sm" data-testid="order-proof-cards">
          <span className="font-medium">{proof.cards.length === 1 ? 'Card to change: ' : `Cards to change (${proof.cards.length}): `}</span>
          <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Cards the customer named">
            {proof.cards.map((c) => (
              <li key={c.id} className="rounded-full border border-border px-2 py-0.5 text-xs">
                {c.name} <span className="text-muted-foreground">#{c.id}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {moves.length ? (
        <ul className="space-y-2" aria-label="Status moves">
          {moves.map((m) => {
            const Icon = ICONS[m.status] ?? Factory;
            // shipping records its tracking number in the dialog: it is not missing yet
            const missing = m.missing.filter((x) => x !== 'tracking');
            const blocked = missing.length > 0 && !m.overridable;
            return (
              <li key={m.status} className="flex flex-wrap items-center gap-2">
                <Button variant="outline" size="sm" disabled={busy || blocked} onClick={() => start(m)} data-move={m.status}>
                  <Icon aria-hidden="true" />
                  {m.status === 'completed' ? `Mark ${label('completed')}` : m.status === 'shipped' ? 'Mark Shipped...' : `Mark ${label(m.status)}`}
                </Button>
                {missing.length ? (
                  <span className="text-xs text-muted-foreground" data-testid={`missing-${m.status}`}>
                    Needs {missing.map((x) => REQUIREMENT_LABELS[x]).join(', ')}
                    {m.overridable ? ' (or a payment override with a reason)' : ''}
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{label(order.status)} is final: no more moves.</p>
      )}

      <Dialog open={pending !== null} onOpenChange={(open) => !open && close()}>
        {pending ? (
          <DialogContent className="max-w-md" data-testid="status-confirm">
            <DialogTitle>
              Move order #{order.id} to {label(pending.status)}?
            </DialogTitle>
            <DialogDescription>
              {pending.emailsCustomer ? `${order.customerName} gets an e-mail about this step.` : 'The customer is not e-mailed about this step.'}
            </DialogDescription>
            <form
              className="space-y-3"
              onSubmit={(e) => {
                e.preventDefault();
                confirm();
              }}
            >
              {shipping ? (
                <div className="grid grid-cols-1 gap-2 sm:grid-cols-[8rem_1fr]">
                  <div>
                    <Label htmlFor="confirm-carrier">Carrier</Label>
                    <Select id="confirm-carrier" value={carrier} onChange={(e) => setCarrier(e.target.value as CarrierId)}>
                      {CARRIERS.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.label}
                        </option>
                      ))}
                    </Select>
                  </div>
                  <div>
                    <Label htmlFor="confirm-tracking">Tracking number</Label>
                    <Input
                      id="confirm-tracking"
                      value={tracking}
                      autoComplete="off"
                      spellCheck={false}
                      onChange={(e) => setTracking(e.target.value)}
                      onBlur={() => setTouched(true)}
                      aria-invalid={!!trackingError}
                      aria-describedby={trackingError ? 'confirm-tracking-error' : undefined}
                    />
                  </div>
                  {trackingError ? (
                    <p id="confirm-tracking-error" role="alert" className="text-sm text-destructive sm:col-span-2">
                      {trackingError}
                    </p>
                  ) : null}
                </div>
              ) : null}
              {needsOverride ? (
                <div>
                  <Label htmlFor="confirm-override">Start production unpaid: reason</Label>
                  <Input id="confirm-override" value={override} maxLength={500} onChange={(e) => setOverride(e.target.value)} placeholder="e.g. Net 30 account, invoice sent" />
                  <p className="mt-1 text-xs text-muted-foreground">The order is not paid. The reason is kept in the status history.</p>
                </div>
              ) : null}
              <div className="flex justify-end gap-2">
                <Button type="button" variant="outline" size="sm" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" size="sm" variant="gold" disabled={busy || (needsOverride && !override.trim())}>
                  {busy ? 'Saving...' : pending.emailsCustomer ? `Move and e-mail the customer` : 'Move'}
                </Button>
              </div>
            </form>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}
