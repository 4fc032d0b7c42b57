import { sql, type SQL } from 'drizzle-orm';
import type { AdminCustomer, AdminCustomerPage } from '#shared/schemas/admin';
import type { AppContext } from '#server/context';
import { likePattern } from './admin-orders.service';

/** Orders listed per customer (their most recent ones). */
const ORDERS_PER_CUSTOMER = 20;
/** A search matching up to this many customers is resolved in one scan and paged in memory. */
const SEARCH_COLLECT_MAX = 2000;
const WALK_BATCH = 1000;

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const keyList = (keys: string[]) => sql.join(keys.map((k) => sql`${k}`), sql`, `);

/**
 * Customers are the people who ordered, one per e-mail address (case-insensitive), the most recent
 * buyer first, with their contact details from their latest order and their orders. Orders of
 * deleted accounts (anonymized) are left out.
 *
 * Without a search, the page's customers are found by walking the orders newest first (the
 * created_at index) until enough distinct addresses are seen, so the first pages stay fast with
 * 100,000 orders; their figures then come from the lower(email) index.
 */
export async function listCustomers(ctx: AppContext, opts: { q: string; page: number; pageSize: number }): Promise<AdminCustomerPage> {
  const term = opts.q.trim();
  const offset = (opts.page - 1) * opts.pageSize;
  let pageKeys: string[];
  let total: number;

  if (!term) {
    const need = offset + opts.pageSize;
    const seen = new Set<string>();
    let cursor: SQL = sql`true`;
    for (;;) {
      const batch = rowsOf<{ id: number; key: string; ts: string }>(
        await ctx.db.execute(sql`
          select id, lower(email) as key, created_at::text as ts from orders
          where anonymized_at is null and ${cursor}
          order by created_at desc, id desc limit ${WALK_BATCH}`),
      );
      for (const r of batch) seen.add(r.key);
      if (seen.size >= need || batch.length < WALK_BATCH) break;
      const last = batch[batch.length - 1];
      // the database's own timestamp text keeps microseconds (a JS Date would drop them)
      cursor = sql`(created_at, id) < (${last.ts}::timestamptz, ${last.id})`;
    }
    pageKeys = [...seen].slice(offset, need);
    const c = await ctx.db.execute(sql`select count(distinct lower(email))::int as n from orders where anonymized_at is null`);
    total = Number(rowsOf<{ n: number }>(c)[0].n);
  } else {
    // a customer matches when any of their orders matches; their figures count all their orders
    const matched = rowsOf<{ key: string }>(
      await ctx.db.execute(sql`
        select distinct lower(email) as key from orders
        where anonymized_at is null and search_text like ${likePattern(term)}
        limit ${SEARCH_COLLECT_MAX + 1}`),
    ).map((r) => r.key);
    if (matched.length <= SEARCH_COLLECT_MAX) {
      const order = matched.length
        ? rowsOf<{ key: string }>(
            await ctx.db.execute(sql`
              select lower(email) as key from orders
              where anonymized_at is null and lower(email) in (${keyList(matched)})
              group by lower(email) order by max(created_at) desc, lower(email)`),
          ).map((r) => r.key)
        : [];
      total = order.length;
      pageKeys = order.slice(offset, offset + opts.pageSize);
    } else {
      const filter = sql`lower(email) in (select lower(email) from orders where search_text like ${likePattern(term)})`;
      const agg = rowsOf<{ key: string; total: number }>(
        await ctx.db.execute(sql`
          select lower(email) as key, count(*) over()::int as total from orders
          where anonymized_at is null and ${filter}
          group by lower(email) order by max(created_at) desc, lower(email)
          limit ${opts.pageSize} offset ${offset}`),
      );
      pageKeys = agg.map((r) => r.key);
      total = agg[0]?.total ?? 0;
      if (!agg.length && offset > 0) {
        const c = await ctx.db.execute(sql`select count(distinct lower(email))::int as n from orders where anonymized_at is null and ${filter}`);
        total = Number(rowsOf<{ n: number }>(c)[0].n);
      }
    }
  }

  if (pageKeys.length === 0) return { customers: [], total, page: opts.page, pageSize: opts.pageSize };

  const figures = rowsOf<{ key: string; order_count: number; total_cents: string | number; last_order_at: string | Date }>(
    await ctx.db.execute(sql`
      select lower(email) as key, count(*)::int as order_count, coalesce(sum(total_cents), 0)::bigint as total_cents, max(created_at) as last_order_at
      from orders where anonymized_at is null and lower(email) in (${keyList(pageKeys)})
      group by lower(email)`),
  );
  const figuresByKey = new Map(figures.map((f) => [f.key, f]));
  const recent = rowsOf<any>(
    await ctx.db.execute(sql`
      select * from (
        select id, lower(email) as key, email, customer_name, phone, company_name, status, created_at, total_cents, quantity, card_type,
               row_number() over (partition by lower(email) order by created_at desc, id desc) as rn
        from orders
        where lower(email) in (${keyList(pageKeys)}) and anonymized_at is null
      ) t where rn <= ${ORDERS_PER_CUSTOMER}
      order by key, rn`),
  );
  const byKey = new Map<string, any[]>();
  for (const o of recent) {
    const list = byKey.get(o.key) ?? [];
    list.push(o);
    byKey.set(o.key, list);
  }
  // staff see whether the account with this address proved it (issue 19)
  const accounts = rowsOf<{ key: string; verified: boolean }>(
    await ctx.db.execute(sql`select lower(email) as key, (email_verified_at is not null) as verified from users where lower(email) in (${keyList(pageKeys)})`),
  );
  const verifiedByKey = new Map(accounts.map((a) => [a.key, a.verified === true || String(a.verified) === 'true']));
  const iso = (d: string | Date) => new Date(d).toISOString();
  const customers: AdminCustomer[] = pageKeys.map((key) => {
    const list = byKey.get(key) ?? [];
    const f = figuresByKey.get(key);
    const latest = list[0];
    // contact details: the latest order's, falling back to earlier orders for missing ones
    const pick = (field: string) => list.find((o) => o[field])?.[field] ?? null;
    return {
      email: latest?.email ?? key,
      name: latest?.customer_name ?? '',
      phone: pick('phone'),
      company: pick('company_name'),
      orderCount: Number(f?.order_count ?? list.length),
      totalCents: Number(f?.total_cents ?? 0),
      lastOrderAt: iso(f?.last_order_at ?? latest?.created_at ?? new Date()),
      emailVerified: verifiedByKey.get(key) ?? null,
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
