import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { orderFulfilment } from '#server/db/schema/production';

/**
 * Read verbs over production's tables (order fulfilment) for other features (issue 34, decision
 * 34-07; docs/architecture.md, "Who owns which tables"). A leaf: it imports production's own
 * tables and nothing of another feature, so orders (which production uses) reads here without a cycle.
 */

/** The order's shipment: carrier and tracking number, if it has shipped. */
export async function shipmentOf(db: Db | Tx, orderId: number) {
  return db.select({ carrier: orderFulfilment.carrier, trackingNumber: orderFulfilment.trackingNumber }).from(orderFulfilment).where(eq(orderFulfilment.orderId, orderId)).limit(1);
}

/** The fulfilment rows (shipment, pickup) of these orders. */
export async function fulfilmentOfOrders(db: Db | Tx, orderIds: number[]) {
  return db.select().from(orderFulfilment).where(inArray(orderFulfilment.orderId, orderIds));
}
