import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent } from '#tests/helpers/factories';
import { insertDesignWithOrder, insertOrder } from '#tests/helpers/admin-factories';
import { readyForProduction } from '#tests/helpers/order-readiness';
import { orderFulfilment, orderNotes, orderStatusHistory, orders, outbox } from '#server/db/schema/index';
import type { AdminCustomerPage, AdminOrderDetail, AdminOrderPage, AdminStats } from '#shared/schemas/admin';

const BASE = 'http://cards.test';
let t: TestApp;
let admin: Agent;
let adminUser: { id: string; email: string };

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: BASE } });
  const a = await adminAgent(t.app);
  admin = a.agent;
  adminUser = a.user;
});
afterAll(async () => {
  await t.close();
});

const count = async (table: string, where = sql`true`) =>
  Number(((await t.app.ctx.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`)) as any).rows[0].n);
const emailsTo = async (to: string) => (await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, to))).sort((a, b) => a.id - b.id);

describe('overview stats', () => {
  it('starts at zero with no success rate', async () => {
    const res = await admin.get('/api/admin/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalOrders: 0, pendingOrders: 0, completedOrders: 0, totalRevenue: 0, pendingRevenue: 0, successRate: null, recentOrders: [] });
  });

  it('counts orders, revenue from the price snapshots and success rate from the data', async () => {
    const day = (n: number) => new Date(Date.UTC(2025, 0, n, 12));
    // 250 Color Metal with rush delivery = 250 x $5 + $30 = $1,280.00
    await insertOrder(t.app, { status: 'pending', cardType: 'color', deliveryOption: 'rush-24h', quantity: 250, createdAt: day(1) });
    await insertOrder(t.app, { status: 'completed', cardType: 'standard', quantity: 100, createdAt: day(2) }); // $400
    await insertOrder(t.app, { status: 'completed', cardType: 'luxury_titanium', quantity: 10, createdAt: day(3) }); // $90
    await insertOrder(t.app, { status: 'shipped', cardType: 'black_anodized', quantity: 3, deliveryOption: 'same-day-manhattan', createdAt: day(4) }); // $71
    await insertOrder(t.app, { status: 'cancelled', cardType: 'standard', quantity: 1000, createdAt: day(5) }); // $4,000 not counted
    const newest = await insertOrder(t.app, { status: 'processing', cardType: 'standard', quantity: 1, createdAt: day(6) }); // $4
    // a later price change must not rewrite old orders: the stored snapshot is what counts
    await t.app.ctx.db.update(orders).set({ totalCents: 1234 }).where(eq(orders.id, newest.id));

    const s = (await admin.get('/api/admin/stats')).json() as AdminStats;
    expect(s.totalOrders).toBe(6);
    expect(s.pendingOrders).toBe(1);
    expect(s.completedOrders).toBe(2);
    expect(s.cancelledOrders).toBe(1);
    // revenue: only money received counts (issue 35): none recorded yet; the pending order's value is shown apart
    expect(s.totalRevenueCents).toBe(0);
    expect(s.totalRevenue).toBe(0);
    expect(s.pendingRevenueCents).toBe(128000);
    expect(s.pendingRevenue).toBe(1280);
    // completed (2) over orders that are not pending (5)
    expect(s.successRate).toBeCloseTo(2 / 5, 10);
    expect(s.recentOrders.map((o) => o.id)).toHaveLength(5);
    expect(s.recentOrders[0].id).toBe(newest.id);
    expect(s.recentOrders[0]).toMatchObject({ amount: 12.34, customerName: expect.any(String), status: 'processing' });
    const pop = Object.fromEntries(s.cardTypePopularity.map((p) => [p.cardType, p]));
    expect(pop.standard).toMatchObject({ orders: 3, cards: 1101, label: 'Standard Metal' });
    expect(pop.color).toMatchObject({ orders: 1, cards: 250 });
    expect(s.cardTypePopularity[0].cardType).toBe('standard');
    // a payment staff record is revenue (decision 35-01)
    const paid = s.recentOrders.find((o) => o.status === 'completed')!;
    expect((await admin.post(`/api/admin/orders/${paid.id}/payments`, { amountCents: paid.totalCents, method: 'card', reference: 'R-1' })).statusCode).toBe(201);
    expect((await admin.get('/api/admin/stats')).json()).toMatchObject({ totalRevenueCents: paid.totalCents, paidOrders: 1 });
  });
});

describe('orders list and search', () => {
  let target: Awaited<ReturnType<typeof insertOrder>>;
  beforeAll(async () => {
    target = await insertOrder(t.app, { customerName: 'Zoë Quartermaine', email: 'Zoe.Q@Quartz-Mail.example', companyName: 'Quartz & Co' });
    await insertOrder(t.app, { customerName: '100% Real Name', email: 'percent@example.com' });
    for (let i = 0; i < 30; i++) await insertOrder(t.app, { customerName: `Paging Person ${i}`, email: `paging${i}@paging.example` });
  });

  it('finds an order by part of the e-mail, any case', async () => {
    const res = await admin.get('/api/admin/orders?q=QUARTZ-mail');
    expect(res.statusCode).toBe(200);
    const page = res.json() as AdminOrderPage;
    expect(page.total).toBe(1);
    expect(page.orders[0]).toMatchObject({ id: target.id, email: 'Zoe.Q@Quartz-Mail.example', company: 'Quartz & Co', companyName: 'Quartz & Co', quantity: 100 });
  });

  it('finds by part of the name (unicode, any case) and by order id', async () => {
    expect(((await admin.get(`/api/admin/orders?q=${encodeURIComponent('zoË q')}`)).json() as AdminOrderPage).orders.map((o) => o.id)).toEqual([target.id]);
    const byId = (await admin.get(`/api/admin/orders?q=${encodeURIComponent('#' + target.id)}`)).json() as AdminOrderPage;
    expect(byId.orders.map((o) => o.id)).toContain(target.id);
    const digits = (await admin.get(`/api/admin/orders?q=${target.id}`)).json() as AdminOrderPage;
    expect(digits.orders.map((o) => o.id)).toContain(target.id);
  });

  it('takes % and _ literally', async () => {
    const pct = (await admin.get('/api/admin/orders?q=%25')).json() as AdminOrderPage;
    expect(pct.orders.map((o) => o.customerName)).toEqual(['100% Real Name']);
    // '_' is not "any character": "Real_Name" does not match "Real Name"
    expect(((await admin.get('/api/admin/orders?q=Real_Name')).json() as AdminOrderPage).total).toBe(0);
    expect(((await admin.get('/api/admin/orders?q=Real%20Name')).json() as AdminOrderPage).total).toBe(1);
  });

  it('pages on the server, newest first', async () => {
    const p1 = (await admin.get('/api/admin/orders?q=paging.example&pageSize=25')).json() as AdminOrderPage;
    const p2 = (await admin.get('/api/admin/orders?q=paging.example&pageSize=25&page=2')).json() as AdminOrderPage;
    expect(p1.total).toBe(30);
    expect(p1.orders).toHaveLength(25);
    expect(p2.orders).toHaveLength(5);
    expect(p2.total).toBe(30);
    const ids = [...p1.orders, ...p2.orders].map((o) => o.id);
    expect(new Set(ids).size).toBe(30);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const beyond = (await admin.get('/api/admin/orders?q=paging.example&page=9')).json() as AdminOrderPage;
    expect(beyond).toMatchObject({ orders: [], total: 30 });
    const all = (await admin.get('/api/admin/orders')).json() as AdminOrderPage;
    expect(all.total).toBe(await count('orders'));
  });

  it('filters by status', async () => {
    const done = (await admin.get('/api/admin/orders?status=completed')).json() as AdminOrderPage;
    expect(done.total).toBe(2);
    expect(done.orders.every((o) => o.status === 'completed')).toBe(true);
  });

  it('refuses bad paging and unknown parameters with 400', async () => {
    for (const q of ['page=0', 'pageSize=1000', 'page=abc', 'status=lost', 'sort=id', `q=${'x'.repeat(201)}`]) {
      const res = await admin.get(`/api/admin/orders?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errors, q).toBeTruthy();
    }
  });
});

