import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { insertOrder } from '#tests/helpers/admin-factories';
import { orderInput } from '#tests/helpers/orders';
import { startShopifyStandin, type ShopifyStandin, type StandinOrder } from '#tests/helpers/shopify-standin';
import { orderStatusHistory, orders } from '#server/db/schema/index';
import type { AdminOrderDetail, AdminStats } from '#shared/schemas/admin';
import { moneyToCents, verifyStoreSignature } from './store-webhooks';

/**
 * Issue 35, decision 35-01: payment state of every order. With the online store configured, the
 * store's order webhooks (signed the way Shopify signs them, by the local stand-in) record
 * payments, refunds, what the store collected and cancellations, each once and in any order;
 * without it ("invoice mode") staff record payments. Revenue counts only money kept.
 */

let shop: ShopifyStandin;
let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  shop = await startShopifyStandin();
  t = await createTestApp({
    env: {
      SHOPIFY_STORE_DOMAIN: shop.storeDomain,
      SHOPIFY_STOREFRONT_TOKEN: shop.token,
      SHOPIFY_API_URL: shop.url,
      SHOPIFY_WEBHOOK_SECRET: shop.webhookSecret,
      PUBLIC_URL: 'https://cards.example.test',
      RATE_LIMITS: 'off',
    },
  });
  admin = (await adminAgent(t.app)).agent;
});
afterAll(async () => {
  await t?.close();
  await shop?.close();
});

const count = async (table: string) => Number(((await t.app.ctx.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)) as any).rows[0].n);
const writes = async () => `${await count('order_payments')}/${await count('store_webhook_events')}/${await count('order_notes')}/${await count('order_status_history')}`;

function deliver(topic: string, payload: unknown, opts: { webhookId?: string; secret?: string; hmac?: string | null } = {}) {
  const w = shop.signedWebhook(topic, payload, opts);
  return t.app.inject({ method: 'POST', url: '/api/shopify/webhooks', headers: w.headers, payload: w.body });
}

/**
 * An order placed through the API with the store configured, and the store order its paid checkout
 * makes: by default the store charges our price plus its tax (`subtotalCents` another amount).
 */
async function placeAndCheckOut(taxCents = 12345, subtotalCents?: number): Promise<{ orderId: number; store: StandinOrder }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput(), headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(res.statusCode, res.body).toBe(201);
  const orderId = res.json().orderId as number;
  const cart = [...shop.carts.values()].find((c) => c.attributes.some((a) => a.key === 'order_id' && a.value === String(orderId)));
  expect(cart, 'the checkout carries our order id as a cart attribute').toBeTruthy();
  const [row] = await t.app.ctx.db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, orderId));
  return { orderId, store: shop.completeCheckout(cart!.id, { taxCents, subtotalCents: subtotalCents ?? row.totalCents }) };
}

