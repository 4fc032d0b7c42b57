import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { cardCodes } from '#server/db/schema/engagement';

/**
 * Read verbs over engagement's tables for other features (issue 34, decision 34-07;
 * docs/architecture.md, "Who owns which tables"). A leaf: it imports engagement's own tables and
 * nothing of another feature.
 */

/** Whether this code is an active card link of this profile (a card's QR code may open `/c/{code}`). */
export async function isActiveCodeOf(db: Db | Tx, code: string, profileId: string): Promise<boolean> {
  const [row] = await db
    .select({ code: cardCodes.code })
    .from(cardCodes)
    .where(and(eq(cardCodes.code, code.toUpperCase()), eq(cardCodes.profileId, profileId), eq(cardCodes.active, true)))
    .limit(1);
  return row !== undefined;
}

/** The active codes of these orders' batches, newest first. */
export async function activeCodesOfOrders(db: Db | Tx, orderIds: number[]) {
  return db
    .select({ orderId: cardCodes.orderId, code: cardCodes.code })
    .from(cardCodes)
    .where(and(inArray(cardCodes.orderId, orderIds), eq(cardCodes.active, true)))
    .orderBy(desc(cardCodes.createdAt));
}
