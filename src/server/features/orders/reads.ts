import { and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { orders } from '#server/db/schema/orders';

/**
 * Read verbs over orders' tables for other features (decisions 34-05, 34-07; docs/architecture.md,
 * "Who owns which tables"). A leaf: it imports orders' own tables and nothing of another feature,
 * so a feature below orders in the feature graph may read here too. The fragments (subqueries)
 * let a reader keep its one SQL query.
 *
 * The order the customer PROVES is theirs (issue 19): the order status link's token, or the order
 * number of an order placed by the signed-in caller. Order numbers are sequential and e-mails can be
 * guessed, so a number with an e-mail proves nothing. Cancelled and anonymized orders never count.
 */
export async function provenOrderId(db: Db | Tx, orderId: number | null, orderToken: string | null, userId: string | null): Promise<number | null> {
  const usable = and(ne(orders.status, 'cancelled'), isNull(orders.anonymizedAt));
  if (orderToken) {
    const [row] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.statusToken, orderToken), usable)).limit(1);
    // the token must be for the number given (when one is given)
    if (row && (orderId === null || row.id === orderId)) return row.id;
    return null;
  }
  if (userId && orderId !== null) {
    const [row] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId), usable)).limit(1);
    return row?.id ?? null;
  }
  return null;
}

/** Id, e-mail and status of these orders (the staff's review list matches reviews to orders). */
export async function orderContacts(db: Db, ids: number[]): Promise<Array<{ id: number; email: string; status: string }>> {
  return ids.length ? db.select({ id: orders.id, email: orders.email, status: orders.status }).from(orders).where(inArray(orders.id, ids)) : [];
}

/** Subquery: the ids of the user's orders that are not cancelled (for `inArray` or a join). */
export function liveOrderIdsOfUserQuery(db: Db | Tx, userId: string) {
  return db.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, userId), ne(orders.status, 'cancelled')));
}

/** The user's order with this number, if it is theirs. */
export async function orderOfUser(db: Db | Tx, orderId: number, userId: string): Promise<{ id: number } | undefined> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId))).limit(1);
  return row;
}

/** An order's owner and status. */
export async function orderOwnerStatus(db: Db | Tx, orderId: number): Promise<{ id: number; userId: string | null; status: string } | undefined> {
  const [row] = await db.select({ id: orders.id, userId: orders.userId, status: orders.status }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return row;
}

/** What a card code shows of its batch: quantity, card type, status, date (one query for all ids). */
export async function orderBatchFacts(db: Db | Tx, ids: number[]) {
  if (!ids.length) return [];
  return db.select({ id: orders.id, quantity: orders.quantity, cardType: orders.cardType, status: orders.status, createdAt: orders.createdAt }).from(orders).where(inArray(orders.id, ids));
}

/** The order a caller's idempotency key made in their scope (`userKeyScope`), if any. */
export async function orderIdByKey(db: Db | Tx, scope: string, key: string): Promise<number | undefined> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.idempotencyScope, scope), eq(orders.idempotencyKey, key))).limit(1);
  return row?.id;
}

/**
 * Subquery to join on `card_orders.id` (or `card_orders.cardId`): what a card's pages, its review
 * and its production show of its order.
 */
export function cardOrdersQuery(db: Db | Tx) {
  return db
    .select({
      id: orders.id,
      userId: orders.userId,
      teamId: orders.teamId,
      cardId: orders.cardId,
      status: orders.status,
      customerName: orders.customerName,
      totalCents: orders.totalCents,
      statusToken: orders.statusToken,
      checkoutUrl: orders.checkoutUrl,
      quantity: orders.quantity,
      cardType: orders.cardType,
      cardStyle: orders.cardStyle,
    })
    .from(orders)
    .as('card_orders');
}

/** A card's order: the one it names, else the newest naming it. */
export async function orderOfCard(db: Db | Tx, card: { id: number; orderId: number | null }) {
  return (await db.select().from(orders).where(card.orderId ? eq(orders.id, card.orderId) : eq(orders.cardId, card.id)).orderBy(desc(orders.id)).limit(1)).at(0);
}

/** The order, locked for the rest of the caller's transaction (`select … for update`). */
export async function lockOrder(tx: Tx, orderId: number) {
  return (await tx.select().from(orders).where(eq(orders.id, orderId)).for('update').limit(1)).at(0);
}

/** The order of this status link, locked for the rest of the caller's transaction. */
export async function lockOrderByToken(tx: Tx, token: string) {
  return (await tx.select().from(orders).where(eq(orders.statusToken, token)).for('update').limit(1)).at(0);
}

/** The number and card of the order of this status link. */
export async function orderCardByToken(db: Db | Tx, token: string): Promise<{ id: number; cardId: number | null } | undefined> {
  const [row] = await db.select({ id: orders.id, cardId: orders.cardId }).from(orders).where(eq(orders.statusToken, token)).limit(1);
  return row;
}

/** An order's owner, card and card type (a staff proof of its card). */
export async function orderCardFacts(db: Db | Tx, orderId: number) {
  return (await db.select({ id: orders.id, userId: orders.userId, cardId: orders.cardId, cardType: orders.cardType }).from(orders).where(eq(orders.id, orderId)).limit(1)).at(0);
}