describe('order detail, status and notes', () => {
  it('shows customer, order, special requests, the design preview and history', async () => {
    const { order, design } = await insertDesignWithOrder(t.app, {
      frontImageUrl: '/api/files/front.png',
      backImageUrl: '/api/files/back.png',
      order: { specialRequests: 'Gold edges please', customerName: 'Detail Person' },
    });
    await t.app.ctx.db.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: null, toStatus: 'pending', changedByLabel: 'customer' });
    const res = await admin.get(`/api/admin/orders/${order.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json() as AdminOrderDetail;
    expect(d).toMatchObject({ id: order.id, customerName: 'Detail Person', specialRequests: 'Gold edges please', cardStyle: 'Matte', previewUrl: '/api/files/front.png', internalNotes: '' });
    expect(d.design).toMatchObject({ id: design.id, frontImageUrl: '/api/files/front.png', backImageUrl: '/api/files/back.png', status: 'pending', printOverride: null });
    expect(d.shipment).toBeNull();
    expect(d.history).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'pending', changedBy: 'customer' })]);
    expect(d).not.toHaveProperty('statusToken');
    // the list shows the same real preview
    const list = (await admin.get(`/api/admin/orders?q=${encodeURIComponent('Detail Person')}`)).json() as AdminOrderPage;
    expect(list.orders[0].previewUrl).toBe('/api/files/front.png');
  });

  it('answers 404 for an unknown order and 400 for a malformed id', async () => {
    expect((await admin.get('/api/admin/orders/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/admin/orders/abc')).statusCode).toBe(400);
    expect((await admin.patch('/api/admin/orders/999999', { status: 'shipped' })).statusCode).toBe(404);
    expect((await admin.put('/api/admin/orders/999999/notes', { notes: 'x' })).statusCode).toBe(404);
  });

  it('moves a ready order to in production: history with who and when, and the customer e-mailed through the outbox', async () => {
    const o = await insertOrder(t.app, { email: 'ship-me@example.com', customerName: 'Ship Me' });
    await readyForProduction(t.app, o.id);
    const res = await admin.patch(`/api/admin/orders/${o.id}`, { status: 'in-production' });
    expect(res.statusCode).toBe(200);
    const d = res.json() as AdminOrderDetail & { changed: boolean };
    expect(d.status).toBe('in-production');
    expect(d.changed).toBe(true);
    expect(d.history.at(-1)).toMatchObject({ fromStatus: 'pending', toStatus: 'in-production', changedBy: 'Ada Lovelace', note: null });
    const [row] = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
    expect(row.changedBy).toBe(adminUser.id);
    const mails = await emailsTo('ship-me@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/in production/i);
    expect(mails[0].textBody).toContain(`${BASE}/order-status/`);

    // the same status again changes nothing and sends nothing
    const again = await admin.patch(`/api/admin/orders/${o.id}`, { status: 'in-production' });
    expect(again.json().changed).toBe(false);
    expect(await emailsTo('ship-me@example.com')).toHaveLength(1);
  });

  it('walks the spec statuses along the moves the status machine allows', async () => {
    const o = await insertOrder(t.app);
    await readyForProduction(t.app, o.id);
    for (const s of ['processing', 'in-production', 'quality-check']) {
      const res = await admin.patch(`/api/admin/orders/${o.id}`, { status: s });
      expect(res.statusCode, s).toBe(200);
      expect(res.json().status).toBe(s);
    }
    await t.app.ctx.db.insert(orderFulfilment).values({ orderId: o.id, carrier: 'ups', trackingNumber: '1Z9999AA10123456784', trackingUrl: 'https://www.ups.com/track?tracknum=1Z9999AA10123456784' });
    for (const s of ['shipped', 'completed']) expect((await admin.patch(`/api/admin/orders/${o.id}`, { status: s })).statusCode, s).toBe(200);
    expect(await count('order_status_history', sql`order_id = ${o.id}`)).toBe(5);
    const other = await insertOrder(t.app);
    expect((await admin.patch(`/api/admin/orders/${other.id}`, { status: 'cancelled' })).json().status).toBe('cancelled');
  });

  it('refuses an unknown status with 400 and changes nothing', async () => {
    const o = await insertOrder(t.app, { email: 'no-change@example.com' });
    for (const body of [{ status: 'lost' }, { status: 'SHIPPED' }, {}, { status: 'shipped', extra: 1 }, { status: 5 }]) {
      const res = await admin.patch(`/api/admin/orders/${o.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const bad = await admin.patch(`/api/admin/orders/${o.id}`, { status: 'lost' });
    expect(bad.json().errors.status).toMatch(/pending, processing, in-production, shipped, completed, cancelled/);
    const [after] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, o.id));
    expect(after.status).toBe('pending');
    expect(await count('order_status_history', sql`order_id = ${o.id}`)).toBe(0);
    expect(await emailsTo('no-change@example.com')).toHaveLength(0);
  });

  it('saves internal notes with their history; the size cap is 400 with nothing changed', async () => {
    const o = await insertOrder(t.app);
    const first = await admin.put(`/api/admin/orders/${o.id}/notes`, { notes: 'Call before shipping.' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ internalNotes: 'Call before shipping.' });
    const second = (await admin.put(`/api/admin/orders/${o.id}/notes`, { notes: 'Call before shipping.\nCustomer prefers mornings.' })).json() as AdminOrderDetail;
    expect(second.internalNotes).toBe('Call before shipping.\nCustomer prefers mornings.');
    expect(second.notes.map((n) => n.body)).toEqual(['Call before shipping.\nCustomer prefers mornings.', 'Call before shipping.']);
    expect(second.notes[0]).toMatchObject({ author: 'Ada Lovelace', createdAt: expect.any(String) });
    // saving the same text again adds no entry
    await admin.put(`/api/admin/orders/${o.id}/notes`, { notes: 'Call before shipping.\nCustomer prefers mornings.' });
    expect(await count('order_notes', sql`order_id = ${o.id}`)).toBe(2);

    const tooLong = await admin.put(`/api/admin/orders/${o.id}/notes`, { notes: 'x'.repeat(5001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.notes).toBe('Notes must be at most 5000 characters');
    for (const body of [{}, { notes: 5 }, { notes: 'ok', more: true }, { notes: 'bell \u0007' }]) {
      expect((await admin.put(`/api/admin/orders/${o.id}/notes`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const [after] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, o.id));
    expect(after.internalNotes).toBe('Call before shipping.\nCustomer prefers mornings.');
    expect(await t.app.ctx.db.select().from(orderNotes).where(eq(orderNotes.orderId, o.id))).toHaveLength(2);
  });
});

describe('CSV export', () => {
  it('downloads the shown orders with commas, quotes and formulas escaped safely', async () => {
    const tricky = [
      { customerName: 'Smith, John "JJ"', email: 'csv1@csv.example', companyName: 'A, B & "C"' },
      { customerName: '=HYPERLINK("http://evil.example","Click")', email: 'csv2@csv.example', companyName: '+1+2' },
      { customerName: '@SUM(A1:A9)', email: 'csv3@csv.example', companyName: '-2+3', specialRequests: 'line one\nline two' },
      { customerName: '  =cmd|calc', email: 'csv4@csv.example', companyName: '\tTabbed' },
    ];
    for (const o of tricky) await insertOrder(t.app, o);
    const res = await admin.get('/api/admin/orders.csv?q=csv.example');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parse(res.body, { bom: true, columns: true, relax_column_count: false }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(4);
    const byEmail = Object.fromEntries(rows.map((r) => [r.Email, r]));
    expect(byEmail['csv1@csv.example'].Customer).toBe('Smith, John "JJ"');
    expect(byEmail['csv1@csv.example'].Company).toBe('A, B & "C"');
    expect(byEmail['csv2@csv.example'].Customer).toBe(`'=HYPERLINK("http://evil.example","Click")`);
    expect(byEmail['csv2@csv.example'].Company).toBe("'+1+2");
    expect(byEmail['csv3@csv.example'].Customer).toBe("'@SUM(A1:A9)");
    expect(byEmail['csv3@csv.example'].Company).toBe("'-2+3");
    expect(byEmail['csv3@csv.example']['Special Requests']).toBe('line one\nline two');
    expect(byEmail['csv4@csv.example'].Customer).toBe("'  =cmd|calc");
    expect(byEmail['csv4@csv.example'].Company).toBe("'\tTabbed");
    // no cell a spreadsheet would evaluate
    for (const r of rows) for (const v of Object.values(r)) expect(v).not.toMatch(/^\s*[=+\-@\t\r]/);
    expect(Object.keys(rows[0])).toEqual([
      'Order ID', 'Date', 'Status', 'Customer', 'Company', 'Position', 'Email', 'Phone', 'Address', 'Card Type', 'Card Style', 'Quantity', 'Delivery', 'Total (USD)', 'Special Requests', 'Source',
    ]);
    expect(byEmail['csv1@csv.example']['Total (USD)']).toBe('400.00');
  });

  it('exports every matching order across its 1000-row batches, even orders made within the same millisecond', async () => {
    await t.app.ctx.db.execute(sql`
      insert into orders (customer_name, email, quantity, card_type, card_style, delivery_option, unit_price_cents, delivery_fee_cents, total_cents, price_snapshot, status_token, created_at)
      select 'Burst ' || i, 'burst' || i || '@burst.example', 1, 'standard', 'Matte', 'standard', 400, 0, 400, '{}'::jsonb, md5('burst' || i),
             timestamptz '2024-05-01 12:00:00.500300' - (i || ' microseconds')::interval
      from generate_series(1, 2100) i`);
    const csv = parse((await admin.get('/api/admin/orders.csv?q=burst.example')).body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(csv).toHaveLength(2100);
    expect(new Set(csv.map((r) => r['Order ID'])).size).toBe(2100);
    expect(csv[0].Customer).toBe('Burst 1');
    expect(csv[2099].Customer).toBe('Burst 2100');
  });

  it('exports the same set the list shows for a filter', async () => {
    const list = (await admin.get('/api/admin/orders?status=completed&pageSize=100')).json() as AdminOrderPage;
    const csv = parse((await admin.get('/api/admin/orders.csv?status=completed')).body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(csv.map((r) => Number(r['Order ID']))).toEqual(list.orders.map((o) => o.id));
  });
});

describe('customers', () => {
  it('groups orders by e-mail (any case) with contact details and their orders', async () => {
    const a = await insertOrder(t.app, { email: 'Repeat.Buyer@Example.com', customerName: 'Repeat Buyer', phone: '+1 917 555 0199', companyName: 'Repeat LLC', createdAt: new Date(Date.now() - 86400_000) });
    const b = await insertOrder(t.app, { email: 'repeat.buyer@example.com', customerName: 'Repeat Buyer', phone: null, companyName: null });
    const res = await admin.get('/api/admin/customers?q=repeat.buyer');
    expect(res.statusCode).toBe(200);
    const page = res.json() as AdminCustomerPage;
    expect(page.total).toBe(1);
    const c = page.customers[0];
    expect(c).toMatchObject({ name: 'Repeat Buyer', phone: '+1 917 555 0199', company: 'Repeat LLC', orderCount: 2, totalCents: a.totalCents + b.totalCents });
    expect(c.email.toLowerCase()).toBe('repeat.buyer@example.com');
    expect(c.orders.map((o) => o.id)).toEqual([b.id, a.id]);
    expect((await admin.get('/api/admin/customers?pageSize=0')).statusCode).toBe(400);
  });
});

describe('outbox', () => {
  it('lists the e-mails and shows one with its text and HTML', async () => {
    const res = await admin.get('/api/admin/outbox');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBeGreaterThan(0);
    expect(page.smtpConfigured).toBe(false);
    expect(page.counts.pending).toBe(page.total);
    const one = await admin.get(`/api/admin/outbox/${page.emails[0].id}`);
    expect(one.json()).toMatchObject({ textBody: expect.any(String), htmlBody: expect.stringContaining('<html') });
    expect((await admin.get('/api/admin/outbox/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/admin/outbox?status=lost')).statusCode).toBe(400);
  });

  it('sends a failed e-mail again; a pending one cannot be retried', async () => {
    const [row] = await t.app.ctx.db.select().from(outbox).limit(1);
    expect((await admin.post(`/api/admin/outbox/${row.id}/retry`)).statusCode).toBe(409);
    await t.app.ctx.db.update(outbox).set({ status: 'failed', attempts: 12, lastError: 'boom' }).where(eq(outbox.id, row.id));
    const res = await admin.post(`/api/admin/outbox/${row.id}/retry`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', attempts: 0 });
  });
});
