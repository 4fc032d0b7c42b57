import { useRef } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { formatUsd, priceOrder } from '#shared/catalogue';
import { needsShippingAddress, type MyOrder } from '#shared/schemas/orders';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { TAX_NOTE, paymentNote } from '#shared/orders/checkout-terms';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { newClientToken } from '#web/features/orders/api';
import { useCheckoutTerms, useReorder } from '#web/features/orders/checkout-api';
import { AddressLines } from '#web/components/address-fields';

/**
 * "Reorder" of an order whose design is approved (issue 35): the summary of the new order (the same
 * approved design, card type, quantity, delivery and address, today's price, tax note, how payment
 * works) and one confirm. The new order's design is approved already (decision 35-03).
 */
export function ReorderConfirm({ order, onClose, onPlaced }: { order: MyOrder; onClose: () => void; onPlaced: (orderId: number) => void }) {
  const reorder = useReorder(order.id);
  const terms = useCheckoutTerms();
  const token = useRef(newClientToken());
  const quote = priceOrder({ cardType: order.cardType, deliveryOption: order.deliveryOption, quantity: order.quantity });
  const missingAddress = needsShippingAddress(order.deliveryOption) && !order.shippingAddress;

  async function confirm() {
    try {
      const res = await reorder.mutateAsync({ clientToken: token.current });
      toast({ title: 'Reorder placed', description: `Order #${res.orderId}: the approved design of order #${order.id}, ${quote.quantity.toLocaleString('en-US')} cards.` });
      onPlaced(res.orderId);
    } catch (err) {
      toast({ title: 'Could not reorder', description: errorMessage(err), variant: 'destructive' });
    }
  }

  return (
    <section className="space-y-3 rounded-lg border border-gold/50 p-4 text-sm" aria-label={`Reorder order #${order.id}`} data-testid="reorder-summary">
      <h3 className="text-base font-semibold">Reorder: check the new order</h3>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="font-medium">Items</dt>
        <dd>
          {quote.quantity.toLocaleString('en-US')} cards with the approved design of order #{order.id}
        </dd>
        <dt className="font-medium">Card type</dt>
        <dd>
          {quote.cardTypeLabel} ({order.cardStyle}) at {formatUsd(quote.unitPriceCents)} per card
        </dd>
        <dt className="font-medium">Quantity</dt>
        <dd>{quote.quantity.toLocaleString('en-US')}</dd>
        <dt className="font-medium">Delivery</dt>
        <dd>
          {quote.deliveryLabel} ({quote.deliveryFeeCents ? formatUsd(quote.deliveryFeeCents) : 'free'}). {deliveryPromise(new Date(), order.deliveryOption).label}
        </dd>
        <dt className="font-medium">{order.shippingAddress ? 'Ship to' : 'Pickup'}</dt>
        <dd>{order.shippingAddress ? <AddressLines address={order.shippingAddress} /> : missingAddress ? 'No delivery address on the first order' : 'At our New York studio'}</dd>
        <dt className="font-medium">Total</dt>
        <dd>
          <span className="font-semibold" data-testid="reorder-total">
            {formatUsd(quote.totalCents)}
          </span>{' '}
          <span className="text-muted-foreground">{terms.data?.taxNote ?? TAX_NOTE}</span>
        </dd>
      </dl>
      <p className="text-muted-foreground">{terms.data?.paymentNote ?? paymentNote('invoice')}. The design is the one we approved, so it goes straight to your proof.</p>
      {missingAddress ? (
        <p role="alert" className="text-destructive">
          Add a delivery address on the order page of order #{order.id} first, or place a new order.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="gold" onClick={() => void confirm()} disabled={reorder.isPending || missingAddress}>
          {reorder.isPending ? <Spinner className="size-4" label="Placing the order" /> : <CheckCircle2 />}
          {reorder.isPending ? 'Placing order...' : 'Confirm reorder'}
        </Button>
        <Button variant="outline" onClick={onClose} disabled={reorder.isPending}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
