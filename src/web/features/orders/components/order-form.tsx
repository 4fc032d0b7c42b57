import { LegalConsent } from '#web/components/legal-consent';
import { useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import { CARD_STYLES, CARD_TYPES, DELIVERY_OPTIONS, formatUsd, QUANTITY_DEFAULT, QUANTITY_MAX, QUANTITY_MIN, SPECIAL_REQUESTS_MAX } from '#shared/catalogue';
import { needsShippingAddress, OrderFormSchema, type OrderFormValues } from '#shared/schemas/orders';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card';
import { FormField, Input, Select, Textarea } from '#web/components/ui/input';
import { ApiError, errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { cn } from '#web/lib/utils';
import { newClientToken, useSubmitOrder } from '#web/features/orders/api';
import { ArtworkUpload, type ArtworkState } from '#web/features/orders/artwork-upload';
import { PriceSummary } from '#web/features/orders/price-summary';
import type { OrderSuccessState } from '#web/features/orders/components/order-placed';
import { AddressFields, EMPTY_ADDRESS, type AddressFormValues } from '#web/components/address-fields';

type FormInput = {
  customerName: string;
  email: string;
  phone: string;
  companyName: string;
  position: string;
  quantity: number;
  cardType: string;
  cardStyle: string;
  deliveryOption: string;
  specialRequests: string;
  shippingAddress: AddressFormValues;
};
type FormOutput = import('zod').output<typeof OrderFormSchema>;

const DEFAULTS: FormInput = {
  customerName: '',
  email: '',
  phone: '',
  companyName: '',
  position: '',
  quantity: QUANTITY_DEFAULT,
  cardType: '',
  cardStyle: '',
  deliveryOption: '',
  specialRequests: '',
  shippingAddress: EMPTY_ADDRESS,
};
const FIELDS = Object.keys(DEFAULTS);

/** "Reorder" from My orders hands the earlier order's choices in router state (only known fields, as text). */
function reorderDefaults(state: unknown): Partial<FormInput> {
  const r = (state as { reorder?: Record<string, unknown> } | null)?.reorder;
  if (!r || typeof r !== 'object') return {};
  const out: Partial<FormInput> = {};
  for (const k of FIELDS as Array<keyof FormInput>) {
    const v = r[k];
    if (k === 'shippingAddress') continue;
    if (k === 'quantity' ? typeof v === 'number' : typeof v === 'string') (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

const describe = (id: string, error?: unknown, hint?: boolean) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

/** The order form of /order: contact, card choices, artwork upload and the running total; submits the order. */
export function OrderForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const submit = useSubmitOrder();
  // one key per filled-in form: pressing submit again after a lost answer gives the same order
  const clientToken = useRef(newClientToken());
  // the page's own secret: signed out, a key is only ever replayed within this form session (issue 33)
  const formSession = useRef(`${newClientToken()}${newClientToken()}`.replace(/-/g, ''));
  const [artwork, setArtwork] = useState<ArtworkState>({ url: null, uploading: false });

  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(OrderFormSchema) as never,
    defaultValues: { ...DEFAULTS, ...reorderDefaults(location.state) },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [cardTypeId, deliveryId, quantity] = useWatch({ control, name: ['cardType', 'deliveryOption', 'quantity'] });

  const onSubmit = handleSubmit(async (values) => {
    if (submit.isPending || artwork.uploading) return;
    try {
      const result = await submit.mutateAsync({
        values: { ...(values as OrderFormValues & FormOutput), artworkUrl: artwork.url ?? undefined, artworkToken: artwork.token ?? undefined } as never,
        idempotencyKey: clientToken.current,
        formSession: formSession.current,
      });
      clientToken.current = newClientToken();
      toast({
        title: 'Order submitted',
        description: result.checkoutUrl
          ? `We e-mailed you a checkout link for your ${result.total} order.`
          : `We e-mailed you a link to your order page (total ${result.total}).`,
      });
      // the page shows the total and the order page's link (kept out of the address: the link holds its key),
      // the delivery address and the one delivery promise (issue 35)
      const shipTo = needsShippingAddress(values.deliveryOption) ? (values.shippingAddress ?? null) : null;
      const promise = deliveryPromise(new Date(), values.deliveryOption).label;
      navigate(`/order-success?orderId=${result.orderId}`, {
        state: { order: { total: result.total, statusUrl: result.statusUrl, checkoutUrl: result.checkoutUrl, promise, shipTo: shipTo ? { ...shipTo, line2: shipTo.line2 ?? null } : null } } satisfies OrderSuccessState,
      });
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        if (FIELDS.includes(field) || field.startsWith('shippingAddress.')) setError(field as keyof FormInput, { message });
      }
      // the server's message (fallback 'Order submission failed'); no answer at all: 'Please try again.'
      const description = err instanceof ApiError ? errorMessage(err, 'Order submission failed') : errorMessage(err, 'Please try again.');
      toast({ title: 'Could not submit order', description, variant: 'destructive' });
    }
  });

  const busy = submit.isPending;
  // the promise of each delivery option, counted from now (the same function as the e-mail and the order page)
  const now = new Date();

  return (
    <section className="mx-auto max-w-5xl px-4 py-12">
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Place Your Order</h1>
        <p className="mt-2 max-w-2xl text-muted-foreground">
          Choose your metal, finish and quantity, tell us who the cards are for and add your artwork. You see your total as you go; we e-mail you a link to
          complete your order.
        </p>
      </header>

      <form onSubmit={onSubmit} noValidate aria-label="Place your order" className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_320px]">
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <h2 className="text-xl font-semibold leading-tight">Your details</h2>
              <CardDescription>Where we send your order confirmation and updates.</CardDescription>
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <FormField id="order-name" label="Full name" required error={errors.customerName?.message}>
                <Input id="order-name" autoComplete="name" maxLength={120} aria-invalid={!!errors.customerName} aria-describedby={describe('order-name', errors.customerName)} {...register('customerName')} />
              </FormField>
              <FormField id="order-email" label="Email" required error={errors.email?.message}>
                <Input id="order-email" type="email" autoComplete="email" maxLength={254} aria-invalid={!!errors.email} aria-describedby={describe('order-email', errors.email)} {...register('email')} />
              </FormField>
              <FormField id="order-phone" label="Phone (optional)" error={errors.phone?.message}>
                <Input id="order-phone" type="tel" autoComplete="tel" maxLength={40} aria-invalid={!!errors.phone} aria-describedby={describe('order-phone', errors.phone)} {...register('phone')} />
              </FormField>
              <FormField id="order-company" label="Company (optional)" error={errors.companyName?.message}>
                <Input id="order-company" autoComplete="organization" maxLength={120} aria-invalid={!!errors.companyName} aria-describedby={describe('order-company', errors.companyName)} {...register('companyName')} />
              </FormField>
              <FormField id="order-position" label="Position (optional)" error={errors.position?.message} className="sm:col-span-2">
                <Input id="order-position" autoComplete="organization-title" maxLength={120} aria-invalid={!!errors.position} aria-describedby={describe('order-position', errors.position)} {...register('position')} />
              </FormField>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <h2 className="text-xl font-semibold leading-tight">Card options</h2>
              <CardDescription>Prices are per card.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-6">
              <fieldset aria-describedby={errors.cardType ? 'order-card-type-error' : undefined}>
                <legend className="mb-2 text-sm font-medium">
                  Card type <span aria-hidden="true" className="text-destructive">*</span>
                </legend>
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                  {CARD_TYPES.map((t) => (
                    <label
                      key={t.id}
                      className={cn(
                        'flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors hover:border-gold/60',
                        cardTypeId === t.id ? 'border-gold bg-gold/5' : 'border-border',
                      )}
                    >
                      <input type="radio" value={t.id} className="mt-1 accent-[#d4af37]" aria-invalid={!!errors.cardType} {...register('cardType')} />
                      <span className="flex-1">
                        <span className="flex items-baseline justify-between gap-2">
                          <span className="font-medium">{t.label}</span>
                          <span className="text-sm font-semibold">{formatUsd(t.priceCents)}</span>
                        </span>
                        <span className="block text-xs text-muted-foreground">{t.description}</span>
                      </span>
                    </label>
                  ))}
                </div>
                {errors.cardType ? (
                  <p id="order-card-type-error" role="alert" className="mt-1.5 text-xs font-medium text-destructive">
                    {errors.cardType.message}
                  </p>
                ) : null}
              </fieldset>

              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <FormField id="order-style" label="Card style" required error={errors.cardStyle?.message}>
                  <Select id="order-style" aria-invalid={!!errors.cardStyle} aria-describedby={describe('order-style', errors.cardStyle)} {...register('cardStyle')}>
                    <option value="">Select a style</option>
                    {CARD_STYLES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </Select>
                </FormField>
                <FormField id="order-quantity" label="Quantity" required error={errors.quantity?.message} hint={`${QUANTITY_MIN} to ${QUANTITY_MAX.toLocaleString('en-US')} cards`}>
                  <Input
                    id="order-quantity"
                    type="number"
                    inputMode="numeric"
                    min={QUANTITY_MIN}
                    max={QUANTITY_MAX}
                    step={1}
                    aria-invalid={!!errors.quantity}
                    aria-describedby={describe('order-quantity', errors.quantity, true)}
                    {...register('quantity', { valueAsNumber: true })}
                  />
                </FormField>
              </div>

              <fieldset aria-describedby={errors.deliveryOption ? 'order-delivery-error' : undefined}>
                <legend className="mb-2 text-sm font-medium">
                  Delivery <span aria-hidden="true" className="text-destructive">*</span>
                </legend>
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                  {DELIVERY_OPTIONS.map((d) => (
                    <label
                      key={d.id}
                      className={cn(
                        'flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors hover:border-gold/60',
                        deliveryId === d.id ? 'border-gold bg-gold/5' : 'border-border',
                      )}
                    >
                      <input type="radio" value={d.id} className="mt-1 accent-[#d4af37]" aria-invalid={!!errors.deliveryOption} {...register('deliveryOption')} />
                      <span className="flex-1">
                        <span className="flex items-baseline justify-between gap-2">
                          <span className="font-medium">{d.label}</span>
                          <span className="text-sm font-semibold">{d.feeCents ? formatUsd(d.feeCents) : 'Free'}</span>
                        </span>
                        <span className="block text-xs text-muted-foreground">{d.description}</span>
                        <span className="block text-xs font-medium" data-testid={`delivery-promise-${d.id}`}>
                          {deliveryPromise(now, d.id).label}
                        </span>
                      </span>
                    </label>
                  ))}
                </div>
                {errors.deliveryOption ? (
                  <p id="order-delivery-error" role="alert" className="mt-1.5 text-xs font-medium text-destructive">
                    {errors.deliveryOption.message}
                  </p>
                ) : null}
              </fieldset>

              <FormField id="order-requests" label="Special requests (optional)" error={errors.specialRequests?.message}>
                <Textarea
                  id="order-requests"
                  rows={4}
                  maxLength={SPECIAL_REQUESTS_MAX}
                  placeholder="Finishes, colours, edge details, deadlines..."
                  aria-invalid={!!errors.specialRequests}
                  aria-describedby={describe('order-requests', errors.specialRequests)}
                  {...register('specialRequests')}
                />
              </FormField>

              <ArtworkUpload onChange={setArtwork} disabled={busy} />
            </CardContent>
          </Card>

          {needsShippingAddress(deliveryId) ? (
            <Card>
              <CardHeader>
                <h2 className="text-xl font-semibold leading-tight">Delivery address</h2>
                <CardDescription>Where we send your cards. You can correct it on your order page until they ship.</CardDescription>
              </CardHeader>
              <CardContent>
                {errors.shippingAddress?.message ? (
                  <p role="alert" className="mb-3 text-xs font-medium text-destructive">
                    {errors.shippingAddress.message}
                  </p>
                ) : null}
                <AddressFields register={register} errors={errors.shippingAddress} disabled={busy} />
              </CardContent>
            </Card>
          ) : null}
        </div>

        <aside className="space-y-4 lg:sticky lg:top-24 lg:self-start">
          <PriceSummary cardTypeId={cardTypeId} deliveryId={deliveryId} quantity={Number(quantity)} />
          <Button type="submit" variant="gold" size="lg" className="w-full" disabled={busy || artwork.uploading}>
            {busy ? 'Submitting...' : 'Submit Order'}
          </Button>
          <LegalConsent action="placing the order" testId="order-legal" />
          {artwork.uploading ? <p className="text-center text-xs text-muted-foreground">Waiting for the artwork upload to finish...</p> : null}
        </aside>
      </form>
    </section>
  );
}
