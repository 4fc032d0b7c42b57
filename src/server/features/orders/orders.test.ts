import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent } from '#tests/helpers/factories';
import { countRows, orderInput, pngImage, uploadArtworkFile } from '#tests/helpers/orders';
import { toOrderPayload } from '#shared/schemas/orders';
import { orderFulfilment, orders, outbox, orderStatusHistory } from '#server/db/schema/index';
import { readyForProduction } from '#tests/helpers/order-readiness';
import { changeOrderStatus, createOrder } from './orders.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://cards.example.test' } });
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 1;
/** each call from its own address unless given one (the order form allows 5 a minute per address) */
const newIp = () => `10.9.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;

function postOrder(body: unknown, opts: { headers?: Record<string, string>; ip?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/order',
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...opts.headers },
    remoteAddress: opts.ip ?? newIp(),
  });
}

const ordersFor = (email: string) => countRows(t.app, 'orders', sql`email = ${email}`);
const mailsTo = (email: string) => countRows(t.app, 'outbox', sql`to_address = ${email}`);

describe('POST /api/order: the done-when order', () => {
  it('250 Color Metal with rush delivery and artwork: $1,280, stored once, e-mail with a working link', async () => {
    const up = await uploadArtworkFile(t.app, { name: 'logo.png', type: 'image/png', data: await pngImage() }, newIp());
    expect(up.statusCode).toBe(201);
    const [{ url, uploadToken }] = up.json();
    expect(url).toMatch(/^\/files\/artwork\/\d{4}\/[a-z0-9]{24}\.(png|jpg)$/);

    // signed out, the upload's own token proves the artwork is ours (issue 19)
    const input = orderInput({ artworkUrl: url, artworkToken: uploadToken });
    const key = crypto.randomUUID();
    const ip = newIp();
    const res = await postOrder(input, { headers: { 'idempotency-key': key }, ip });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'pending', totalCents: 128000, total: '$1,280.00', replayed: false, checkoutUrl: null });
    expect(body.statusUrl).toMatch(/^https:\/\/cards\.example\.test\/order-status\/[A-Za-z0-9_-]{43}$/);

    // retried submit (e.g. the answer was lost): the same order, nothing new written
    const again = await postOrder(input, { headers: { 'idempotency-key': key }, ip });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ orderId: body.orderId, replayed: true, statusUrl: body.statusUrl });
    expect(await ordersFor(input.email)).toBe(1);
    expect(await mailsTo(input.email)).toBe(1);

    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, body.orderId));
    expect(row).toMatchObject({
      status: 'pending',
      quantity: 250,
      cardType: 'color',
      cardStyle: 'Brushed',
      deliveryOption: 'rush-24h',
      unitPriceCents: 500,
      deliveryFeeCents: 3000,
      totalCents: 128000,
      artworkUrl: url,
      source: 'order-form',
      idempotencyKey: key,
    });
    expect(row.priceSnapshot).toMatchObject({ cardTypeLabel: 'Color Metal', deliveryLabel: 'Expedited 24h', subtotalCents: 125000, totalCents: 128000 });
    const history = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, body.orderId));
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([[null, 'pending']]);

    const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, input.email));
    expect(mail.kind).toBe('order-received');
    expect(mail.subject).toContain(`#${body.orderId}`);
    expect(mail.textBody).toContain(body.statusUrl);
    expect(mail.textBody).toContain('$1,280.00');
    expect(mail.htmlBody).toContain(`href="${body.statusUrl}"`);

    // the link works: the order page's data, by token only
    const token = body.statusUrl.split('/').pop();
    const page = await t.app.inject({ method: 'GET', url: `/api/order-status/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const view = page.json();
    expect(view).toMatchObject({
      id: body.orderId,
      quantity: 250,
      cardTypeLabel: 'Color Metal',
      deliveryLabel: 'Expedited 24h',
      totalCents: 128000,
      subtotalCents: 125000,
      status: 'pending',
      statusLabel: 'Pending',
      hasArtwork: true,
    });
    expect(view.history).toHaveLength(1);
    // nothing the link holder does not need: no e-mail, phone or address
    expect(JSON.stringify(view)).not.toContain(input.email);
    expect(JSON.stringify(view)).not.toContain(input.phone);
  });

  it('accepts the spec payload shape (customer, one item with properties, delivery in notes)', async () => {
    const input = orderInput({ quantity: 100, cardType: 'luxury_titanium', deliveryOption: 'same-day-manhattan', cardStyle: 'Mirror' });
    const payload = toOrderPayload(input as any);
    expect(payload.items[0].title).toBe('100× luxury_titanium');
    expect(payload.notes).toBe('Delivery option: same-day-manhattan');
    const res = await postOrder(payload);
    expect(res.statusCode).toBe(201);
    expect(res.json().totalCents).toBe(100 * 900 + 5000);
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(row).toMatchObject({ cardStyle: 'Mirror', companyName: 'Navy Labs', position: 'Rear Admiral', specialRequests: 'Gold edges please' });
  });

  it('also reads catalogue labels in the spec payload (title "{n}× Color Metal", "Delivery option: Pickup NYC")', async () => {
    const input = orderInput();
    const res = await postOrder({
      customer: { name: input.customerName, email: input.email },
      items: [{ title: '10× Color Metal', quantity: 10, properties: [{ name: 'Card Style', value: 'Matte' }] }],
      notes: 'Delivery option: Pickup NYC',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().totalCents).toBe(5000);
  });

  it('a client token in the body also makes a retry answer the same order', async () => {
    const input = orderInput({ clientToken: crypto.randomUUID() });
    const ip = newIp();
    const a = await postOrder(input, { ip });
    const b = await postOrder(input, { ip });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(200);
    expect(b.json().orderId).toBe(a.json().orderId);
    expect(await ordersFor(input.email)).toBe(1);
    expect(await mailsTo(input.email)).toBe(1);
  });

  it('concurrent submits with one key make one order', async () => {
    const input = orderInput();
    const key = crypto.randomUUID();
    const ip = newIp();
    const answers = await Promise.all([0, 1, 2].map(() => postOrder(input, { headers: { 'idempotency-key': key }, ip })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().orderId)).size).toBe(1);
    expect(await ordersFor(input.email)).toBe(1);
    expect(await mailsTo(input.email)).toBe(1);
  });

  it('a key reused by the same caller for a different order is refused with 409', async () => {
    const key = crypto.randomUUID();
    const input = orderInput();
    const ip = newIp();
    expect((await postOrder(input, { headers: { 'idempotency-key': key }, ip })).statusCode).toBe(201);
    const other = await postOrder({ ...input, quantity: 300 }, { headers: { 'idempotency-key': key }, ip });
    expect(other.statusCode).toBe(409);
    expect(await ordersFor(input.email)).toBe(1);
  });

  it('without a key, two submits are two orders', async () => {
    const input = orderInput();
    expect((await postOrder(input)).statusCode).toBe(201);
    expect((await postOrder(input)).statusCode).toBe(201);
    expect(await ordersFor(input.email)).toBe(2);
  });

  it('prices every card type and delivery option from the catalogue', async () => {
    const cases: Array<[string, string, number, number]> = [
      ['standard', 'standard', 1, 400],
      ['color', 'pickup-nyc', 100, 50000],
      ['black_anodized', 'rush-24h', 5000, 5000 * 700 + 3000],
      ['luxury_titanium', 'same-day-manhattan', 3, 2700 + 5000],
    ];
    for (const [cardType, deliveryOption, quantity, cents] of cases) {
      const res = await postOrder(orderInput({ cardType, deliveryOption, quantity }));
      expect(res.statusCode, `${cardType}/${deliveryOption}`).toBe(201);
      expect(res.json().totalCents).toBe(cents);
    }
  });
});

describe('POST /api/order: bad input is refused and nothing is written', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['quantity 0', { quantity: 0 }, 'quantity', 'At least 1'],
    ['quantity 5001', { quantity: 5001 }, 'quantity', 'Too many'],
    ['quantity 1.5', { quantity: 1.5 }, 'quantity', 'Quantity must be a whole number'],
    ['quantity "abc"', { quantity: 'abc' }, 'quantity', 'Quantity must be a whole number'],
    ['quantity "250" (a string)', { quantity: '250' }, 'quantity', 'Quantity must be a whole number'],
    ['unknown card type', { cardType: 'gold_plated' }, 'cardType', 'Select a card type'],
    ['old option list card type', { cardType: 'Stainless Steel' }, 'cardType', 'Select a card type'],
    ['unknown delivery', { deliveryOption: 'teleport' }, 'deliveryOption', 'Select a delivery option'],
    ['unknown style', { cardStyle: 'Glitter' }, 'cardStyle', 'Select a card style'],
    ['missing name', { customerName: '   ' }, 'customerName', 'Your name is required'],
    ['bad e-mail', { email: 'not-an-email' }, 'email', 'Enter a valid email'],
    ['CR/LF in name', { customerName: 'Eve\r\nBcc: victim@example.com' }, 'customerName', 'Name must be a single line of text'],
    ['CR/LF in e-mail', { email: 'eve@example.com\r\nBcc: victim@example.com' }, 'email', 'Enter a valid email'],
    ['30 KB special requests', { specialRequests: 'x'.repeat(30 * 1024) }, 'specialRequests', 'Special requests must be at most 2000 characters'],
    ['artwork from elsewhere', { artworkUrl: 'https://evil.example/x.png' }, 'artworkUrl', 'Artwork must be a file uploaded with this form'],
    ['a client total', { total: 1 }, 'total', 'Unknown field: total'],
    ['a client price', { unitPriceCents: 1 }, 'unitPriceCents', 'Unknown field: unitPriceCents'],
  ];
  for (const [name, override, field, message] of cases) {
    it(name, async () => {
      const input = orderInput(override);
      const before = await countRows(t.app, 'orders');
      const mails = await countRows(t.app, 'outbox');
      const res = await postOrder(input);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[field]).toBe(message);
      expect(res.json().message).toBeTruthy();
      expect(await countRows(t.app, 'orders')).toBe(before);
      expect(await countRows(t.app, 'outbox')).toBe(mails);
    });
  }

  it('artwork URL in the right form that was never uploaded', async () => {
    const before = await countRows(t.app, 'orders');
    const res = await postOrder(orderInput({ artworkUrl: '/files/artwork/2026/abcdefghijkmnpqrstuvwxyz.png' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.artworkUrl).toMatch(/upload it again/);
    expect(await countRows(t.app, 'orders')).toBe(before);
  });

  it('spec payload with two items, no items, unknown property', async () => {
    const input = orderInput();
    const payload = toOrderPayload(input as any);
    for (const bad of [
      { ...payload, items: [payload.items[0], payload.items[0]] },
      { ...payload, items: [] },
      { ...payload, items: [{ ...payload.items[0], properties: [...payload.items[0].properties, { name: 'Discount', value: '100%' }] }] },
      { ...payload, notes: 'Delivery option: by drone' },
    ]) {
      const res = await postOrder(bad);
      expect(res.statusCode).toBe(400);
    }
    expect(await ordersFor(input.email)).toBe(0);
  });

  it('malformed bodies and a bad Idempotency-Key', async () => {
    for (const payload of ['{"customerName":', '[]', 'null', '"text"']) {
      const res = await postOrder(payload);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const input = orderInput();
    const res = await postOrder(input, { headers: { 'idempotency-key': 'bad key with spaces' } });
    expect(res.statusCode).toBe(400);
    expect(await ordersFor(input.email)).toBe(0);
  });

  it('limits orders to 5 a minute per address (429 with Retry-After)', async () => {
    const ip = newIp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await postOrder(orderInput(), { ip })).statusCode);
    expect(codes.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    const last = await postOrder(orderInput(), { ip });
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/upload/artwork', () => {
  it('refuses an executable renamed .png (415) and stores nothing', async () => {
    const before = await countRows(t.app, 'files');
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), crypto.randomBytes(2048)]);
    const res = await uploadArtworkFile(t.app, { name: 'logo.png', type: 'image/png', data: exe }, newIp());
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Artwork must be a PNG, JPG, WEBP, SVG or PDF file');
    const elf = Buffer.concat([Buffer.from('\x7fELF', 'latin1'), crypto.randomBytes(512)]);
    expect((await uploadArtworkFile(t.app, { name: 'x.jpg', type: 'image/jpeg', data: elf }, newIp())).statusCode).toBe(415);
    expect(await countRows(t.app, 'files')).toBe(before);
  });

  it('refuses GIF and PDF (not in the accepted list)', async () => {
    const gif = await (await import('sharp')).default({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).gif().toBuffer();
    expect((await uploadArtworkFile(t.app, { name: 'a.gif', type: 'image/gif', data: gif }, newIp())).statusCode).toBe(415);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
    expect((await uploadArtworkFile(t.app, { name: 'a.png', type: 'image/png', data: pdf }, newIp())).statusCode).toBe(415);
  });

  it('refuses a file over the size cap with 413', async () => {
    const before = await countRows(t.app, 'files');
    const big = Buffer.concat([await pngImage(), Buffer.alloc(11 * 1024 * 1024)]);
    const res = await uploadArtworkFile(t.app, { name: 'big.png', type: 'image/png', data: big }, newIp());
    expect(res.statusCode).toBe(413);
    expect(await countRows(t.app, 'files')).toBe(before);
  });

  it('re-encodes rasters (metadata gone) and sanitizes SVG', async () => {
    const sharp = (await import('sharp')).default;
    const withExif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#123456' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-owner', Artist: 'gps-person' } } })
      .jpeg()
      .toBuffer();
    expect(withExif.toString('latin1')).toContain('secret-owner');
    const up = await uploadArtworkFile(t.app, { name: 'photo.jpeg', type: 'image/jpeg', data: withExif }, newIp());
    expect(up.statusCode).toBe(201);
    const stored = await t.app.ctx.storage.get(up.json()[0].url.replace('/files/', ''));
    expect(stored!.data.toString('latin1')).not.toContain('secret-owner');

    const webp = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } }).webp().toBuffer();
    expect((await uploadArtworkFile(t.app, { name: 'a.webp', type: 'image/webp', data: webp }, newIp())).statusCode).toBe(201);

    const evil = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="url(https://evil.example/x)"/><circle r="4" fill="#d4af37"/></svg>`;
    const svgUp = await uploadArtworkFile(t.app, { name: 'logo.svg', type: 'image/svg+xml', data: Buffer.from(evil) }, newIp());
    expect(svgUp.statusCode).toBe(201);
    const url = svgUp.json()[0].url as string;
    expect(url).toMatch(/\.svg$/);
    const clean = (await t.app.ctx.storage.get(url.replace('/files/', '')))!.data.toString('utf8');
    expect(clean).toContain('<circle');
    expect(clean).not.toMatch(/script|onload|evil\.example/);

    // served from its URL with a sandboxing policy
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(served.headers['content-security-policy'])).toMatch(/sandbox/);
    const jpg = await t.app.inject({ method: 'GET', url: up.json()[0].url });
    expect(jpg.statusCode).toBe(200);
    expect(jpg.headers['content-type']).toMatch(/^image\/(jpeg|png)/);
  });

  it('needs a multipart body with the artwork field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/upload/artwork', payload: { artwork: 'x' }, remoteAddress: newIp() });
    expect(res.statusCode).toBe(415);
  });
});

