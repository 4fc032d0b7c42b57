import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { decodeQrSvg } from '#tests/helpers/qr-decode';
import { cardCodes, orders, visits } from '#server/db/schema/index';
import { CARD_CODE_ALPHABET, MAX_CARD_CODES, cardCodeQrText, normalizeCardCode } from '#shared/schemas/engagement';
import { generateCardCode, orderBatchQrText } from './card-codes.service';

const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const CODE_RE = new RegExp(`^[${CARD_CODE_ALPHABET}]{6}$`);

async function owner(withProfile = true) {
  const s = await signedInAgent(t.app);
  let profileId: string | null = null;
  if (withProfile) {
    const res = await s.agent.post('/api/profile', { fullName: 'Grace Hopper', email: 'grace@example.com' });
    expect(res.statusCode).toBe(201);
    profileId = res.json().id;
  }
  return { ...s, profileId };
}

async function placeOrder(agent: Agent, over: Record<string, unknown> = {}) {
  const res = await agent.post('/api/order', orderInput(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().orderId as number;
}

const codesOfOrder = (orderId: number) => t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.orderId, orderId));

describe('card codes: the alphabet and the QR text', () => {
  it('draws codes only from the unambiguous upper-case alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const c = generateCardCode();
      expect(c).toMatch(CODE_RE);
      seen.add(c);
    }
    expect(seen.size).toBeGreaterThan(1990);
    for (const ch of '01OIL') expect(CARD_CODE_ALPHABET).not.toContain(ch);
  });

  it('normalises case and refuses what cannot be a code', () => {
    expect(normalizeCardCode(' ab23cd ')).toBe('AB23CD');
    expect(normalizeCardCode('ab-23')).toBeNull();
    expect(normalizeCardCode('a')).toBeNull();
    expect(normalizeCardCode('x'.repeat(17))).toBeNull();
  });

  it('puts the whole URL in QR alphanumeric mode and the code still decodes to a working link', async () => {
    const text = cardCodeQrText(ORIGIN, 'AB23CD');
    expect(text).toBe('HTTPS://CARDS.EXAMPLE.TEST/C/AB23CD');
    const qr = QRCode.create(text, { errorCorrectionLevel: 'H' });
    expect(qr.segments.map((s: any) => s.mode.id)).toEqual(['Alphanumeric']);
    // smaller than the same link in lower case (byte mode)
    expect(qr.version).toBeLessThan(QRCode.create(`${ORIGIN}/c/ab23cd`, { errorCorrectionLevel: 'H' }).version);
    // an origin with a path or odd characters keeps its case
    expect(cardCodeQrText('https://example.test/Shop', 'AB23CD')).toBe('https://example.test/Shop/c/AB23CD');

    const svg = await t.app.inject({ method: 'GET', url: `/api/qrcode?data=${encodeURIComponent(text)}&size=300` });
    expect(decodeQrSvg(svg.body)).toBe(text);
  });
});

