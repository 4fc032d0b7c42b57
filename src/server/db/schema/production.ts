import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from './orders';

/** How an order left the floor (issue 22): shipped with a carrier's tracking number, or ready for pickup with a code. */
export const orderFulfilment = pgTable('order_fulfilment', {
  orderId: integer('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  /** ups | usps | fedex */
  carrier: text('carrier'),
  trackingNumber: text('tracking_number'),
  trackingUrl: text('tracking_url'),
  shippedAt: timestamp('shipped_at', { withTimezone: true }),
  /** short code the customer shows at the studio */
  pickupCode: text('pickup_code'),
  pickupReadyAt: timestamp('pickup_ready_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