describe('order status page', () => {
  it('answers 404 for unknown or malformed tokens and never lists other orders', async () => {
    for (const token of ['x'.repeat(43), 'short', '../../etc/passwd', '%00', '1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/order-status/${encodeURIComponent(token)}` });
      expect([400, 404]).toContain(res.statusCode);
      expect(res.json().message).toBeTruthy();
    }
  });
});

describe('changeOrderStatus (used by the staff area)', () => {
  it('writes the history row with who, queues the status e-mail once per change, and ignores the same status', async () => {
    const { order } = await createOrder(t.app.ctx, orderInput() as any, { source: 'order-form', baseUrl: 'https://cards.example.test' });
    const { user } = await adminAgent(t.app);
    await readyForProduction(t.app, order.id);
    const r1 = await changeOrderStatus(t.app.ctx, order.id, 'in-production', { id: user.id, label: user.email });
    expect(r1.changed).toBe(true);
    expect(r1.order.status).toBe('in-production');
    const r2 = await changeOrderStatus(t.app.ctx, order.id, 'in-production', { id: user.id, label: user.email });
    expect(r2.changed).toBe(false);
    await t.app.ctx.db.insert(orderFulfilment).values({ orderId: order.id, carrier: 'usps', trackingNumber: '9400100000000000000000' });
    await changeOrderStatus(t.app.ctx, order.id, 'shipped', { label: 'staff' });

    const history = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, order.id)).orderBy(orderStatusHistory.id);
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.changedByLabel])).toEqual([
      [null, 'pending', 'customer'],
      ['pending', 'in-production', user.email],
      ['in-production', 'shipped', 'staff'],
    ]);
    expect(history[1].changedBy).toBe(user.id);

    const mails = await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, order.email)).orderBy(outbox.id);
    expect(mails.map((m) => m.kind)).toEqual(['order-received', 'order-status', 'order-status']);
    expect(mails[1].subject).toContain('in production');
    expect(mails[2].subject).toContain('have shipped');
    expect(mails[2].textBody).toContain(`https://cards.example.test/order-status/${order.statusToken}`);

    const view = (await t.app.inject({ method: 'GET', url: `/api/order-status/${order.statusToken}` })).json();
    expect(view.status).toBe('shipped');
    expect(view.history.map((h: any) => h.status)).toEqual(['pending', 'in-production', 'shipped']);
  });

  it('refuses unknown statuses (400) and unknown orders (404)', async () => {
    const { order } = await createOrder(t.app.ctx, orderInput() as any, { source: 'order-form', baseUrl: 'http://x.test' });
    await expect(changeOrderStatus(t.app.ctx, order.id, 'teleported', { label: 'x' })).rejects.toMatchObject({ statusCode: 400 });
    await expect(changeOrderStatus(t.app.ctx, 99_999_999, 'shipped', { label: 'x' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('createOrder joins the caller transaction: a rollback leaves no order and no e-mail', async () => {
    const input = orderInput();
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await createOrder(t.app.ctx, input as any, { tx, source: 'design', baseUrl: 'http://x.test' });
        throw new Error('design step failed');
      }),
    ).rejects.toThrow('design step failed');
    expect(await ordersFor(input.email)).toBe(0);
    expect(await mailsTo(input.email)).toBe(0);
  });
});
