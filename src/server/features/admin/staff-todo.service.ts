import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { cardType as findCardType } from '#shared/catalogue';
import type { AdminTodo } from '#shared/schemas/admin';
import type { AppContext } from '#server/context';
import { orders } from '#server/db/schema/orders';

const TODO_SHOWN = 100;

/**
 * The first admin's to-do (issue 37, decision 37-02): orders placed while no admin account existed
 * (nobody was told about them) that no staff member has marked seen yet, the oldest first.
 */
export async function getStaffTodo(ctx: AppContext): Promise<AdminTodo> {
  const where = and(eq(orders.placedWithoutStaff, true), isNull(orders.staffSeenAt));
  const rows = await ctx.db
    .select({
      id: orders.id,
      customerName: orders.customerName,
      email: orders.email,
      status: orders.status,
      quantity: orders.quantity,
      cardType: orders.cardType,
      cardStyle: orders.cardStyle,
      totalCents: orders.totalCents,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(where)
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(TODO_SHOWN);
  const [{ n }] = await ctx.db.select({ n: count() }).from(orders).where(where);
  return {
    ordersWithoutStaff: rows.map((r) => ({ ...r, cardTypeLabel: findCardType(r.cardType)?.label ?? r.cardType, createdAt: r.createdAt.toISOString() })),
    total: Number(n),
  };
}
