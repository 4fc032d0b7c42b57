import { eq, inArray, sql } from 'drizzle-orm';
import type { OrderFacts } from '#shared/orders/status-machine';
import type { Db, Tx } from '#server/db/client';
import { queryRows } from '#server/db/rows';
import { orderPayments, orders } from '#server/db/schema/orders';
import { namedCardsOfOrders } from '#server/features/designs/reads';
import { shipmentOf } from '#server/features/production/reads';
import { notFound } from '#server/http/http-errors';
import { paymentStatusOf } from './payments.service';

type OrderRow = typeof orders.$inferSelect;

/** Where the order's proof stands (decision 35-04). */
export type ProofState = 'none' | 'awaiting' | 'approved' | 'changes';

export interface ProofInfo {
  state: ProofState;
  /** every design of the order is approved by staff (and there is at least one) */
  designApproved: boolean;
  /** the approved designs the proof shows */
  cardIds: number[];
  /** every design of the order (a team order's: one per member), the name on it and its review status */
  cards: Array<{ id: number; name: string; status: string }>;
  /** the customer's words when they asked for changes */
  message: string | null;
}

/**
 * The proof's state of each order from its designs and its latest design event: staff approval
 * puts a proof in front of the customer (`awaiting`); their answer is the next event
 * (`proof-approved` or `changes-requested`). A resubmitted design starts over. Two queries for any
 * number of orders (My orders).
 */
export async function proofStates(db: Db | Tx, rows: Array<Pick<OrderRow, 'id' | 'cardId'>>): Promise<Map<number, ProofInfo>> {
  const out = new Map<number, ProofInfo>();
  if (!rows.length) return out;
  const ids = rows.map((o) => o.id);
  const cardIds = rows.map((o) => o.cardId).filter((x): x is number => x !== null);
  const [designs, lastEvents] = await Promise.all([
    namedCardsOfOrders(db, ids, cardIds),
    queryRows<{ order_id: number; kind: string; reason: string | null }>(
      db,
      sql`select distinct on (order_id) order_id, kind, reason from design_events where order_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by order_id, id desc`,
    ),
  ]);
  const lastByOrder = new Map(lastEvents.map((e) => [Number(e.order_id), e]));
  for (const o of rows) {
    const mine = designs.filter((d) => d.id === o.cardId || d.orderId === o.id);
    const designApproved = mine.length > 0 && mine.every((d) => d.status === 'approved');
    const last = lastByOrder.get(o.id);
    let state: ProofState = 'none';
    if (last?.kind === 'changes-requested' && !designApproved) state = 'changes';
    else if (designApproved && last?.kind === 'proof-approved') state = 'approved';
    else if (designApproved && last?.kind === 'approved') state = 'awaiting';
    out.set(o.id, {
      state,
      designApproved,
      cardIds: mine.filter((d) => d.status === 'approved').map((d) => d.id),
      cards: mine.map((d) => ({ id: d.id, name: d.name?.trim() || `Card #${d.id}`, status: d.status })),
      message: state === 'changes' ? last?.reason ?? null : null,
    });
  }
  return out;
}

/** The orders among `rows` whose payment state is 'paid' (the status page's invoice note). */
export async function paidOrderIds(db: Db | Tx, rows: Array<Pick<OrderRow, 'id' | 'totalCents'>>): Promise<Set<number>> {
  if (!rows.length) return new Set();
  const sums = await db
    .select({
      orderId: orderPayments.orderId,
      paid: sql<number>`coalesce(sum(${orderPayments.amountCents}) filter (where ${orderPayments.kind} = 'payment'), 0)::int`,
      refunded: sql<number>`coalesce(sum(${orderPayments.amountCents}) filter (where ${orderPayments.kind} = 'refund'), 0)::int`,
    })
    .from(orderPayments)
    .where(inArray(orderPayments.orderId, rows.map((o) => o.id)))
    .groupBy(orderPayments.orderId);
  const due = new Map(rows.map((o) => [o.id, o.totalCents]));
  return new Set(sums.filter((m) => paymentStatusOf({ paidCents: Number(m.paid), refundedCents: Number(m.refunded), dueCents: due.get(m.orderId) ?? 0 }) === 'paid').map((m) => m.orderId));
}

/** What the status machine needs to know about one order, read in the caller's transaction. */
export async function orderFacts(db: Db | Tx, order: OrderRow): Promise<OrderFacts> {
  const [proofs, money, [shipment]] = await Promise.all([
    proofStates(db, [order]),
    db
      .select({
        paid: sql<number>`coalesce(sum(${orderPayments.amountCents}) filter (where ${orderPayments.kind} = 'payment'), 0)::int`,
        refunded: sql<number>`coalesce(sum(${orderPayments.amountCents}) filter (where ${orderPayments.kind} = 'refund'), 0)::int`,
      })
      .from(orderPayments)
      .where(eq(orderPayments.orderId, order.id)),
    shipmentOf(db, order.id),
  ]);
  const m = money[0] ?? { paid: 0, refunded: 0 };
  const proof = proofs.get(order.id)!;
  return {
    status: order.status,
    deliveryOption: order.deliveryOption,
    designApproved: proof.designApproved,
    proofApproved: proof.state === 'approved',
    hasAddress: !!order.shippingAddress,
    paid: paymentStatusOf({ paidCents: Number(m.paid), refundedCents: Number(m.refunded), dueCents: order.totalCents }) === 'paid',
    hasTracking: !!(shipment?.carrier && shipment.trackingNumber),
  };
}

/** The staff detail's `workflow` (decision 35-04): the machine's facts and where the proof stands. */
export async function orderWorkflow(
  db: Db | Tx,
  orderId: number,
): Promise<{ facts: OrderFacts; proof: { state: ProofState; message: string | null; cards?: Array<{ id: number; name: string }> } }> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw notFound('Order not found');
  const [facts, proofs] = await Promise.all([orderFacts(db, order), proofStates(db, [order])]);
  const proof = proofs.get(order.id)!;
  // changes asked: the cards the customer named went back from approved (decision 35-06), the others kept it
  const named = proof.state === 'changes' ? proof.cards.filter((c) => c.status !== 'approved').map(({ id, name }) => ({ id, name })) : undefined;
  return { facts, proof: { state: proof.state, message: proof.message, ...(named ? { cards: named } : {}) } };
}
