import { sql } from 'drizzle-orm';
import type { AdminCustomer, AdminCustomerPage } from '#shared/schemas/admin';
import type { AppContext } from '../../context';
import { likePattern } from './admin-orders.service';

/** Orders listed per customer (their most recent ones). */
const ORDERS_PER_CUSTOMER = 20;

/**
 * Customers are the people who ordered, one per e-mail address (case-insensitive), newest buyer
 * first, with their contact details from their latest order and their orders. Anonymized orders
 * (deleted accounts) are left out.
 */
export async function listCustomers(ctx: AppContext, opts: { q: string; page: number; pageSize: number }): Promise<AdminCustomerPage> {
  const term = opts.q.trim();
  // a customer matches when any of their orders matches; their figures count all their orders
  const filter = term ? sql`and lower(email) in (select lower(email) from orders where search_text like ${likePattern(term)})` : sql``;
  const offset = (opts.page - 1) * opts.pageSize;
  const agg = await ctx.db.execute(sql`
    select lower(email) as key, count(*)::int as order_count, coalesce(sum(total_cents), 0)::bigint as total_cents,
           max(created_at) as last_order_at, count(*) over()::int as total
    from orders
    where anonymized_at is null ${filter}
    group by lower(email)
    order by max(created_at) desc, lower(email)
    limit ${opts.pageSize} offset ${offset}`);
  const groups = (agg as any).rows as Array<{ key: string; order_count: number; total_cents: string | number; last_order_at: string | Date; total: number }>;
  let total = groups[0]?.total ?? 0;
  if (groups.length === 0 && offset > 0) {
    const c = await ctx.db.execute(sql`select count(distinct lower(email))::int as n from orders where anonymized_at is null ${filter}`);
    total = Number((c as any).rows[0].n);
  }
  if (groups.length === 0) return { customers: [], total, page: opts.page, pageSize: opts.pageSize };

  const keys = groups.map((g) => g.key);
  const ordersRes = await ctx.db.execute(sql`
    select * from (
      select id, lower(email) as key, email, customer_name, phone, company_name, status, created_at, total_cents, quantity, card_type,
             row_number() over (partition by lower(email) order by created_at desc, id desc) as rn
      from orders
      where lower(email) in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)}) and anonymized_at is null
    ) t where rn <= ${ORDERS_PER_CUSTOMER}
    order by key, rn`);
  const byKey = new Map<string, any[]>();
  for (const o of (ordersRes as any).rows as any[]) {
    const list = byKey.get(o.key) ?? [];
    list.push(o);
    byKey.set(o.key, list);
  }
  const iso = (d: string | Date) => new Date(d).toISOString();
  const customers: AdminCustomer[] = groups.map((g) => {
    const list = byKey.get(g.key) ?? [];
    const latest = list[0];
    // contact details: the latest order's, falling back to earlier orders for missing ones
    const pick = (field: string) => list.find((o) => o[field])?.[field] ?? null;
    return {
      email: latest?.email ?? g.key,
      name: latest?.customer_name ?? '',
      phone: pick('phone'),
      company: pick('company_name'),
      orderCount: Number(g.order_count),
      totalCents: Number(g.total_cents),
      lastOrderAt: iso(g.last_order_at),
      orders: list.map((o) => ({
        id: Number(o.id),
        status: o.status,
        createdAt: iso(o.created_at),
        totalCents: Number(o.total_cents),
        quantity: Number(o.quantity),
        cardType: o.card_type,
      })),
    };
  });
  return { customers, total, page: opts.page, pageSize: opts.pageSize };
}
