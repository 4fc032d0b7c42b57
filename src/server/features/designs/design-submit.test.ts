import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { decodeQrImage } from '#tests/helpers/qr-decode';
import { shippingAddressInput } from '#tests/helpers/orders';
import { cards, files, orders, orderStatusHistory, outbox } from '#server/db/schema/index';

// moved from templates.test.ts (issue 34): the design's submission belongs to designs

let t: TestApp;
beforeAll(async () => {
  // many sign-ups from one address in this file: the sign-up limit is tested elsewhere
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t.close();
});

const count = async (table: 'cards' | 'orders' | 'files') => Number(((await t.app.ctx.db.execute(sql.raw(`select count(*)::int n from ${table}`))) as any).rows[0].n);

const design = (over: Record<string, unknown> = {}) => ({
  templateId: 17,
  cardType: 'standard',
  customerProfile: {
    fullName: 'Grace Hopper',
    jobTitle: 'Rear Admiral',
    companyName: 'US Navy',
    email: 'grace@example.com',
    phoneNumber: '+1 212 555 0100',
    address: '1 Navy Yard, New York, NY',
    website: 'https://example.com/grace',
    linkedinUrl: '',
  },
  submittedAt: new Date().toISOString(),
  // the checkout's new order: its delivery address (issue 35)
  shippingAddress: shippingAddressInput(),
  ...over,
});

