import { and, asc, eq, sql } from 'drizzle-orm';
import type { AdminOrderPaymentCreateBody, OrderPayment, PaymentStatus } from '#shared/schemas/admin';
import type { z } from 'zod';
import type { AppContext } from '#server/context';
import type { Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { orderNotes, orderPayments, orders, storeWebhookEvents } from '#server/db/schema/orders';
import { queryRow } from '#server/db/rows';
import { notFound } from '#server/http/http-errors';
import type { StoreEventOutcome, StoreOrderEvent, StoreTopic } from '#server/features/shopify/public-api';
import { changeOrderStatus, type OrderRow, type StatusActor } from './orders.service';

/**
 * Payment state of an order (issue 35, decision 35-01): payments and refunds recorded by staff
 * (invoice mode) or by the online store's webhooks, and what revenue counts (money kept).
 */

type PaymentRow = typeof orderPayments.$inferSelect;

/**
 * The state from the amounts: nothing in is unpaid; refunds decide next; then the money must cover
 * our price (the store saying its own order is paid is not enough: its charge can be smaller).
 */
export function paymentStatusOf(p: { paidCents: number; refundedCents: number; dueCents: number }): PaymentStatus {
  if (p.paidCents <= 0) return 'unpaid';
  if (p.refundedCents >= p.paidCents) return 'refunded';
  if (p.refundedCents > 0) return 'partially_refunded';
  return p.paidCents >= p.dueCents ? 'paid' : 'unpaid';
}

const storeConfigured = (ctx: AppContext) => !!(ctx.config.SHOPIFY_STORE_DOMAIN && ctx.config.SHOPIFY_STOREFRONT_TOKEN);

/** The staff detail's `payment`: state, amounts, the latest method and reference, every entry. */
export async function getOrderPayment(ctx: AppContext, orderId: number): Promise<OrderPayment> {
  const [order] = await ctx.db
    .select({
      id: orders.id,
      totalCents: orders.totalCents,
      currency: orders.currency,
      storeOrderId: orders.storeOrderId,
      storeOrderName: orders.storeOrderName,
      storeTotalCents: orders.storeTotalCents,
      storeTaxCents: orders.storeTaxCents,
      storeShippingAddress: orders.storeShippingAddress,
      storeCancelledAt: orders.storeCancelledAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) throw notFound('Order not found');
  const rows = await ctx.db
    .select({ p: orderPayments, u: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
    .from(orderPayments)
    .leftJoin(users, eq(users.id, orderPayments.recordedBy))
    .where(eq(orderPayments.orderId, order.id))
    .orderBy(asc(orderPayments.createdAt), asc(orderPayments.id));
  let paidCents = 0;
  let refundedCents = 0;
  let latest: PaymentRow | null = null;
  for (const { p } of rows) {
    if (p.kind === 'refund') refundedCents += p.amountCents;
    else {
      paidCents += p.amountCents;
      latest = p;
    }
  }
  const dueCents = order.totalCents;
  const status = paymentStatusOf({ paidCents, refundedCents, dueCents });
  return {
    status,
    paidCents,
    refundedCents,
    balanceCents: status === 'unpaid' ? Math.max(0, dueCents - (paidCents - refundedCents)) : 0,
    currency: latest?.currency ?? order.currency,
    method: latest?.method ?? null,
    reference: latest?.reference ?? null,
    mode: order.storeOrderId || storeConfigured(ctx) ? 'store' : 'invoice',
    store: order.storeOrderId
      ? {
          orderId: order.storeOrderId,
          orderName: order.storeOrderName,
          totalCents: order.storeTotalCents,
          taxCents: order.storeTaxCents,
          shippingAddress: (order.storeShippingAddress as Record<string, unknown> | null) ?? null,
          cancelledAt: order.storeCancelledAt ? order.storeCancelledAt.toISOString() : null,
        }
      : null,
    entries: rows.map(({ p, u }) => ({
      id: p.id,
      kind: p.kind === 'refund' ? 'refund' : 'payment',
      amountCents: p.amountCents,
      currency: p.currency,
      method: p.method,
      reference: p.reference,
      source: p.source,
      recordedBy: p.recordedBy && u ? [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email : p.recordedByLabel,
      createdAt: p.createdAt.toISOString(),
    })),
  };
}

/** Staff record a payment or a refund on an order (invoice mode, or money taken outside the store). */
export async function recordPayment(ctx: AppContext, orderId: number, input: z.output<typeof AdminOrderPaymentCreateBody>, actor: StatusActor): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id, currency: orders.currency }).from(orders).where(eq(orders.id, orderId)).for('update').limit(1);
    if (!order) throw notFound('Order not found');
    await tx.insert(orderPayments).values({
      orderId,
      kind: input.kind,
      amountCents: input.amountCents,
      currency: order.currency,
      method: input.method,
      reference: input.reference,
      source: 'staff',
      recordedBy: actor.id ?? null,
      recordedByLabel: actor.label || 'staff',
    });
    await tx.update(orders).set({ updatedAt: new Date() }).where(eq(orders.id, orderId));
  });
}

