import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { orders } from '#server/db/schema/orders';

/**
 * Reads other features make of orders (decision 34-05: `orders` is read through its owner).
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
