import { LegalConsent } from '#web/components/legal-consent';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { CARD_STYLES, DELIVERY_OPTIONS, DELIVERY_OPTION_IDS, QUANTITY_DEFAULT, QUANTITY_MAX, QUANTITY_MIN, formatUsd, priceOrder, type CardStyle, type CardTypeId, type DeliveryOptionId } from '#shared/catalogue';
import { ORDER_MESSAGES, ShippingAddress, needsShippingAddress, quantityField, withShippingAddressRule, type ShippingAddressData } from '#shared/schemas/orders';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { TAX_NOTE, paymentNote } from '#shared/orders/checkout-terms';
import { Button } from '#web/components/ui/button';
import { FormField, Input, Select } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { useCheckoutTerms } from '#web/features/orders/checkout-api';
import { PriceSummary } from '#web/features/orders/price-summary';
import { AddressFields, AddressLines, EMPTY_ADDRESS, type AddressFormValues } from '#web/components/address-fields';

/** What the checkout adds to a design to make it an order (issue 35). */
interface CheckoutChoice {
  quantity: number;
  deliveryOption: DeliveryOptionId;
  cardStyle: CardStyle;
  /** every delivery but pickup */
  shippingAddress?: ShippingAddressData;
}

const CheckoutSchema = withShippingAddressRule(
  z.strictObject({
    quantity: quantityField,
    deliveryOption: z.enum(DELIVERY_OPTION_IDS, { error: ORDER_MESSAGES.deliveryOption }),
    cardStyle: z.enum(CARD_STYLES, { error: ORDER_MESSAGES.cardStyle }),
    shippingAddress: ShippingAddress.optional(),
  }),
);

interface CheckoutFormValues {
  quantity: number;
  deliveryOption: DeliveryOptionId;
  cardStyle: CardStyle;
  shippingAddress: AddressFormValues;
}

interface DesignCheckoutProps {
  cardType: CardTypeId;
  /** the design's template, named in the summary's items */
  templateName: string;
  pending: boolean;
  /** back to the designer */
  onBack: () => void;
  /** places the order (the designer submits the design with these) */
  onConfirm: (choice: CheckoutChoice) => Promise<unknown>;
}

/**
 * The designer's explicit checkout (issue 35): quantity, delivery, style and the delivery address,
 * then a summary (items, card type, quantity, delivery, address, total, tax note and how payment
 * works) and a confirm step. Nothing is ordered before "Confirm order".
 */
