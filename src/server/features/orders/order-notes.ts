import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { orderNotes, orders } from '#server/db/schema/orders';
import { notFound } from '#server/http/http-errors';

/**
 * Staff save an order's internal notes (admin's Save Notes): the order's current notes become
 * `notes`, and the saved text is kept as one entry of the notes history (who and when), in one
 * transaction. Saving the same text again adds nothing. 404 for an unknown order.
 */
export async function saveInternalNotes(ctx: AppContext, id: number, notes: string, author: { id: string; label: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select({ id: orders.id, internalNotes: orders.internalNotes }).from(orders).where(eq(orders.id, id)).for('update').limit(1);
    if (!current) throw notFound('Order not found');
    if ((current.internalNotes ?? '') === notes) return;
    await tx.update(orders).set({ internalNotes: notes, updatedAt: new Date() }).where(eq(orders.id, id));
    await tx.insert(orderNotes).values({ orderId: id, body: notes, authorId: author.id, authorLabel: author.label });
  });
}