describe('card codes: one per ordered batch', () => {
  it("gives a signed-in owner's order its code in the order's transaction", async () => {
    const { agent, profileId } = await owner();
    const orderId = await placeOrder(agent);
    const rows = await codesOfOrder(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ profileId, orderId, label: `Order #${orderId}`, active: true });
    expect(rows[0].code).toMatch(CODE_RE);

    const list = await agent.get('/api/card-codes');
    expect(list.statusCode).toBe(200);
    const [code] = list.json().codes;
    expect(code).toMatchObject({
      code: rows[0].code,
      orderId,
      active: true,
      url: `${ORIGIN}/c/${rows[0].code}`,
      qrText: `HTTPS://CARDS.EXAMPLE.TEST/C/${rows[0].code}`,
      views: 0,
      lastViewAt: null,
      deactivatedAt: null,
    });
    expect(code.order).toMatchObject({ id: orderId, quantity: 250, cardType: 'color', status: 'pending' });
  });

  it("tells the production file which link to print: the batch's code while it is on", async () => {
    const { agent } = await owner();
    const orderId = await placeOrder(agent);
    const [{ code }] = await codesOfOrder(orderId);
    expect(await orderBatchQrText(t.app.ctx, orderId, ORIGIN)).toBe(`HTTPS://CARDS.EXAMPLE.TEST/C/${code}`);
    await agent.patch(`/api/card-codes/${code}`, { active: false });
    expect(await orderBatchQrText(t.app.ctx, orderId, ORIGIN)).toBeNull();
    expect(await orderBatchQrText(t.app.ctx, 999_999, ORIGIN)).toBeNull();
  });

  it('each batch gets its own code; a signed-out order gets one at once that waits for its claim', async () => {
    const { agent } = await owner();
    const a = await placeOrder(agent);
    const b = await placeOrder(agent);
    const [ca] = await codesOfOrder(a);
    const [cb] = await codesOfOrder(b);
    expect(ca.code).not.toBe(cb.code);
    const anon = await placeOrder(new Agent(t.app));
    const [code] = await codesOfOrder(anon);
    expect(code.profileId).toBeNull();
    // a scan before the claim: an invitation that names no one, never a 404
    const res = await t.app.inject({ method: 'GET', url: `/c/${code.code}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('This card is almost ready');
    expect(res.body).not.toContain('Ana');
  });

  it('an order placed before the profile existed has its code at once; it opens the profile made later, and the owner lists it; cancelled ones are not listed', async () => {
    const { agent, user } = await owner(false);
    const early = await placeOrder(agent);
    const cancelled = await placeOrder(agent);
    await t.app.ctx.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, cancelled));
    const [earlyCode] = await codesOfOrder(early);
    expect(earlyCode.profileId).toBeNull();
    expect((await agent.get('/api/card-codes')).json()).toEqual({ codes: [] });

    const made = await agent.post('/api/profile', { fullName: 'Late Profile' });
    expect(made.statusCode).toBe(201);
    // the printed code opens the new profile at once (before the owner ever lists codes)
    const scan = await t.app.inject({ method: 'GET', url: `/c/${earlyCode.code}` });
    expect(scan.statusCode).toBe(302);
    expect(scan.headers.location).toContain(`/p/${made.json().id}`);
    const [first, second] = await Promise.all([agent.get('/api/card-codes'), agent.get('/api/card-codes')]);
    expect(first.json().codes).toHaveLength(1);
    expect(second.json().codes).toHaveLength(1);
    expect((await codesOfOrder(early))[0].profileId).toBe(made.json().id);
    expect((await codesOfOrder(cancelled)).every((c) => c.profileId === null)).toBe(true);
    const later = await t.app.inject({ method: 'GET', url: `/c/${earlyCode.code}` });
    expect(later.statusCode).toBe(302);
    expect(later.headers.location).toContain(`/p/${made.json().id}`);
    expect(user.id).toBeTruthy();
  });
});

describe('card codes: the short link', () => {
  it('redirects to the profile marked as a card view, in any letter case', async () => {
    const { agent, profileId } = await owner();
    const orderId = await placeOrder(agent);
    const [{ code }] = await codesOfOrder(orderId);
    for (const path of [`/c/${code}`, `/c/${code.toLowerCase()}`, `/C/${code}`, `/C/${code.toLowerCase()}`]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(302);
      expect(res.headers.location).toBe(`/p/${profileId}?src=card&code=${code}`);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('a turned-off code shows a polite 410 page that names no one; turned on it works again', async () => {
    const { agent, profileId } = await owner();
    const orderId = await placeOrder(agent);
    const [{ code }] = await codesOfOrder(orderId);

    const off = await agent.patch(`/api/card-codes/${code.toLowerCase()}`, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ code, active: false });
    expect(off.json().deactivatedAt).not.toBeNull();

    const gone = await t.app.inject({ method: 'GET', url: `/c/${code}` });
    expect(gone.statusCode).toBe(410);
    expect(gone.headers['content-type']).toContain('text/html');
    expect(gone.body).toContain('This card is no longer active');
    expect(gone.body).not.toContain('Grace');
    expect(gone.body).not.toContain(profileId!);

    const on = await agent.patch(`/api/card-codes/${code}`, { active: true });
    expect(on.json()).toMatchObject({ active: true, deactivatedAt: null });
    expect((await t.app.inject({ method: 'GET', url: `/c/${code}` })).statusCode).toBe(302);
  });

  it('an unknown or malformed code is a 404 page', async () => {
    for (const path of ['/c/ZZZZZZ', '/c/no-such', `/c/${'A'.repeat(40)}`]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toContain('Card not found');
    }
  });
});

describe('card codes: owner routes', () => {
  it('are for signed-in users only', async () => {
    const a = new Agent(t.app);
    expect((await a.get('/api/card-codes')).statusCode).toBe(401);
    expect((await a.post('/api/card-codes', { label: 'x' })).statusCode).toBe(401);
    expect((await a.patch('/api/card-codes/AB23CD', { active: false })).statusCode).toBe(401);
  });

  it('creates a labelled code, renames it, and validates input without writing', async () => {
    const { agent, profileId } = await owner();
    const res = await agent.post('/api/card-codes', { label: 'Trade show 2026' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ label: 'Trade show 2026', orderId: null, active: true });
    const code = res.json().code;
    expect((await agent.patch(`/api/card-codes/${code}`, { label: 'Booth cards' })).json()).toMatchObject({ label: 'Booth cards', active: true });

    const before = (await t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.profileId, profileId!))).length;
    const bad: Array<[string, 'post' | 'patch', unknown, string]> = [
      ['/api/card-codes', 'post', { label: 'x'.repeat(61) }, 'label'],
      ['/api/card-codes', 'post', { label: 'two\nlines' }, 'label'],
      ['/api/card-codes', 'post', { orderId: 'one' }, 'orderId'],
      ['/api/card-codes', 'post', { label: 'a', extra: true }, 'extra'],
      [`/api/card-codes/${code}`, 'patch', {}, 'active'],
      [`/api/card-codes/${code}`, 'patch', { active: 'no' }, 'active'],
      ['/api/card-codes/bad-code!', 'patch', { active: false }, 'code'],
    ];
    for (const [url, method, body, field] of bad) {
      const r = await agent[method](url, body);
      expect(r.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json().errors).toHaveProperty(field);
    }
    expect((await t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.profileId, profileId!))).length).toBe(before);
  });

  it('creates a code for one of the own orders only once', async () => {
    const { agent } = await owner(false);
    const orderId = await placeOrder(agent);
    expect((await agent.post('/api/card-codes', { orderId })).statusCode).toBe(404); // no profile yet
    await agent.post('/api/profile', { fullName: 'Grace Hopper' });
    // listing made the order's code; asking again is a conflict
    expect((await agent.get('/api/card-codes')).json().codes).toHaveLength(1);
    const again = await agent.post('/api/card-codes', { orderId });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.orderId).toBe('This order already has a code');
  });

  it("never reaches another owner's codes or orders (404)", async () => {
    const alice = await owner();
    const bob = await owner();
    const aliceOrder = await placeOrder(alice.agent);
    const [{ code }] = await codesOfOrder(aliceOrder);
    expect((await bob.agent.get('/api/card-codes')).json().codes.map((c: any) => c.code)).not.toContain(code);
    expect((await bob.agent.patch(`/api/card-codes/${code}`, { active: false })).statusCode).toBe(404);
    expect((await bob.agent.post('/api/card-codes', { orderId: aliceOrder })).statusCode).toBe(404);
    const [row] = await t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.code, code));
    expect(row.active).toBe(true);
  });

  it(`stops at ${MAX_CARD_CODES} codes`, async () => {
    const { agent, profileId } = await owner();
    await t.app.ctx.db.insert(cardCodes).values(Array.from({ length: MAX_CARD_CODES }, () => ({ code: generateCardCode(8), profileId: profileId!, label: 'bulk' })));
    const res = await agent.post('/api/card-codes', { label: 'one more' });
    expect(res.statusCode).toBe(409);
  });

  it('counts the views of each code', async () => {
    const { agent, profileId } = await owner();
    const orderId = await placeOrder(agent);
    const [{ code }] = await codesOfOrder(orderId);
    const at = new Date('2026-03-01T10:00:00Z');
    await t.app.ctx.db.insert(visits).values([
      { profileId: profileId!, source: 'card', cardCode: code, createdAt: new Date(at.getTime() - 3_600_000) },
      { profileId: profileId!, source: 'card', cardCode: code, createdAt: at },
      { profileId: profileId!, source: 'direct' },
    ]);
    const [listed] = (await agent.get('/api/card-codes')).json().codes;
    expect(listed).toMatchObject({ code, views: 2, lastViewAt: at.toISOString() });
  });
});
