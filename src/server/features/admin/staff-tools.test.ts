import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { insertDesignWithOrder } from '#tests/helpers/admin-factories';
import { orderInput } from '#tests/helpers/orders';
import { orders, outbox } from '#server/db/schema/index';
import type { AdminTodo, OutboxPage } from '#shared/schemas/admin';
import type { PendingDesign } from '#shared/schemas/designs';

/** Issue 37 item 4: the outbox as a staff tab with search, the first admin's to-do, review cards with their order. */
let t: TestApp;
let admin: Agent;
let user: Agent;
let early: { id: number; email: string };
let later: { id: number; email: string };

async function placeOrder(overrides: Record<string, unknown>, remoteAddress: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput(overrides), remoteAddress });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().orderId as number;
}

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'http://cards.test' } });
  // placed while no admin account exists: nobody is told
  const earlyEmail = 'First.Buyer@Early-Shop.example';
  early = { id: await placeOrder({ email: earlyEmail, customerName: 'First Buyer', quantity: 100, cardType: 'standard', cardStyle: 'Matte' }, '10.0.0.1'), email: earlyEmail };
  ({ agent: user } = await signedInAgent(t.app));
  ({ agent: admin } = await adminAgent(t.app));
  const laterEmail = 'later_50%_off@late-shop.example';
  later = { id: await placeOrder({ email: laterEmail, customerName: 'Later Buyer' }, '10.0.0.2'), email: laterEmail };
});
afterAll(async () => {
  await t.close();
});

