import { sql } from 'drizzle-orm';
import { CARD_TYPES, cardType as findCardType } from '#shared/catalogue';
import { RECENT_ORDERS_SHOWN, type AdminStats } from '#shared/schemas/admin';
import type { AppContext } from '#server/context';
import { revenueFigures } from '#server/features/orders/public-api';
import { recentOrders } from './admin-orders.service';
import { queryRows } from '#server/db/rows';

/**
 * The overview's figures, all from the data: counts by status, revenue as the money received less
 * the money refunded (the orders' payments; issue 35, decision 35-01), pending orders' value shown apart, Success Rate = completed / orders that are
 * not pending (decisions.md), card type popularity and the most recent orders.
 */
export async function getAdminStats(ctx: AppContext): Promise<AdminStats> {
  const rows = await queryRows<{ card_type: string; orders: number; cards: string | number; pending: number; completed: number; cancelled: number; pending_value: string | number }>(
    ctx.db,
    sql`
    select card_type,
           count(*)::int as orders,
           coalesce(sum(quantity), 0)::bigint as cards,
           count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'completed')::int as completed,
           count(*) filter (where status = 'cancelled')::int as cancelled,
           coalesce(sum(total_cents) filter (where status = 'pending'), 0)::bigint as pending_value
    from orders group by card_type`,
  );

  let totalOrders = 0;
  let pendingOrders = 0;
  let completedOrders = 0;
  let cancelledOrders = 0;
  let pendingRevenueCents = 0;
  for (const row of rows) {
    totalOrders += Number(row.orders);
    pendingOrders += Number(row.pending);
    completedOrders += Number(row.completed);
    cancelledOrders += Number(row.cancelled);
    pendingRevenueCents += Number(row.pending_value);
  }
  const decided = totalOrders - pendingOrders;
  const revenue = await revenueFigures(ctx);
  const totalRevenueCents = revenue.netCents;

  // every catalogue type is listed (0 when never ordered), then any older type found in the data
  const byType = new Map(rows.map((row) => [row.card_type, row]));
  const known = new Set<string>(CARD_TYPES.map((c) => c.id));
  const cardTypePopularity = [
    ...CARD_TYPES.map((c) => ({ cardType: c.id as string, label: c.label as string, orders: Number(byType.get(c.id)?.orders ?? 0), cards: Number(byType.get(c.id)?.cards ?? 0) })),
    ...rows
      .filter((row) => !known.has(row.card_type))
      .map((row) => ({ cardType: row.card_type, label: findCardType(row.card_type)?.label ?? row.card_type, orders: Number(row.orders), cards: Number(row.cards) })),
  ].sort((a, b) => b.orders - a.orders || b.cards - a.cards);

  return {
    totalOrders,
    pendingOrders,
    completedOrders,
    cancelledOrders,
    totalRevenueCents,
    totalRevenue: Math.round(totalRevenueCents) / 100,
    refundedRevenueCents: revenue.refundedCents,
    paidOrders: revenue.paidOrders,
    pendingRevenueCents,
    pendingRevenue: Math.round(pendingRevenueCents) / 100,
    successRate: decided > 0 ? completedOrders / decided : null,
    cardTypePopularity,
    recentOrders: await recentOrders(ctx, RECENT_ORDERS_SHOWN),
  };
}
