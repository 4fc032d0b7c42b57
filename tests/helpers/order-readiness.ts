import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { cards, designEvents, orderPayments, orders } from '#server/db/schema/index';
import { insertDesign } from './admin-factories';

export const TEST_SHIPPING_ADDRESS = { name: 'Ada Lovelace', line1: '1 Broadway', line2: null, city: 'New York', state: 'NY', postalCode: '10004', country: 'US' };

/**
 * Gives an order what the status machine asks before production (issue 35, decision 35-04): an
 * approved design, the customer's proof approval, a delivery address (not for pickup) and a payment
 * covering its total. Leave any out to test the 409 that names it.
 */
export async function readyForProduction(
  app: FastifyInstance,
  orderId: number,
  opts: { design?: boolean; proof?: boolean; address?: boolean; paid?: boolean } = {},
): Promise<void> {
  const { design = true, proof = true, address = true, paid = true } = opts;
  const db = app.ctx.db;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  let cardId = order.cardId;
  if (design) {
    if (cardId === null) {
      cardId = (await insertDesign(app, { status: 'approved', orderId })).id;
      await db.update(orders).set({ cardId }).where(eq(orders.id, orderId));
    } else {
      await db.update(cards).set({ status: 'approved', reviewedAt: new Date() }).where(eq(cards.id, cardId));
    }
    await db.insert(designEvents).values({ orderId, cardId, kind: 'approved', actorLabel: 'staff' });
    if (proof) await db.insert(designEvents).values({ orderId, cardId, kind: 'proof-approved', actorLabel: 'customer' });
  }
  if (address && order.deliveryOption !== 'pickup-nyc' && !order.shippingAddress) {
    await db.update(orders).set({ shippingAddress: TEST_SHIPPING_ADDRESS }).where(eq(orders.id, orderId));
  }
  if (paid) {
    await db.insert(orderPayments).values({ orderId, kind: 'payment', amountCents: order.totalCents, method: 'bank_transfer', reference: `TEST-${orderId}`, source: 'staff' });
  }
}
