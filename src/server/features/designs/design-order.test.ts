import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput, shippingAddressInput } from '#tests/helpers/orders';
import { cards, designEvents, orders, outbox } from '#server/db/schema/index';
import { DESIGN_ORDER_MESSAGES } from '#shared/schemas/designs';
import { ADDRESS_MESSAGES } from '#shared/schemas/orders';
import { INVOICE_NOTE, TAX_NOTE } from '#shared/orders/checkout-terms';

// issue 35, deliverable 1: an order is one thing from first click to delivery. A design submitted
// with `orderId` is attached to that order of the caller (a claimed visitor order included); no
// second order is made. "Reorder" repeats an approved design as a new order in one call.

const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  // a busy machine must not turn the card's render into "too complex"
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off', WORKER_TASK_TIMEOUT_MS: '60000' } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.app.ctx.db;
const orderCount = async () => Number(((await db().execute(sql.raw('select count(*)::int n from orders'))) as any).rows[0].n);

const design = (over: Record<string, unknown> = {}) => ({
  templateId: 17,
  cardType: 'standard',
  quantity: 100,
  customerProfile: { fullName: 'Ada Lovelace', jobTitle: 'Analyst', email: 'ada@example.com', phoneNumber: '+1 212 555 0101' },
  ...over,
});

/** A visitor orders 250 Black Anodized and claims the order from the e-mail (a new account). */
async function claimedVisitorOrder() {
  const input = orderInput({ cardType: 'black_anodized', quantity: 250, deliveryOption: 'standard' });
  const res = await new Agent(t.app).post('/api/order', input);
  expect(res.statusCode, res.body).toBe(201);
  const orderId = res.json().orderId as number;
  const [mail] = await db().select().from(outbox).where(eq(outbox.dedupeKey, `order-received:${orderId}`));
  const token = /\/claim\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
  const buyer = new Agent(t.app);
  const claimed = await buyer.post('/api/orders/claim', { token, password: 'silver-anvil-72', confirmPassword: 'silver-anvil-72' });
  expect(claimed.statusCode, claimed.body).toBe(200);
  return { buyer, orderId };
}