const list = async (query: string) => {
  const res = await admin.get(`/api/admin/outbox${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OutboxPage;
};

describe('staff only', () => {
  it('answers 401 signed out and 403 to a customer, on every new or changed staff route', async () => {
    const anon = new Agent(t.app);
    for (const [method, url, body] of [
      ['GET', '/api/admin/outbox?q=early', undefined],
      ['GET', '/api/admin/todo', undefined],
      ['POST', '/api/admin/todo/seen', { orderIds: [early.id] }],
    ] as const) {
      expect((await anon.request(method, url, body)).statusCode, `${method} ${url} signed out`).toBe(401);
      expect((await user.request(method, url, body)).statusCode, `${method} ${url} as a customer`).toBe(403);
    }
    // nothing was marked by the refused calls
    const [row] = await t.app.ctx.db.select({ seenAt: orders.staffSeenAt }).from(orders).where(eq(orders.id, early.id));
    expect(row.seenAt).toBeNull();
  });
});

describe('outbox search', () => {
  it('finds e-mails by a part of the address (any case), the subject, the order number and the status', async () => {
    const byAddress = await list('?q=early-SHOP');
    expect(byAddress.emails.length).toBeGreaterThan(0);
    expect(byAddress.emails.every((e) => e.toAddress.toLowerCase().includes('early-shop'))).toBe(true);
    expect(byAddress.total).toBe(byAddress.emails.length);

    const bySubject = await list(`?q=${encodeURIComponent(`order #${later.id} received`)}`);
    expect(bySubject.emails.map((e) => e.toAddress)).toEqual([later.email]);

    const byOrder = await list(`?order=${early.id}`);
    expect(byOrder.emails.length).toBeGreaterThan(0);
    expect(byOrder.emails.every((e) => e.orderId === early.id)).toBe(true);
    // "#42" is an order number too
    expect((await list(`?order=${encodeURIComponent(`#${early.id}`)}`)).total).toBe(byOrder.total);

    // status: every e-mail waits (no SMTP); one marked sent is found by its status
    const [sent] = await t.app.ctx.db.update(outbox).set({ status: 'sent', sentAt: new Date() }).where(eq(outbox.dedupeKey, `order-received:${later.id}`)).returning();
    const sentOnly = await list('?status=sent');
    expect(sentOnly.emails.map((e) => e.id)).toEqual([sent.id]);
    expect((await list(`?status=pending&order=${later.id}`)).emails.every((e) => e.status === 'pending' && e.id !== sent.id)).toBe(true);
    expect((await list(`?status=sent&q=early-shop`)).total).toBe(0);
  });

  it("takes the staff's own % and _ literally and pages the answer", async () => {
    // the address has "50%_off": the wildcards match themselves only
    expect((await list('?q=50%25_off')).emails.map((e) => e.toAddress)).toEqual([later.email]);
    expect((await list('?q=first%25buyer')).total).toBe(0);
    expect((await list('?q=first_buyer')).total).toBe(0);
    const all = await list('');
    expect(all.total).toBeGreaterThan(1);
    const one = await list('?pageSize=1&page=2');
    expect(one.emails).toHaveLength(1);
    expect(one.emails[0].id).toBe(all.emails[1].id);
    expect(one.total).toBe(all.total);
  });

  it('never shows a one-time link: the order claim link of a visitor order is a label', async () => {
    const [mail] = (await list(`?order=${early.id}&q=received`)).emails;
    const res = await admin.get(`/api/admin/outbox/${mail.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/\/claim\/[A-Za-z0-9_-]{8,}/);
    expect(res.json().textBody).toContain('[order claim link]');
  });

  it('refuses a bad query with 400 and a message per field', async () => {
    for (const [query, field, message] of [
      ['?order=abc', 'order', /order number/],
      ['?order=0', 'order', /order number/],
      ['?order=99999999999', 'order', /order number/],
      ['?status=lost', 'status', /pending, sent or failed/],
      ['?pageSize=0', 'pageSize', /at least 1/],
      ['?page=x', 'page', /number/],
      [`?q=${'x'.repeat(201)}`, 'q', /200/],
    ] as const) {
      const res = await admin.get(`/api/admin/outbox${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors?.[field], `${query}: ${res.body}`).toMatch(message);
    }
    const unknown = await admin.get('/api/admin/outbox?to=x');
    expect(unknown.statusCode).toBe(400);
  });
});

describe("the first admin's to-do", () => {
  it('lists the orders placed while no admin existed until staff mark them seen', async () => {
    const todo = (await admin.get('/api/admin/todo')).json() as AdminTodo;
    expect(todo.total).toBe(1);
    expect(todo.ordersWithoutStaff).toEqual([
      expect.objectContaining({ id: early.id, customerName: 'First Buyer', quantity: 100, cardType: 'standard', cardTypeLabel: expect.any(String), cardStyle: 'Matte', status: 'pending' }),
    ]);

    const bad = await admin.post('/api/admin/todo/seen', { orderIds: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.orderIds).toMatch(/at least one/);
    const notNumbers = await admin.post('/api/admin/todo/seen', { orderIds: ['x'] });
    expect(notNumbers.statusCode).toBe(400);
    expect(Object.keys(notNumbers.json().errors)[0]).toMatch(/^orderIds/);

    // an order that was never on the to-do is not marked
    expect((await admin.post('/api/admin/todo/seen', { orderIds: [later.id] })).json()).toEqual({ seen: 0 });
    expect((await admin.post('/api/admin/todo/seen', { orderIds: [early.id] })).json()).toEqual({ seen: 1 });
    expect((await admin.post('/api/admin/todo/seen', { orderIds: [early.id] })).json()).toEqual({ seen: 0 });
    expect(((await admin.get('/api/admin/todo')).json() as AdminTodo).total).toBe(0);
    const [row] = await t.app.ctx.db.select({ seenAt: orders.staffSeenAt, seenBy: orders.staffSeenBy, flagged: orders.placedWithoutStaff }).from(orders).where(eq(orders.id, early.id));
    expect(row.flagged).toBe(true);
    expect(row.seenAt).toBeInstanceOf(Date);
    expect(row.seenBy).not.toBeNull();
  });
});

describe('design review cards', () => {
  it("show the order's number, metal, finish and quantity", async () => {
    const { order, design } = await insertDesignWithOrder(t.app, { order: { cardType: 'black_anodized', cardStyle: 'Brushed', quantity: 75 } });
    const res = await admin.get('/api/admin/business-cards/pending');
    expect(res.statusCode).toBe(200);
    const card = (res.json() as PendingDesign[]).find((d) => d.id === design.id);
    expect(card?.order).toEqual({ id: order.id, quantity: 75, cardType: 'black_anodized', cardTypeLabel: 'Black Anodized', cardStyle: 'Brushed' });
  });
});
