import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
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
