import { TAX_NOTE } from '#shared/orders/checkout-terms';
import { BUSINESS, cardType, deliveryOption, formatUsd, priceOrder, QUANTITY_MAX, QUANTITY_MIN, VOLUME_DISCOUNT_FROM } from '#shared/catalogue';

/**
 * The running total: card price x quantity + delivery fee, from the shared catalogue (the server
 * computes the same figure; this one is only shown).
 */
export function PriceSummary({ cardTypeId, deliveryId, quantity }: { cardTypeId?: string; deliveryId?: string; quantity: number }) {
  const ct = cardTypeId ? cardType(cardTypeId) : undefined;
  const d = deliveryId ? deliveryOption(deliveryId) : undefined;
  const validQty = Number.isInteger(quantity) && quantity >= QUANTITY_MIN && quantity <= QUANTITY_MAX;
  const quote = ct && d && validQty ? priceOrder({ cardType: ct.id, deliveryOption: d.id, quantity }) : null;

  return (
    <div className="rounded-lg border border-border bg-muted/30 p-4" aria-live="polite" data-testid="order-total-panel">
      <h2 className="mb-3 text-base font-semibold">Order total</h2>
      {quote ? (
        <dl className="space-y-1.5 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">
              {quote.quantity.toLocaleString('en-US')} × {quote.cardTypeLabel} at {formatUsd(quote.unitPriceCents)}
            </dt>
            <dd>{formatUsd(quote.subtotalCents)}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Delivery: {quote.deliveryLabel}</dt>
            <dd>{quote.deliveryFeeCents ? formatUsd(quote.deliveryFeeCents) : 'Free'}</dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-border pt-2 text-base font-semibold">
            <dt>Total</dt>
            <dd data-testid="order-total">{formatUsd(quote.totalCents)}</dd>
          </div>
        </dl>
      ) : (
        <p className="text-sm text-muted-foreground">
          {!validQty ? `Enter a quantity from ${QUANTITY_MIN} to ${QUANTITY_MAX.toLocaleString('en-US')}.` : 'Choose a card type and a delivery option to see your total.'}
        </p>
      )}
      {validQty && quantity >= VOLUME_DISCOUNT_FROM ? (
        <p className="mt-3 rounded-md bg-gold/10 px-3 py-2 text-xs text-foreground" data-testid="volume-note">
          Volume discount: orders of {VOLUME_DISCOUNT_FROM}+ cards qualify for volume pricing. We confirm any discount with you before production.
        </p>
      ) : null}
      <p className="mt-3 text-xs text-muted-foreground">
        Prices in USD per card, {TAX_NOTE}. Production takes {BUSINESS.claims.productionDays}.
      </p>
    </div>
  );
}