/** Revenue for the overview: money kept (payments less refunds), refunds, and orders paid (decision 35-01). */
export async function revenueFigures(ctx: AppContext): Promise<{ netCents: number; refundedCents: number; paidOrders: number }> {
  const row = await queryRow<{ net: string | number; refunded: string | number; paid_orders: number }>(
    ctx.db,
    sql`
    with p as (
      select order_id,
             coalesce(sum(amount_cents) filter (where kind = 'payment'), 0) as paid,
             coalesce(sum(amount_cents) filter (where kind = 'refund'), 0) as refunded
      from order_payments group by order_id
    )
    select coalesce(sum(p.paid - p.refunded), 0)::bigint as net,
           coalesce(sum(p.refunded), 0)::bigint as refunded,
           (count(*) filter (where p.paid > 0 and p.refunded < p.paid
                              and (p.refunded > 0 or p.paid >= o.total_cents)))::int as paid_orders
    from p join orders o on o.id = p.order_id`,
  );
  return { netCents: Number(row?.net ?? 0), refundedCents: Number(row?.refunded ?? 0), paidOrders: Number(row?.paid_orders ?? 0) };
}

const STORE_ACTOR: StatusActor = { label: 'online store' };
/** statuses a store cancellation no longer moves (the cards left, or it is already cancelled) */
const PAST_CANCELLING = new Set(['shipped', 'completed', 'cancelled']);

/**
 * One store webhook, handled once per webhook id in one transaction: the id is stored first (a
 * repeated id finds it and changes nothing). The event finds its order by our order id (carried
 * through the checkout) or by the store order already linked; an event that finds none (a refund
 * before the paid event) is kept as unmatched and applied when its store order is linked. Payments
 * and refunds carry the store's ids, so one store event counts once whichever delivery brings it.
 */
export async function applyStoreOrderEvent(ctx: AppContext, webhookId: string, topic: StoreTopic, event: StoreOrderEvent): Promise<StoreEventOutcome> {
  let kick = false;
  const outcome = await ctx.db.transaction(async (tx): Promise<StoreEventOutcome> => {
    const fresh = await tx
      .insert(storeWebhookEvents)
      .values({ webhookId, topic, storeOrderId: event.storeOrderId, status: 'received' })
      .onConflictDoNothing({ target: storeWebhookEvents.webhookId })
      .returning({ id: storeWebhookEvents.webhookId });
    if (fresh.length === 0) return 'duplicate';

    let order: OrderRow | undefined;
    let linked = false;
    if (event.kind !== 'refund' && event.ourOrderId !== null) {
      [order] = await tx.select().from(orders).where(eq(orders.id, event.ourOrderId)).for('update').limit(1);
      if (order && !order.storeOrderId) {
        const [taken] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.storeOrderId, event.storeOrderId)).limit(1);
        if (!taken) {
          await tx.update(orders).set({ storeOrderId: event.storeOrderId }).where(eq(orders.id, order.id));
          order = { ...order, storeOrderId: event.storeOrderId };
          linked = true;
        }
      }
    }
    if (!order) [order] = await tx.select().from(orders).where(eq(orders.storeOrderId, event.storeOrderId)).for('update').limit(1);
    if (!order) {
      await tx.update(storeWebhookEvents).set({ status: 'unmatched', payload: event }).where(eq(storeWebhookEvents.webhookId, webhookId));
      ctx.log.warn({ webhookId, topic, storeOrderId: event.storeOrderId }, 'store webhook: no order found yet; kept until its order is linked');
      return 'unmatched';
    }

    kick = (await applyEvent(ctx, tx, order, event)) || kick;
    await tx.update(storeWebhookEvents).set({ status: 'handled', orderId: order.id, handledAt: new Date() }).where(eq(storeWebhookEvents.webhookId, webhookId));

    if (linked) {
      // events that came before the order was known (a refund before the paid event)
      const waiting = await tx
        .select()
        .from(storeWebhookEvents)
        .where(and(eq(storeWebhookEvents.storeOrderId, event.storeOrderId), eq(storeWebhookEvents.status, 'unmatched')))
        .orderBy(asc(storeWebhookEvents.receivedAt))
        .for('update');
      for (const w of waiting) {
        if (w.payload) kick = (await applyEvent(ctx, tx, order, w.payload as StoreOrderEvent)) || kick;
        await tx.update(storeWebhookEvents).set({ status: 'handled', orderId: order.id, payload: null, handledAt: new Date() }).where(eq(storeWebhookEvents.webhookId, w.webhookId));
      }
    }
    return 'handled';
  });
  if (kick) ctx.outbox.kick();
  return outcome;
}

