import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { CARD_STYLES, CARD_TYPES, DELIVERY_OPTIONS, formatUsd, orderStepLabel, priceOrder } from '#shared/catalogue';
import { needsShippingAddress } from '#shared/schemas/orders';
import type { TeamOrder } from '#shared/schemas/team';
import { AddressFields, EMPTY_ADDRESS, type AddressFormValues } from '#web/components/address-fields';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { fieldErrors } from '#web/lib/api';
import { usePlaceTeamOrder, useTeamMembers, useTeamOrders } from '#web/features/team/api';
import { done, failed } from '#web/features/team/notify';

const STATUS: Record<string, ['grey' | 'yellow' | 'green' | 'red', string]> = {
  pending: ['yellow', 'In review'],
  approved: ['green', 'Approved'],
  rejected: ['red', 'Needs changes'],
};

/** The one catalogue's total for the order (null: nothing chosen, or over the limits). */
/**
 * A key for one filled-in team order form (issue 33): random from the browser's crypto, never from
 * the clock (a retried submit answers the same order; nobody can guess another team's key).
 */
function newOrderKey(): string {
  return globalThis.crypto.randomUUID();
}

function quote(cardType: string, deliveryOption: string, quantity: number): number | null {
  if (!quantity) return null;
  try {
    return priceOrder({ cardType, deliveryOption, quantity }).totalCents;
  } catch {
    return null;
  }
}

/** The server's flat field errors under `shippingAddress.` as the address inputs show them. */
function addressErrors(errors: Record<string, string>) {
  const out: Partial<Record<keyof AddressFormValues, { type: string; message: string }>> = {};
  for (const [k, message] of Object.entries(errors)) {
    const m = /^shippingAddress\.(\w+)$/.exec(k);
    if (m) out[m[1] as keyof AddressFormValues] = { type: 'server', message };
  }
  return out;
}

function OrderForm({ defaultAddress }: { defaultAddress: string }) {
  const members = useTeamMembers();
  const place = usePlaceTeamOrder();
  const [qty, setQty] = useState<Record<string, number>>({});
  const [v, setV] = useState({ cardType: CARD_TYPES[0].id as string, cardStyle: CARD_STYLES[0] as string, deliveryOption: DELIVERY_OPTIONS[0].id as string });
  // the delivery address (issue 35): the same inputs as the order form and the checkout
  const addressForm = useForm<{ shippingAddress: AddressFormValues }>({ defaultValues: { shippingAddress: EMPTY_ADDRESS } });
  const shipped = needsShippingAddress(v.deliveryOption);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [token, setToken] = useState(newOrderKey);
  const chosen = Object.entries(qty).filter(([, n]) => n > 0);
  const total = chosen.reduce((n, [, q]) => n + q, 0);
  const price = quote(v.cardType, v.deliveryOption, total);
  const all = members.data?.members ?? [];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      const order = await place.mutateAsync({
        members: chosen.map(([userId, quantity]) => ({ userId, quantity })),
        cardType: v.cardType as never,
        cardStyle: v.cardStyle as never,
        deliveryOption: v.deliveryOption as never,
        ...(shipped ? { shippingAddress: addressForm.getValues('shippingAddress') } : {}),
        clientToken: token,
      });
      done(`Order #${order.orderId} placed`, `${order.cards.length} cards are waiting for our design review.`);
      setQty({});
      addressForm.reset();
      setToken(newOrderKey());
    } catch (err) {
      setErrors(fieldErrors(err));
      failed(err, 'The order was not placed');
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Order team cards">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Cards per member</legend>
        <div className="flex gap-2">
          <Button type="button" size="sm" variant="outline" onClick={() => setQty(Object.fromEntries(all.filter((m) => m.profileId).map((m) => [m.userId, qty[m.userId] || 100])))}>
            Everyone, 100 each
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setQty({})}>
            Clear
          </Button>
        </div>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {all.map((m) => {
            const error = errors[`members.${chosen.findIndex(([id]) => id === m.userId)}.userId`];
            return (
            <label key={m.userId} className="flex items-center justify-between gap-3 rounded-md border px-3 py-2 text-sm">
              <span>
                {m.fullName}
                {!m.profileId ? <span className="block text-xs text-muted-foreground">No profile yet</span> : null}
                {error ? <span className="block text-xs text-destructive">{error}</span> : null}
              </span>
              <Input
                type="number"
                min={0}
                max={1000}
                step={50}
                className="w-24"
                aria-label={`Cards for ${m.fullName}`}
                disabled={!m.profileId}
                value={qty[m.userId] ?? 0}
                onChange={(e) => setQty((s) => ({ ...s, [m.userId]: Math.max(0, Math.min(1000, Number(e.target.value) || 0)) }))}
              />
            </label>
            );
          })}
        </div>
        {all.some((m) => !m.profileId) ? (
          <p className="text-xs text-muted-foreground">A card is filled from its holder&apos;s profile: people without one yet complete it on their Profile page first.</p>
        ) : null}
        {errors.members ? <p className="text-sm text-destructive">{errors.members}</p> : null}
      </fieldset>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <FormField id="team-card-type" label="Card type" error={errors.cardType}>
          <Select id="team-card-type" value={v.cardType} onChange={(e) => setV({ ...v, cardType: e.target.value })}>
            {CARD_TYPES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label} ({formatUsd(c.priceCents)} each)
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="team-card-style" label="Style" error={errors.cardStyle}>
          <Select id="team-card-style" value={v.cardStyle} onChange={(e) => setV({ ...v, cardStyle: e.target.value })}>
            {CARD_STYLES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </Select>
        </FormField>
        <FormField id="team-delivery" label="Delivery" error={errors.deliveryOption}>
          <Select id="team-delivery" value={v.deliveryOption} onChange={(e) => setV({ ...v, deliveryOption: e.target.value })}>
            {DELIVERY_OPTIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      {shipped ? (
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium">Delivery address (one delivery for everyone)</legend>
          {defaultAddress ? <p className="text-xs text-muted-foreground">The team&apos;s address on file: {defaultAddress}</p> : null}
          {errors.shippingAddress ? (
            <p className="text-sm text-destructive" role="alert">
              {errors.shippingAddress}
            </p>
          ) : null}
          <AddressFields register={addressForm.register} errors={addressErrors(errors)} />
        </fieldset>
      ) : (
        <p className="text-sm text-muted-foreground">Picked up at our New York studio: no delivery address needed.</p>
      )}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" variant="gold" disabled={place.isPending || !chosen.length}>
          {place.isPending ? 'Placing the order…' : `Order ${total.toLocaleString('en-US')} cards for ${chosen.length} ${chosen.length === 1 ? 'person' : 'people'}`}
        </Button>
        {price !== null ? <span data-testid="team-order-total">Total {formatUsd(price)}</span> : null}
      </div>
    </form>
  );
}

