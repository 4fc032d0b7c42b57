import { eq } from 'drizzle-orm';
import { TAX_NOTE, paymentNote } from '#shared/orders/checkout-terms';
import type { CheckoutTerms } from '#shared/schemas/orders';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { orders } from '#server/db/schema/orders';
import { conflict, notFound } from '#server/http/http-errors';
import { DESIGN_ORDER_MESSAGES } from '#shared/schemas/designs';

export type DesignableOrder = typeof orders.$inferSelect;

/** Statuses in which an order's design may still be (re)placed: before production. */
const DESIGNABLE_STATUSES = new Set(['pending', 'processing']);

/**
 * The caller's order a design is submitted for (issue 35), locked for the caller's transaction:
 * another user's order (or none) is 404; a team order, a cancelled one, one past production or
 * one whose design is already approved (`cardApproved`, read by the caller) is 409.
 */
export async function orderForDesign(tx: Tx, userId: string, orderId: number): Promise<DesignableOrder> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update').limit(1);
  if (!order || order.userId !== userId || order.anonymizedAt) throw notFound(DESIGN_ORDER_MESSAGES.notFound);
  if (order.teamId) throw conflict(DESIGN_ORDER_MESSAGES.team);
  if (order.status === 'cancelled') throw conflict(DESIGN_ORDER_MESSAGES.cancelled);
  if (!DESIGNABLE_STATUSES.has(order.status)) throw conflict(DESIGN_ORDER_MESSAGES.locked);
  return order;
}

/** The caller's order to repeat (reorder): 404 for another user's order or none. */
export async function ownOrder(db: Db | Tx, userId: string, orderId: number): Promise<DesignableOrder> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order || order.userId !== userId || order.anonymizedAt) throw notFound(DESIGN_ORDER_MESSAGES.notFound);
  return order;
}

/** Links the order to its (new) card design, in the caller's transaction. */
export async function linkOrderCard(tx: Tx, orderId: number, cardId: number): Promise<void> {
  await tx.update(orders).set({ cardId, updatedAt: new Date() }).where(eq(orders.id, orderId));
}

/** How the shop takes payment for a new order: the online store when configured, else an invoice. */
export function checkoutTerms(ctx: AppContext): CheckoutTerms {
  const paymentMode = ctx.config.SHOPIFY_STORE_DOMAIN && ctx.config.SHOPIFY_STOREFRONT_TOKEN ? 'store' : 'invoice';
  return { paymentMode, paymentNote: paymentNote(paymentMode), taxNote: TAX_NOTE };
}