const detail = async (id: number) => {
  const res = await admin.get(`/api/admin/orders/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json() as AdminOrderDetail;
};

describe('the signature (unit)', () => {
  it('accepts exactly the base64 HMAC-SHA256 of the raw bytes with the secret', () => {
    const body = Buffer.from('{"id":1}');
    const good = crypto.createHmac('sha256', 's3cret').update(body).digest('base64');
    expect(verifyStoreSignature('s3cret', body, good)).toBe(true);
    expect(verifyStoreSignature('s3cret', Buffer.from('{"id":1} '), good)).toBe(false);
    expect(verifyStoreSignature('other', body, good)).toBe(false);
    expect(verifyStoreSignature('s3cret', body, undefined)).toBe(false);
    expect(verifyStoreSignature('s3cret', body, good.slice(0, -4))).toBe(false);
    // any other header value is refused, never thrown on
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (h) => h === good || verifyStoreSignature('s3cret', body, h) === false));
  });

  it('reads the store money strings', () => {
    expect(moneyToCents('1780.00')).toBe(178000);
    expect(moneyToCents('5.5')).toBe(550);
    expect(moneyToCents('0')).toBe(0);
    expect(moneyToCents('-1.00')).toBeNull();
    expect(moneyToCents('1e9')).toBeNull();
  });
});

describe('store webhooks (online store configured)', () => {
  it('a good signature records the payment, the tax and the address the store collected', async () => {
    const { orderId, store } = await placeAndCheckOut();
    const before = await detail(orderId);
    expect(before.payment).toMatchObject({ status: 'unpaid', paidCents: 0, refundedCents: 0, mode: 'store', store: null });

    const res = await deliver('orders/paid', shop.orderWebhook(store));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, outcome: 'handled' });
    const d = await detail(orderId);
    expect(d.payment).toMatchObject({
      status: 'paid',
      paidCents: store.totalCents,
      refundedCents: 0,
      balanceCents: 0,
      method: 'shopify_payments',
      reference: store.name,
      currency: 'USD',
      store: { orderId: String(store.id), orderName: store.name, totalCents: store.totalCents, taxCents: 12345, cancelledAt: null },
    });
    expect(d.payment.store!.shippingAddress).toMatchObject({ address1: '1 Main St', city: 'Brooklyn', zip: '11201', country_code: 'US' });
    expect(d.payment.entries).toEqual([expect.objectContaining({ kind: 'payment', amountCents: store.totalCents, source: 'store', recordedBy: 'online store' })]);
  });

  it("the store's charge must cover our price: less is unpaid with the balance shown", async () => {
    // the spec's checkout is one line at the store product's price (89.99), far below a 250-card order
    const { orderId, store } = await placeAndCheckOut(0, 8999);
    expect((await deliver('orders/paid', shop.orderWebhook(store))).json().outcome).toBe('handled');
    const d = await detail(orderId);
    expect(d.payment).toMatchObject({ status: 'unpaid', paidCents: 8999, balanceCents: d.totalCents - 8999, reference: store.name });
    // staff take the rest by invoice: paid
    const rest = await admin.post(`/api/admin/orders/${orderId}/payments`, { amountCents: d.totalCents - 8999, method: 'bank_transfer', reference: 'INV-REST' });
    expect(rest.json().payment).toMatchObject({ status: 'paid', balanceCents: 0, method: 'bank_transfer' });
  });

  it('a bad or missing signature is 401 and nothing is written', async () => {
    const { orderId, store } = await placeAndCheckOut();
    const payload = shop.orderWebhook(store);
    const before = await writes();
    const forged = crypto.createHmac('sha256', 'not-the-secret').update(JSON.stringify(payload)).digest('base64');
    const tampered = shop.signedWebhook('orders/paid', payload);
    const attempts = [
      deliver('orders/paid', payload, { hmac: null }),
      deliver('orders/paid', payload, { hmac: forged }),
      deliver('orders/paid', payload, { hmac: '' }),
      deliver('orders/paid', payload, { secret: 'another-store' }),
      // the signature of other bytes: the same JSON with one more space
      t.app.inject({ method: 'POST', url: '/api/shopify/webhooks', headers: tampered.headers, payload: Buffer.concat([tampered.body, Buffer.from(' ')]) }),
      // an unknown topic is still refused when unsigned
      deliver('shop/update', payload, { hmac: forged }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid webhook signature' });
    }
    expect(await writes()).toBe(before);
    expect((await detail(orderId)).payment.status).toBe('unpaid');
  });

  it('a replayed webhook id is acknowledged and ignored; the same event under another id counts once', async () => {
    const { orderId, store } = await placeAndCheckOut();
    const webhookId = crypto.randomUUID();
    expect((await deliver('orders/paid', shop.orderWebhook(store), { webhookId })).json()).toEqual({ ok: true, outcome: 'handled' });
    const after = await writes();
    for (let i = 0; i < 3; i++) {
      const again = await deliver('orders/paid', shop.orderWebhook(store), { webhookId });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ ok: true, outcome: 'duplicate' });
    }
    expect(await writes()).toBe(after);
    // concurrent retries of one id: one is handled
    const id2 = crypto.randomUUID();
    const { orderId: other, store: otherStore } = await placeAndCheckOut();
    const outcomes = (await Promise.all([1, 2, 3].map(() => deliver('orders/paid', shop.orderWebhook(otherStore), { webhookId: id2 })))).map((r) => r.json().outcome);
    expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'handled']);
    // the store sending the same event again under a new id: the payment is still counted once
    expect((await deliver('orders/paid', shop.orderWebhook(store))).json().outcome).toBe('handled');
    expect((await detail(orderId)).payment).toMatchObject({ status: 'paid', paidCents: store.totalCents });
    expect((await detail(orderId)).payment.entries).toHaveLength(1);
    expect((await detail(other)).payment.entries).toHaveLength(1);
  });

  it('refunds before the paid event end in the right state (any order), partially then fully refunded', async () => {
    const { orderId, store } = await placeAndCheckOut(0);
    const part = Math.floor(store.totalCents / 4);
    const refund1 = shop.refundWebhook(store, part);
    // the refund comes first: no order is linked to the store order yet, so it waits
    expect((await deliver('refunds/create', refund1)).json()).toEqual({ ok: true, outcome: 'unmatched' });
    expect((await detail(orderId)).payment).toMatchObject({ status: 'unpaid', refundedCents: 0 });
    // the paid event links the order and applies the waiting refund
    expect((await deliver('orders/paid', shop.orderWebhook(store))).json().outcome).toBe('handled');
    expect((await detail(orderId)).payment).toMatchObject({ status: 'partially_refunded', paidCents: store.totalCents, refundedCents: part, balanceCents: 0 });
    // the same refund again under a new webhook id counts once
    expect((await deliver('refunds/create', refund1)).json().outcome).toBe('handled');
    expect((await detail(orderId)).payment.refundedCents).toBe(part);
    // the rest is refunded
    await deliver('refunds/create', shop.refundWebhook(store, store.totalCents - part));
    const d = await detail(orderId);
    expect(d.payment).toMatchObject({ status: 'refunded', paidCents: store.totalCents, refundedCents: store.totalCents });
    // the waiting refund is applied right after the payment that links the order
    expect(d.payment.entries.map((e) => e.kind)).toEqual(['payment', 'refund', 'refund']);
  });

  it('cancelled at the store: the order is cancelled (by the online store) and its cancellation kept', async () => {
    const { orderId, store } = await placeAndCheckOut();
    const res = await deliver('orders/cancelled', shop.orderWebhook(store, { cancelled: true }));
    expect(res.json()).toEqual({ ok: true, outcome: 'handled' });
    const d = await detail(orderId);
    expect(d.status).toBe('cancelled');
    expect(d.payment.store?.cancelledAt).toEqual(expect.any(String));
    expect(d.payment.status).toBe('unpaid');
    const [h] = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId)).orderBy(sql`${orderStatusHistory.id} desc`).limit(1);
    expect(h).toMatchObject({ toStatus: 'cancelled', changedByLabel: 'online store' });
    // a late paid event still records the money (staff see it and refund it)
    await deliver('orders/paid', shop.orderWebhook(store));
    expect((await detail(orderId)).payment.status).toBe('paid');
  });

  it('an unknown topic, or an order we cannot find, is acknowledged with 200', async () => {
    expect((await deliver('shop/update', { id: 1 })).json()).toEqual({ ok: true, outcome: 'ignored' });
    expect((await deliver('orders/paid', { nothing: true })).json()).toEqual({ ok: true, outcome: 'ignored' });
    const stranger = shop.orderWebhook({ id: 777, name: '#9', cartId: 'x', totalCents: 100, taxCents: 0, currency: 'USD', gateway: 'manual', noteAttributes: [], shippingAddress: null });
    expect((await deliver('orders/paid', stranger)).json()).toEqual({ ok: true, outcome: 'unmatched' });
    // a signed request without a webhook id names the header
    const res = await deliver('orders/paid', stranger, { webhookId: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ 'x-shopify-webhook-id': 'The webhook id header is required' });
  });

  it('a body over 512 KB is refused with 413 before its signature is read; other content types with 415', async () => {
    const before = await writes();
    const big = await deliver('orders/paid', { id: 1, padding: 'x'.repeat(600 * 1024) });
    expect(big.statusCode).toBe(413);
    const w = shop.signedWebhook('orders/paid', { id: 1 });
    const form = await t.app.inject({ method: 'POST', url: '/api/shopify/webhooks', headers: { ...w.headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: w.body });
    expect(form.statusCode).toBe(415);
    expect(await writes()).toBe(before);
  });

  it('sent by the stand-in over HTTP to a listening server (the way Shopify delivers)', async () => {
    const { orderId, store } = await placeAndCheckOut();
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await shop.sendWebhook(`${url}/api/shopify/webhooks`, 'orders/paid', shop.orderWebhook(store));
    expect(res.statusCode, res.body).toBe(200);
    expect((await detail(orderId)).payment.status).toBe('paid');
  });
});

describe('staff record payments (invoice mode) and revenue counts only money kept', () => {
  let inv: TestApp;
  let staff: Agent;
  beforeAll(async () => {
    inv = await createTestApp({ env: { RATE_LIMITS: 'off' } });
    staff = (await adminAgent(inv.app)).agent;
  });
  afterAll(async () => {
    await inv?.close();
  });
  const stats = async () => (await staff.get('/api/admin/stats')).json() as AdminStats;
  const paymentsCount = async () => Number(((await inv.app.ctx.db.execute(sql`select count(*)::int as n from order_payments`)) as any).rows[0].n);

  it('orders confirmed but not paid bring no revenue; recorded payments and refunds do', async () => {
    // $400 completed and $90 shipped, nothing paid: no revenue
    const a = await insertOrder(inv.app, { status: 'completed', cardType: 'standard', quantity: 100 });
    const b = await insertOrder(inv.app, { status: 'shipped', cardType: 'luxury_titanium', quantity: 10 });
    expect(await stats()).toMatchObject({ totalRevenueCents: 0, totalRevenue: 0, refundedRevenueCents: 0, paidOrders: 0 });
    const before = await staff.get(`/api/admin/orders/${a.id}`);
    expect(before.json().payment).toMatchObject({ status: 'unpaid', paidCents: 0, balanceCents: 40000, mode: 'invoice', method: null, reference: null });

    // a part payment: still unpaid, with what is left to pay
    const part = await staff.post(`/api/admin/orders/${a.id}/payments`, { amountCents: 10000, method: 'bank_transfer', reference: 'INV-1001' });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json().payment).toMatchObject({ status: 'unpaid', paidCents: 10000, balanceCents: 30000, method: 'bank_transfer', reference: 'INV-1001' });
    const rest = await staff.post(`/api/admin/orders/${a.id}/payments`, { amountCents: 30000, method: 'check', reference: 'CHK 77' });
    expect(rest.json().payment).toMatchObject({ status: 'paid', paidCents: 40000, balanceCents: 0, method: 'check', reference: 'CHK 77' });
    expect(rest.json().payment.entries[0]).toMatchObject({ kind: 'payment', amountCents: 10000, source: 'staff', recordedBy: expect.any(String) });
    await staff.post(`/api/admin/orders/${b.id}/payments`, { amountCents: 9000, method: 'card', reference: 'POS 1' });
    expect(await stats()).toMatchObject({ totalRevenueCents: 49000, totalRevenue: 490, paidOrders: 2 });

    // a refund: partially refunded, revenue less the refund
    const refund = await staff.post(`/api/admin/orders/${b.id}/payments`, { kind: 'refund', amountCents: 2500, method: 'card', reference: 'POS 1 refund' });
    expect(refund.json().payment).toMatchObject({ status: 'partially_refunded', paidCents: 9000, refundedCents: 2500 });
    expect(await stats()).toMatchObject({ totalRevenueCents: 46500, refundedRevenueCents: 2500, paidOrders: 2 });
    await staff.post(`/api/admin/orders/${b.id}/payments`, { kind: 'refund', amountCents: 6500, method: 'card', reference: 'POS 1 refund 2' });
    expect((await staff.get(`/api/admin/orders/${b.id}`)).json().payment.status).toBe('refunded');
    expect(await stats()).toMatchObject({ totalRevenueCents: 40000, refundedRevenueCents: 9000, paidOrders: 1 });
  });

  it('bad input is a 400 naming the field, and nothing is written; unknown order 404; staff only', async () => {
    const o = await insertOrder(inv.app, {});
    const url = `/api/admin/orders/${o.id}/payments`;
    const before = await paymentsCount();
    const cases: Array<[unknown, string, string]> = [
      [{ amountCents: 0, method: 'card', reference: 'r' }, 'amountCents', 'Amount must be more than zero'],
      [{ amountCents: -500, method: 'card', reference: 'r' }, 'amountCents', 'Amount must be more than zero'],
      [{ amountCents: 12.5, method: 'card', reference: 'r' }, 'amountCents', 'Amount must be a whole number of cents'],
      [{ amountCents: '100', method: 'card', reference: 'r' }, 'amountCents', 'Amount must be a number of cents'],
      [{ amountCents: 100_000_001, method: 'card', reference: 'r' }, 'amountCents', 'Amount must be at most $1,000,000.00'],
      [{ amountCents: 100, method: 'bitcoin', reference: 'r' }, 'method', 'Method must be one of bank_transfer, card, check, cash, other'],
      [{ amountCents: 100, method: 'card', reference: '  ' }, 'reference', 'Reference is required (an invoice, transfer or receipt number)'],
      [{ amountCents: 100, method: 'card', reference: 'a\nb' }, 'reference', 'Reference must be a single line of text'],
      [{ amountCents: 100, method: 'card' }, 'reference', 'Reference must be text'],
      [{ amountCents: 100, method: 'card', reference: 'r', kind: 'gift' }, 'kind', 'Kind must be payment or refund'],
    ];
    for (const [body, field, message] of cases) {
      const res = await staff.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(body)).toBe(message);
    }
    expect((await staff.post(url, { amountCents: 100, method: 'card', reference: 'r', extra: 1 })).statusCode).toBe(400);
    expect((await staff.post('/api/admin/orders/999999/payments', { amountCents: 100, method: 'card', reference: 'r' })).statusCode).toBe(404);
    const { agent: user } = await signedInAgent(inv.app);
    expect((await user.post(url, { amountCents: 100, method: 'card', reference: 'r' })).statusCode).toBe(403);
    expect((await inv.app.inject({ method: 'POST', url, payload: { amountCents: 100, method: 'card', reference: 'r' } })).statusCode).toBe(401);
    expect(await paymentsCount()).toBe(before);
    const [row] = await inv.app.ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.id, o.id));
    expect(row.status).toBe('pending');
  });

  it('without SHOPIFY_WEBHOOK_SECRET every store webhook is refused', async () => {
    const body = JSON.stringify({ id: 1 });
    const hmac = crypto.createHmac('sha256', '').update(body).digest('base64');
    const res = await inv.app.inject({ method: 'POST', url: '/api/shopify/webhooks', headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/paid', 'x-shopify-webhook-id': 'w1', 'x-shopify-hmac-sha256': hmac }, payload: body });
    expect(res.statusCode).toBe(401);
  });
});