/** Gives a signed-in agent a profile (through the profile API) and returns its id. */
async function withProfile(agent: Agent, fullName = 'Grace Hopper') {
  const res = await agent.put('/api/profile', { fullName, jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100' });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().id as string;
}

describe('POST /api/cards/submit-for-review', () => {
  it('401 signed out, nothing written', async () => {
    const before = await count('cards');
    expect((await new Agent(t.app).post('/api/cards/submit-for-review', design())).statusCode).toBe(401);
    expect(await count('cards')).toBe(before);
  });

  it('stores the design with rendered images and its order in one go; the back QR opens the profile', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const profileId = await withProfile(agent);
    const res = await agent.post('/api/cards/submit-for-review', design({ templateId: 16, cardType: 'black_anodized' }));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.orderId).toBeGreaterThan(0);
    expect(body.status).toBe('pending');

    const [card] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, body.cardId));
    expect(card.userId).toBe(user.id);
    expect(card.profileId).toBe(profileId);
    expect(card.templateId).toBe(16);
    expect(card.cardType).toBe('black_anodized');
    expect(card.orderId).toBe(body.orderId);
    expect((card.customerProfile as any).fullName).toBe('Grace Hopper');
    expect(card.qrCodeUrl).toBe(`http://localhost:80/p/${profileId}`);

    const [order] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, body.orderId));
    expect(order.cardId).toBe(card.id);
    expect(order.source).toBe('design');
    expect(order.quantity).toBe(100);
    expect(order.unitPriceCents).toBe(700);
    expect(order.totalCents).toBe(70000);
    expect(order.templateId).toBe(16);
    expect(order.email).toBe('grace@example.com');
    const history = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, order.id));
    expect(history).toHaveLength(1);
    const mails = await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, 'grace@example.com'));
    expect(mails.length).toBeGreaterThan(0);

    // the rendered images are stored files, served at /files/...
    for (const url of [card.frontImageUrl!, card.backImageUrl!]) {
      expect(url).toMatch(/^\/files\/cards\/\d{4}\/[a-z0-9]+\.jpg$/);
      const [f] = await t.app.ctx.db.select().from(files).where(eq(files.key, url.slice('/files/'.length)));
      expect(f.kind).toBe('card');
      expect(f.mimeType).toBe('image/jpeg');
    }
    const stored = await t.app.ctx.storage.get(card.backImageUrl!.slice('/files/'.length));
    expect(await decodeQrImage(stored!.data)).toBe(`http://localhost:80/p/${profileId}`);
  });

  it('uses quantity, delivery and style from the five-step flow', async () => {
    const { agent } = await signedInAgent(t.app);
    await withProfile(agent);
    const res = await agent.post('/api/cards/submit-for-review', design({ quantity: 250, deliveryOption: 'rush-24h', cardStyle: 'Brushed', cardType: 'color' }));
    expect(res.statusCode).toBe(201);
    const [order] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect([order.quantity, order.deliveryOption, order.cardStyle, order.totalCents]).toEqual([250, 'rush-24h', 'Brushed', 250 * 500 + 3000]);
  });

  it('a retried submit with the same client token answers the same order, once', async () => {
    const { agent } = await signedInAgent(t.app);
    await withProfile(agent);
    const token = `tok-${Date.now()}-abcdef`;
    const [c0, o0] = [await count('cards'), await count('orders')];
    const [a, b] = await Promise.all([
      agent.post('/api/cards/submit-for-review', design({ clientToken: token })),
      agent.post('/api/cards/submit-for-review', design({ clientToken: token })),
    ]);
    const c = await agent.post('/api/cards/submit-for-review', design({ clientToken: token }));
    const ids = [a, b, c].map((r) => r.json().orderId);
    expect(new Set(ids).size).toBe(1);
    expect([a.statusCode, b.statusCode, c.statusCode].filter((s) => s === 201)).toHaveLength(1);
    expect(await count('cards')).toBe(c0 + 1);
    expect(await count('orders')).toBe(o0 + 1);
  });

  it('without a profile the design is kept with the QR placeholder (added after review)', async () => {
    const { agent } = await signedInAgent(t.app);
    const res = await agent.post('/api/cards/submit-for-review', design());
    expect(res.statusCode).toBe(201);
    expect(res.json().qrCodeUrl).toBeNull();
    const [card] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, res.json().cardId));
    expect(card.profileId).toBeNull();
  });

  it('validates with the spec messages and writes nothing', async () => {
    const { agent } = await signedInAgent(t.app);
    const before = await Promise.all([count('cards'), count('orders'), count('files')]);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [design({ customerProfile: { ...design().customerProfile, fullName: '' } }), 'customerProfile.fullName', 'Please fill in all required fields (Name, Email, Phone).'],
      [design({ customerProfile: { ...design().customerProfile, phoneNumber: '' } }), 'customerProfile.phoneNumber', 'Please fill in all required fields (Name, Email, Phone).'],
      [design({ customerProfile: { ...design().customerProfile, email: 'nope' } }), 'customerProfile.email', 'Please enter a valid email address.'],
      [design({ cardType: 'gold' }), 'cardType', 'Please choose a card type'],
      [design({ quantity: 0 }), 'quantity', 'At least 1'],
      [design({ quantity: 5001 }), 'quantity', 'Too many'],
      [design({ templateId: 4242 }), 'templateId', 'Template not found'],
      [design({ templateId: 'x' }), 'templateId', 'Please choose a template'],
      [design({ submittedAt: 'yesterday' }), 'submittedAt', 'submittedAt must be an ISO date and time'],
      [design({ isAdmin: true }), 'isAdmin', 'Unknown field: isAdmin'],
      [design({ customerProfile: { ...design().customerProfile, website: 'javascript:alert(1)' } }), 'customerProfile.website', 'Please enter a valid URL starting with http:// or https://'],
      [design({ customerProfile: { ...design().customerProfile, fullName: 'a\nb' } }), 'customerProfile.fullName', 'Name must be a single line of text'],
    ];
    for (const [body, field, message] of cases) {
      const res = await agent.post('/api/cards/submit-for-review', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json().errors[field], field).toBe(message);
    }
    expect(await Promise.all([count('cards'), count('orders'), count('files')])).toEqual(before);
  });

  it('embeds the uploaded logo (a stored file) in the rendered front', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const red = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const key = `uploads/2026/${'r'.repeat(24)}.png`;
    await t.app.ctx.storage.put(key, red, 'image/png');
    await t.app.ctx.db.insert(files).values({ userId: user.id, kind: 'logo', key, mimeType: 'image/png', size: red.length });
    const res = await agent.post('/api/cards/submit-for-review', design({ templateId: 17, customerProfile: { ...design().customerProfile, logoUrl: `/files/${key}` } }));
    expect(res.statusCode, res.body).toBe(201);
    const stored = await t.app.ctx.storage.get(res.json().frontImageUrl.slice('/files/'.length));
    // Simple's logo slot is the top-right box (790..970 x 70..170): the logo is drawn there
    const { data } = await sharp(stored!.data).extract({ left: 880, top: 110, width: 4, height: 4 }).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(60);
  });
});