/** Applies one event to its order; true when an e-mail was queued. */
async function applyEvent(ctx: AppContext, tx: Tx, order: OrderRow, event: StoreOrderEvent): Promise<boolean> {
  if (event.kind === 'refund') {
    if (event.amountCents > 0) {
      await tx
        .insert(orderPayments)
        .values({
          orderId: order.id,
          kind: 'refund',
          amountCents: event.amountCents,
          currency: event.currency ?? order.currency,
          method: event.gateway,
          reference: order.storeOrderName ?? event.storeOrderId,
          source: 'store',
          externalId: `store:refund:${event.refundId}`,
          recordedByLabel: 'online store',
        })
        .onConflictDoNothing({ target: orderPayments.externalId });
    }
    return false;
  }
  // what the store collected: its order's name, total, tax and shipping address (kept when it says nothing)
  await tx
    .update(orders)
    .set({
      storeOrderName: event.orderName ?? order.storeOrderName,
      storeTotalCents: event.totalCents ?? order.storeTotalCents,
      storeTaxCents: event.taxCents ?? order.storeTaxCents,
      storeShippingAddress: event.shippingAddress ?? order.storeShippingAddress,
      ...(event.kind === 'cancelled' ? { storeCancelledAt: validDate(event.cancelledAt) } : {}),
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id));

  if (event.kind === 'paid') {
    if (event.amountCents > 0) {
      await tx
        .insert(orderPayments)
        .values({
          orderId: order.id,
          kind: 'payment',
          amountCents: event.amountCents,
          currency: event.currency ?? order.currency,
          method: event.gateway,
          reference: event.orderName ?? event.storeOrderId,
          // the store's word that its order is paid, kept for the record (the state needs the money to cover our price)
          settles: true,
          source: 'store',
          externalId: `store:order:${event.storeOrderId}:paid`,
          recordedByLabel: 'online store',
        })
        .onConflictDoNothing({ target: orderPayments.externalId });
    }
    return false;
  }

  // cancelled at the store: the order is cancelled too unless its cards have left (then staff are told in a note)
  const label = event.orderName ?? event.storeOrderId;
  const [current] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id)).limit(1);
  if (current && !PAST_CANCELLING.has(current.status)) {
    try {
      const { changed } = await tx.transaction((sp) => changeOrderStatus(ctx, order.id, 'cancelled', STORE_ACTOR, { tx: sp }));
      return changed;
    } catch (err: any) {
      await tx.insert(orderNotes).values({ orderId: order.id, body: `The online store cancelled its order ${label}; this order was not cancelled: ${String(err?.message ?? err)}`, authorLabel: 'online store' });
      return false;
    }
  }
  if (current && current.status !== 'cancelled') {
    await tx.insert(orderNotes).values({ orderId: order.id, body: `The online store cancelled its order ${label} after this order was ${current.status}.`, authorLabel: 'online store' });
  }
  return false;
}

function validDate(s: string): Date {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? new Date() : d;
}