describe('POST /api/cards/submit-for-review with orderId', () => {
  it('a claimed visitor order gets the design: same order, no new order row, the order keeps card type, quantity and price', async () => {
    const { buyer, orderId } = await claimedVisitorOrder();
    const [before] = await db().select().from(orders).where(eq(orders.id, orderId));
    const rows = await orderCount();

    // the body's card type and quantity are not the order's: the order decides
    const res = await buyer.post('/api/cards/submit-for-review', design({ orderId }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orderId, status: 'pending' });
    expect(await orderCount()).toBe(rows);

    const [after] = await db().select().from(orders).where(eq(orders.id, orderId));
    const [card] = await db().select().from(cards).where(eq(cards.id, res.json().cardId));
    expect(after.cardId).toBe(card.id);
    expect(card).toMatchObject({ orderId, cardType: 'black_anodized', status: 'pending' });
    expect(card.frontImageUrl).toMatch(/^\/files\//);
    expect(after).toMatchObject({ quantity: 250, cardType: 'black_anodized', totalCents: before.totalCents, status: before.status });
    const events = await db().select().from(designEvents).where(eq(designEvents.orderId, orderId));
    expect(events.map((e) => e.kind)).toEqual(['submitted']);

    // My Orders: one order, its design in review
    const mine = (await buyer.get('/api/orders/mine')).json().orders;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: orderId, quantity: 250, design: { cardId: card.id, status: 'pending' } });

    // a second submit replaces the design in review on the same card: still one order
    const again = await buyer.post('/api/cards/submit-for-review', design({ orderId, templateId: 16 }));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ orderId, cardId: card.id });
    expect(await orderCount()).toBe(rows);
    const [replaced] = await db().select().from(cards).where(eq(cards.id, card.id));
    expect(replaced.templateId).toBe(16);
    expect((await db().select().from(designEvents).where(eq(designEvents.orderId, orderId))).map((e) => e.kind)).toEqual(['submitted', 'resubmitted']);
    expect(Number(((await db().execute(sql`select count(*)::int n from cards where order_id = ${orderId}`)) as any).rows[0].n)).toBe(1);
   }, 120_000); // the first render of the file starts the render workers

  it("another user's order (or none) is 404 and nothing is written; a signed-out caller 401", async () => {
    const { orderId } = await claimedVisitorOrder();
    const { agent: other } = await signedInAgent(t.app);
    const rows = await orderCount();
    const cardRows = Number(((await db().execute(sql.raw('select count(*)::int n from cards'))) as any).rows[0].n);
    const res = await other.post('/api/cards/submit-for-review', design({ orderId }));
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toBe(DESIGN_ORDER_MESSAGES.notFound);
    expect((await other.post('/api/cards/submit-for-review', design({ orderId: 2_000_000_000 }))).statusCode).toBe(404);
    expect((await new Agent(t.app).post('/api/cards/submit-for-review', design({ orderId }))).statusCode).toBe(401);
    expect((await other.post('/api/cards/submit-for-review', design({ orderId: 'abc' }))).statusCode).toBe(400);
    expect(await orderCount()).toBe(rows);
    expect(Number(((await db().execute(sql.raw('select count(*)::int n from cards'))) as any).rows[0].n)).toBe(cardRows);
    const [o] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(o.cardId).toBeNull();
  });

  it('409 with a clear message once the design is approved, or the order is in production, shipped or cancelled', async () => {
    const { buyer, orderId } = await claimedVisitorOrder();
    const first = await buyer.post('/api/cards/submit-for-review', design({ orderId }));
    expect(first.statusCode, first.body).toBe(200);
    await db().update(cards).set({ status: 'approved', reviewedAt: new Date() }).where(eq(cards.id, first.json().cardId));
    const approved = await buyer.post('/api/cards/submit-for-review', design({ orderId }));
    expect(approved.statusCode).toBe(409);
    expect(approved.json().message).toBe(DESIGN_ORDER_MESSAGES.approved);

    const second = await claimedVisitorOrder();
    for (const [status, message] of [
      ['in-production', DESIGN_ORDER_MESSAGES.locked],
      ['shipped', DESIGN_ORDER_MESSAGES.locked],
      ['cancelled', DESIGN_ORDER_MESSAGES.cancelled],
    ] as const) {
      await db().update(orders).set({ status }).where(eq(orders.id, second.orderId));
      const res = await second.buyer.post('/api/cards/submit-for-review', design({ orderId: second.orderId }));
      expect(res.statusCode, status).toBe(409);
      expect(res.json().message).toBe(message);
    }
    const [o] = await db().select().from(orders).where(eq(orders.id, second.orderId));
    expect(o.cardId).toBeNull();
  });

  it('without orderId the checkout makes the new order, with its delivery address', async () => {
    const { agent } = await signedInAgent(t.app);
    const rows = await orderCount();
    const res = await agent.post('/api/cards/submit-for-review', design({ cardType: 'luxury_titanium', quantity: 50, deliveryOption: 'rush-24h', shippingAddress: shippingAddressInput() }));
    expect(res.statusCode, res.body).toBe(201);
    expect(await orderCount()).toBe(rows + 1);
    const [o] = await db().select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(o).toMatchObject({ quantity: 50, cardType: 'luxury_titanium', deliveryOption: 'rush-24h', cardId: res.json().cardId });
    expect(o.shippingAddress).toMatchObject({ line1: '1 Navy Yard Way', state: 'NY', postalCode: '11205' });
    const bad = await agent.post('/api/cards/submit-for-review', design({ shippingAddress: shippingAddressInput({ postalCode: 'x' }) }));
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toContain('shippingAddress.postalCode');
  });

  it('without orderId the address is required as by POST /api/order (unless pickup): 400 by field, nothing written', async () => {
    const { agent } = await signedInAgent(t.app);
    const admin = (await adminAgent(t.app)).agent;
    const written = async () => Promise.all([orderCount(), ...['cards', 'files', 'design_events'].map(async (n) => Number(((await db().execute(sql.raw(`select count(*)::int n from ${n}`))) as any).rows[0].n))]);
    const before = await written();
    for (const deliveryOption of [undefined, 'standard', 'rush-24h']) {
      const missing = await agent.post('/api/cards/submit-for-review', design(deliveryOption ? { deliveryOption } : {}));
      expect(missing.statusCode, missing.body).toBe(400);
      expect(missing.json()).toMatchObject({ message: ADDRESS_MESSAGES.required, errors: { shippingAddress: ADDRESS_MESSAGES.required } });
    }
    // the same field messages as the order form's
    const bad = await agent.post('/api/cards/submit-for-review', design({ shippingAddress: { name: '', line1: ' ', city: 'Brooklyn', state: 'Zz', postalCode: '1120', country: 'US' } }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ 'shippingAddress.name': ADDRESS_MESSAGES.name, 'shippingAddress.line1': ADDRESS_MESSAGES.line1 });
    expect(await written()).toEqual(before);

    // pickup needs none (one sent anyway is not stored: nothing is shipped)
    const pickup = await agent.post('/api/cards/submit-for-review', design({ deliveryOption: 'pickup-nyc' }));
    expect(pickup.statusCode, pickup.body).toBe(201);
    const pickupWithAddress = await agent.post('/api/cards/submit-for-review', design({ deliveryOption: 'pickup-nyc', shippingAddress: shippingAddressInput() }));
    expect(pickupWithAddress.statusCode, pickupWithAddress.body).toBe(201);
    for (const res of [pickup, pickupWithAddress]) {
      const [o] = await db().select().from(orders).where(eq(orders.id, res.json().orderId));
      expect(o).toMatchObject({ deliveryOption: 'pickup-nyc', shippingAddress: null });
    }

    // with the address: stored, in the staff's order detail and on the order's page
    const res = await agent.post('/api/cards/submit-for-review', design({ shippingAddress: shippingAddressInput({ state: 'new york', line2: '' }) }));
    expect(res.statusCode, res.body).toBe(201);
    const shown = { name: 'Grace Hopper', line1: '1 Navy Yard Way', line2: null, city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' };
    const detail = await admin.get(`/api/admin/orders/${res.json().orderId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().shippingAddress).toEqual(shown);
    const [o] = await db().select().from(orders).where(eq(orders.id, res.json().orderId));
    expect((await new Agent(t.app).get(`/api/order-status/${o.statusToken}`)).json().shippingAddress).toEqual(shown);

    // the design of an existing order needs none: the order has its own
    const { buyer, orderId } = await claimedVisitorOrder();
    expect((await buyer.post('/api/cards/submit-for-review', design({ orderId }))).statusCode).toBe(200);
  });
});

describe('POST /api/orders/reorder', () => {
  it('repeats the approved design as a new order in one call: a copy of the design, approved with an event saying so', async () => {
    const { buyer, orderId } = await claimedVisitorOrder();
    const sub = await buyer.post('/api/cards/submit-for-review', design({ orderId }));
    // before approval there is nothing to repeat
    const early = await buyer.post('/api/orders/reorder', { orderId });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(DESIGN_ORDER_MESSAGES.noDesign);
    await db().update(cards).set({ status: 'approved', reviewedAt: new Date() }).where(eq(cards.id, sub.json().cardId));

    const rows = await orderCount();
    const res = await buyer.post('/api/orders/reorder', { orderId, quantity: 500, clientToken: 'reorder-token-1' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ designStatus: 'approved', totalCents: 500 * 700 });
    expect(body.orderId).not.toBe(orderId);
    expect(body.statusPath).toMatch(/^\/order-status\//);
    expect(await orderCount()).toBe(rows + 1);
    const [made] = await db().select().from(orders).where(eq(orders.id, body.orderId));
    const [original] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(made).toMatchObject({ quantity: 500, cardType: 'black_anodized', cardStyle: original.cardStyle, deliveryOption: original.deliveryOption, cardId: body.cardId, userId: original.userId });
    expect(made.shippingAddress).toEqual(original.shippingAddress);
    const [copy] = await db().select().from(cards).where(eq(cards.id, body.cardId));
    const [first] = await db().select().from(cards).where(eq(cards.id, sub.json().cardId));
    expect(copy.id).not.toBe(first.id);
    expect(copy).toMatchObject({ orderId: body.orderId, status: 'approved', templateId: first.templateId, frontImageUrl: first.frontImageUrl, customerProfile: first.customerProfile });
    const events = await db().select().from(designEvents).where(eq(designEvents.orderId, body.orderId));
    expect(events.map((e) => e.kind)).toEqual(['submitted', 'approved']);
    expect(events[1].reason).toBe(`Repeat of the design approved for order #${orderId}`);

    // a retried confirm answers the same new order
    const retry = await buyer.post('/api/orders/reorder', { orderId, quantity: 500, clientToken: 'reorder-token-1' });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().orderId).toBe(body.orderId);
    expect(await orderCount()).toBe(rows + 1);

    // another user's order is 404; a delivery without an address is refused by field
    const { agent: other } = await signedInAgent(t.app);
    expect((await other.post('/api/orders/reorder', { orderId })).statusCode).toBe(404);
    expect((await buyer.post('/api/orders/reorder', {})).statusCode).toBe(400);
    await db().update(orders).set({ shippingAddress: null }).where(eq(orders.id, orderId));
    const noAddress = await buyer.post('/api/orders/reorder', { orderId });
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().errors).toHaveProperty('shippingAddress');
    const pickup = await buyer.post('/api/orders/reorder', { orderId, deliveryOption: 'pickup-nyc' });
    expect(pickup.statusCode, pickup.body).toBe(201);
    expect((await db().select().from(orders).where(and(eq(orders.id, pickup.json().orderId))))[0].shippingAddress).toBeNull();
  });
});

describe('GET /api/checkout/terms', () => {
  it('without the online store: invoice mode and the tax note', async () => {
    const res = await new Agent(t.app).get('/api/checkout/terms');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ paymentMode: 'invoice', paymentNote: INVOICE_NOTE, taxNote: TAX_NOTE });
  });
});
