import { eq } from 'drizzle-orm';
import { ADDRESS_LOCKED_MESSAGE, ADDRESS_PICKUP_MESSAGE, PICKUP_DELIVERY_OPTION, type ShippingAddressData, type OrderStatusView } from '#shared/schemas/orders';
import type { AppContext } from '#server/context';
import { orders } from '#server/db/schema/orders';
import { conflict, notFound } from '#server/http/http-errors';
import { addressEditable, orderViews } from './order-view';

/**
 * PATCH /api/order-status/{token}/address: the customer corrects the delivery address (the holder
 * of the order page's link). 409 once the order has shipped (or is cancelled), and for pickup.
 */
export async function updateShippingAddress(ctx: AppContext, token: string, address: ShippingAddressData, origin?: string): Promise<OrderStatusView> {
  const updated = await ctx.db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.statusToken, token)).for('update').limit(1);
    if (!o) throw notFound('Order not found');
    if (o.deliveryOption === PICKUP_DELIVERY_OPTION) throw conflict(ADDRESS_PICKUP_MESSAGE);
    if (o.status === 'cancelled') throw conflict('This order is cancelled: its address can no longer be changed.');
    if (!addressEditable(o)) throw conflict(ADDRESS_LOCKED_MESSAGE);
    const [row] = await tx.update(orders).set({ shippingAddress: address, updatedAt: new Date() }).where(eq(orders.id, o.id)).returning();
    return row;
  });
  const [view] = await orderViews(ctx, [updated], origin);
  return view;
}