export function DesignCheckout({ cardType, templateName, pending, onBack, onConfirm }: DesignCheckoutProps) {
  const terms = useCheckoutTerms();
  const [review, setReview] = useState<CheckoutChoice | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<CheckoutFormValues, unknown, CheckoutChoice>({
    resolver: zodResolver(CheckoutSchema) as never,
    defaultValues: { quantity: QUANTITY_DEFAULT, deliveryOption: 'standard', cardStyle: 'Matte', shippingAddress: EMPTY_ADDRESS },
  });
  const [deliveryId, quantity] = useWatch({ control, name: ['deliveryOption', 'quantity'] });
  const mode = terms.data?.paymentMode ?? 'invoice';

  if (review) {
    const quote = priceOrder({ cardType, deliveryOption: review.deliveryOption, quantity: review.quantity });
    const promise = deliveryPromise(new Date(), review.deliveryOption).label;
    return (
      <section aria-labelledby="checkout-summary" className="space-y-5" data-testid="checkout-summary">
        <h2 id="checkout-summary" className="text-xl font-semibold">
          Check your order
        </h2>
        <dl className="divide-y divide-border rounded-lg border border-border text-sm">
          <SummaryRow term="Items">
            {quote.quantity.toLocaleString('en-US')} metal business cards, your design on the {templateName} template
          </SummaryRow>
          <SummaryRow term="Card type">
            {quote.cardTypeLabel} ({review.cardStyle}) at {formatUsd(quote.unitPriceCents)} per card
          </SummaryRow>
          <SummaryRow term="Quantity">{quote.quantity.toLocaleString('en-US')}</SummaryRow>
          <SummaryRow term="Delivery">
            {quote.deliveryLabel} ({quote.deliveryFeeCents ? formatUsd(quote.deliveryFeeCents) : 'free'}). {promise}
          </SummaryRow>
          <SummaryRow term={review.shippingAddress ? 'Ship to' : 'Pickup'}>
            {review.shippingAddress ? <AddressLines address={{ ...review.shippingAddress, line2: review.shippingAddress.line2 ?? null }} testId="checkout-address" /> : 'At our New York studio (no shipping)'}
          </SummaryRow>
          <SummaryRow term="Total">
            <span className="text-base font-semibold" data-testid="checkout-total">
              {formatUsd(quote.totalCents)}
            </span>{' '}
            <span className="text-muted-foreground">{terms.data?.taxNote ?? TAX_NOTE}</span>
          </SummaryRow>
        </dl>
        <p className="rounded-md border border-gold/40 bg-gold/10 p-3 text-sm" data-testid="checkout-payment">
          {terms.data?.paymentNote ?? paymentNote(mode)}.
        </p>
        <p className="text-xs text-muted-foreground">Your design goes to our team for review first; we e-mail you at each stage.</p>
        <div className="flex flex-wrap justify-between gap-3 border-t border-border pt-4">
          <Button type="button" variant="outline" onClick={() => setReview(null)} disabled={pending}>
            <ArrowLeft /> Edit order
          </Button>
          <Button type="button" variant="gold" size="lg" disabled={pending} onClick={() => void onConfirm(review)}>
            {pending ? <Spinner className="size-4" label="Placing the order" /> : <CheckCircle2 />}
            {pending ? 'Placing order...' : 'Confirm order'}
          </Button>
        </div>
        <LegalConsent action="confirming the order" testId="checkout-legal" className="text-right" />
      </section>
    );
  }

  return (
    <form onSubmit={handleSubmit((c) => setReview(c))} noValidate aria-labelledby="checkout-title" className="space-y-6">
      <h2 id="checkout-title" className="text-xl font-semibold">
        Checkout
      </h2>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <FormField id="co-quantity" label="Quantity" required error={errors.quantity?.message} hint="Volume discounts for 100+ cards">
          <Input id="co-quantity" type="number" inputMode="numeric" min={QUANTITY_MIN} max={QUANTITY_MAX} aria-invalid={!!errors.quantity} {...register('quantity', { valueAsNumber: true })} />
        </FormField>
        <FormField id="co-delivery" label="Delivery" required error={errors.deliveryOption?.message}>
          <Select id="co-delivery" {...register('deliveryOption')}>
            {DELIVERY_OPTIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label} ({d.feeCents ? formatUsd(d.feeCents) : 'free'})
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="co-style" label="Card style" required error={errors.cardStyle?.message}>
          <Select id="co-style" {...register('cardStyle')}>
            {CARD_STYLES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <p className="text-sm text-muted-foreground">{deliveryPromise(new Date(), deliveryId ?? 'standard').label}</p>
      {needsShippingAddress(deliveryId) ? (
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold">Delivery address</legend>
          <AddressFields register={register} errors={errors.shippingAddress as never} disabled={pending} />
          {errors.shippingAddress?.message ? (
            <p className="text-sm text-destructive" role="alert">
              {errors.shippingAddress.message}
            </p>
          ) : null}
        </fieldset>
      ) : (
        <p className="text-sm">Pickup at our New York studio: no delivery address needed.</p>
      )}
      <PriceSummary cardTypeId={cardType} deliveryId={deliveryId} quantity={Number(quantity)} />
      <p className="text-xs text-muted-foreground">
        Prices {terms.data?.taxNote ?? TAX_NOTE}. {terms.data?.paymentNote ?? paymentNote(mode)}.
      </p>
      <div className="flex flex-wrap justify-between gap-3 border-t border-border pt-4">
        <Button type="button" variant="outline" onClick={onBack}>
          <ArrowLeft /> Back to the design
        </Button>
        <Button type="submit" variant="gold">
          Review order
        </Button>
      </div>
    </form>
  );
}

function SummaryRow({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 p-3 sm:grid-cols-[8rem_minmax(0,1fr)]">
      <dt className="font-medium">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
