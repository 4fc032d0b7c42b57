import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent } from '#tests/helpers/factories';
import { insertManyOrders, insertOrder } from '#tests/helpers/admin-factories';
import type { AdminCustomerPage, AdminOrderPage } from '#shared/schemas/admin';

/**
 * The staff screens with 100,000 orders: search, paging and customers stay correct on both plans
 * (a rare term collected in one scan, a common term paged from the index). Speed is measured by
 * bench/admin-orders.ts, not here.
 */
const N = 100_000;
let t: TestApp;
let admin: Agent;
let needle: Awaited<ReturnType<typeof insertOrder>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await adminAgent(t.app)).agent;
  await insertManyOrders(t.app, N, 'scale.example.org');
  needle = await insertOrder(t.app, { customerName: 'Needle In Haystack', email: 'Needle.Person@Rare-Domain.example' });
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe(`admin orders at ${N.toLocaleString('en-US')} orders`, () => {
  it('finds one order by part of its e-mail in any case', async () => {
    const page = (await admin.get('/api/admin/orders?q=rare-DOMAIN')).json() as AdminOrderPage;
    expect(page.total).toBe(1);
    expect(page.orders.map((o) => o.id)).toEqual([needle.id]);
  });

  it('pages a search that matches a hundred orders, newest first, without gaps', async () => {
    // "bulk123" + digits: bulk123, bulk1230..bulk1239, bulk12300..bulk12399 = 111 orders
    const seen: number[] = [];
    const dates: string[] = [];
    let total = 0;
    for (let p = 1; p <= 3; p++) {
      const page = (await admin.get(`/api/admin/orders?q=bulk123&pageSize=50&page=${p}`)).json() as AdminOrderPage;
      total = page.total;
      seen.push(...page.orders.map((o) => o.id));
      dates.push(...page.orders.map((o) => o.createdAt));
    }
    expect(total).toBe(111);
    expect(new Set(seen).size).toBe(111);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('pages a term that matches every order from the index, with the exact total', async () => {
    const p1 = (await admin.get('/api/admin/orders?q=scale.example&pageSize=50')).json() as AdminOrderPage;
    const p2 = (await admin.get('/api/admin/orders?q=scale.example&pageSize=50&page=2')).json() as AdminOrderPage;
    expect(p1.total).toBe(N);
    expect(p1.orders).toHaveLength(50);
    const dates = [...p1.orders, ...p2.orders].map((o) => o.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set([...p1.orders, ...p2.orders].map((o) => o.id)).size).toBe(100);
  });

  it('lists customers newest first and finds one by search', async () => {
    const first = (await admin.get('/api/admin/customers?pageSize=10')).json() as AdminCustomerPage;
    expect(first.total).toBe(N + 1);
    expect(first.customers[0].email).toBe(needle.email);
    const last = first.customers.map((c) => c.lastOrderAt);
    expect(last).toEqual([...last].sort().reverse());
    const found = (await admin.get('/api/admin/customers?q=needle')).json() as AdminCustomerPage;
    expect(found.customers.map((c) => c.name)).toEqual(['Needle In Haystack']);
  });
});