function OrderView({ o }: { o: TeamOrder }) {
  return (
    <div className="space-y-3 rounded-md border p-4" data-testid="team-order">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">
          Order #{o.orderId} · {o.quantity.toLocaleString('en-US')} cards · {formatUsd(o.totalCents)}
        </h3>
        <Link to={o.statusPath} className="text-sm underline">
          Order status: {orderStepLabel(o.status, o.deliveryOption)}
        </Link>
      </div>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {o.cards.map((c) => (
          <li key={c.cardId} className="flex gap-3 rounded border p-2" data-testid="team-card">
            {c.frontImageUrl ? <img src={c.frontImageUrl} alt={`Card of ${c.fullName}`} className="h-16 w-28 rounded object-cover" loading="lazy" /> : null}
            <div className="min-w-0 text-sm">
              <div className="font-medium">{c.fullName}</div>
              <div className="text-xs text-muted-foreground">
                {c.quantity} cards{c.code ? ` · /c/${c.code}${c.codeActive ? '' : ' (off)'}` : ''}
              </div>
              <Badge variant={STATUS[c.status][0]}>{STATUS[c.status][1]}</Badge>
              {c.reason ? <p className="mt-1 text-xs text-destructive">{c.reason}</p> : null}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Cards: one order for chosen members (one catalogue price, one delivery), and the team's orders with each card's review. */
export function CardsTab({ defaultAddress }: { defaultAddress: string }) {
  const orders = useTeamOrders();
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Order cards for your team</CardTitle>
          <CardDescription>Each person gets their own card: the team template with their details and their own QR code. Our studio reviews the designs as one batch.</CardDescription>
        </CardHeader>
        <CardContent>
          <OrderForm defaultAddress={defaultAddress} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Team orders</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {orders.isLoading ? <Skeleton className="h-24 w-full" /> : null}
          {orders.data && !orders.data.orders.length ? <p className="text-sm text-muted-foreground">No team orders yet.</p> : null}
          {orders.data?.orders.map((o) => (
            <OrderView key={o.orderId} o={o} />
          ))}
        </CardContent>
      </Card>
    </div>
  );
}
