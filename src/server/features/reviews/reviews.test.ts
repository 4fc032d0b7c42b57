import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orders, reviews } from '#server/db/schema/index';
import { priceOrder } from '#shared/catalogue';
import { PENDING_MESSAGE, PUBLISHED_MESSAGE } from '#shared/schemas/reviews';

let t: TestApp;
beforeAll(async () => {
  // TRUST_PROXY lets each test speak from its own address, so the 5/min limit is tested on purpose only
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 1;
/** An agent whose requests come from a fresh client address. */
function visitor() {
  const ip = `10.5.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;
  const a = new Agent(t.app);
  return {
    ip,
    post: (url: string, body: unknown) => a.post(url, body, { 'x-forwarded-for': ip }),
    get: (url: string) => a.get(url, { 'x-forwarded-for': ip }),
  };
}

let seq = 0;
function reviewInput(overrides: Record<string, unknown> = {}) {
  const n = `${Date.now().toString(36)}${seq++}`;
  return {
    customerName: 'Grace Hopper',
    email: `grace_${n}@example.com`,
    rating: 4,
    title: `Great cards ${n}`,
    comment: 'The brushed steel cards look fantastic and the QR works.',
    orderNumber: '',
    ...overrides,
  };
}

/** Each inserted order's status link token: the proof that verifies a review (issue 19). */
const tokens = new Map<number, string>();
async function insertOrder(email: string, status = 'pending') {
  const statusToken = crypto.randomBytes(16).toString('hex');
  const quote = priceOrder({ cardType: 'standard', deliveryOption: 'standard', quantity: 100 });
  const [row] = await t.app.ctx.db
    .insert(orders)
    .values({
      customerName: 'Grace Hopper',
      email,
      quantity: 100,
      cardType: 'standard',
      cardStyle: 'Matte',
      deliveryOption: 'standard',
      unitPriceCents: quote.unitPriceCents,
      deliveryFeeCents: quote.deliveryFeeCents,
      totalCents: quote.totalCents,
      priceSnapshot: quote,
      statusToken,
      status,
    })
    .returning({ id: orders.id });
  tokens.set(row!.id, statusToken);
  return row!.id;
}

const countReviews = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from reviews`)) as any).rows[0].n);
const publicList = async () => (await new Agent(t.app).get('/api/reviews')).json() as Array<Record<string, unknown>>;

describe('POST /api/reviews', () => {
  it('stores a review without an order unpublished: not in the public list', async () => {
    const v = visitor();
    const input = reviewInput();
    const res = await v.post('/api/reviews', input);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.published).toBe(false);
    expect(body.message).toBe(PENDING_MESSAGE);
    expect(body.review).toMatchObject({ customerName: 'Grace Hopper', rating: 4, title: input.title, verified: false });
    expect(JSON.stringify(body)).not.toContain(input.email);

    const [row] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.id, body.review.id));
    expect(row).toMatchObject({ email: input.email, verified: false, hidden: false, orderNumber: null });
    expect((await publicList()).some((r) => r.id === body.review.id)).toBe(false);
  });

  it("verifies at once with the order status link's token (issue 19: number and e-mail alone prove nothing)", async () => {
    const email = `buyer_${Date.now()}@example.com`;
    const orderId = await insertOrder(email);
    const res = await visitor().post('/api/reviews', reviewInput({ email: email.toUpperCase(), orderNumber: `#${orderId}`, orderToken: tokens.get(orderId), rating: 5 }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ published: true, message: PUBLISHED_MESSAGE, review: { verified: true, verification: 'purchase', rating: 5 } });
    const list = await publicList();
    const mine = list.find((r) => r.id === res.json().review.id);
    expect(mine).toBeDefined();
    expect(mine).not.toHaveProperty('email');
    expect(mine).not.toHaveProperty('orderNumber');

  });

  it('accepts a plain order number without #', async () => {
    const email = `plain_${Date.now()}@example.com`;
    const orderId = await insertOrder(email);
    const res = await visitor().post('/api/reviews', reviewInput({ email, orderNumber: String(orderId), orderToken: tokens.get(orderId) }));
    expect(res.json().published).toBe(true);
    const [row] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.id, res.json().review.id));
    expect(row!.orderNumber).toBe(`#${orderId}`);
    expect(row!.verifiedAt).toBeInstanceOf(Date);
  });

  it('does not verify with a wrong e-mail, an unknown order or a cancelled order', async () => {
    const email = `real_${Date.now()}@example.com`;
    const orderId = await insertOrder(email);
    const wrongEmail = await visitor().post('/api/reviews', reviewInput({ email: `someone_else_${Date.now()}@example.com`, orderNumber: `#${orderId}` }));
    expect(wrongEmail.json().published).toBe(false);
    const unknown = await visitor().post('/api/reviews', reviewInput({ email, orderNumber: `#${orderId + 100000}` }));
    expect(unknown.json().published).toBe(false);
    const huge = await visitor().post('/api/reviews', reviewInput({ email, orderNumber: '#9999999999' }));
    // beyond any order id: refused as not an order number
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors.orderNumber).toBe('Order number should look like #123');
    const cancelledEmail = `cancelled_${Date.now()}@example.com`;
    const cancelled = await insertOrder(cancelledEmail, 'cancelled');
    const c = await visitor().post('/api/reviews', reviewInput({ email: cancelledEmail, orderNumber: `#${cancelled}` }));
    expect(c.json().published).toBe(false);
    const ids = new Set((await publicList()).map((r) => r.id));
    for (const r of [wrongEmail, unknown, c]) expect(ids.has(r.json().review.id)).toBe(false);
  });

  it('lets one order verify only one review automatically', async () => {
    const email = `once_${Date.now()}@example.com`;
    const orderId = await insertOrder(email);
    const first = await visitor().post('/api/reviews', reviewInput({ email, orderNumber: `#${orderId}`, orderToken: tokens.get(orderId) }));
    const second = await visitor().post('/api/reviews', reviewInput({ email, orderNumber: `#${orderId}`, orderToken: tokens.get(orderId), title: 'Second opinion here' }));
    expect(first.json().published).toBe(true);
    expect(second.statusCode).toBe(201);
    expect(second.json().published).toBe(false);
  });

  it('answers a repeated identical submission with the stored review, never a second copy', async () => {
    const input = reviewInput();
    const before = await countReviews();
    const v = visitor();
    const burst = await Promise.all([1, 2, 3, 4].map(() => v.post('/api/reviews', input)));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(burst.map((r) => r.json().review.id)).size).toBe(1);
    const again = await v.post('/api/reviews', input);
    expect(again.statusCode).toBe(200);
    expect(again.json().review.id).toBe(burst[0]!.json().review.id);
    expect(await countReviews()).toBe(before + 1);
  });

  it('keeps HTML in a comment as plain text', async () => {
    const email = `html_${Date.now()}@example.com`;
    const orderId = await insertOrder(email);
    const comment = '<img src=x onerror=alert(1)><script>alert(2)</script> very nice';
    const res = await visitor().post('/api/reviews', reviewInput({ email, orderNumber: `#${orderId}`, orderToken: tokens.get(orderId), comment }));
    expect(res.statusCode).toBe(201);
    const item = (await publicList()).find((r) => r.id === res.json().review.id);
    expect(item!.comment).toBe(comment);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('trims fields and applies the default rating of 5', async () => {
    const input = reviewInput({ customerName: '  Ada  ', title: '  Lovely cards  ' });
    delete (input as Record<string, unknown>).rating;
    const res = await visitor().post('/api/reviews', input);
    expect(res.statusCode).toBe(201);
    expect(res.json().review).toMatchObject({ customerName: 'Ada', title: 'Lovely cards', rating: 5 });
  });
});

describe('POST /api/reviews validation', () => {
  const cases: Array<[string, Record<string, unknown>, string, string | RegExp]> = [
    ['short name', { customerName: 'A' }, 'customerName', 'Name must be at least 2 characters'],
    ['blank name', { customerName: '   ' }, 'customerName', 'Name must be at least 2 characters'],
    ['long name', { customerName: 'x'.repeat(101) }, 'customerName', /at most 100/],
    ['name with a newline', { customerName: 'Grace\nHopper' }, 'customerName', /single line/],
    ['bad e-mail', { email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    ['e-mail with CR/LF', { email: 'a@example.com\r\nBcc: x@example.com' }, 'email', 'Please enter a valid email address'],
    ['rating 0', { rating: 0 }, 'rating', 'Rating must be a whole number from 1 to 5'],
    ['rating 6', { rating: 6 }, 'rating', 'Rating must be a whole number from 1 to 5'],
    ['rating 3.5', { rating: 3.5 }, 'rating', 'Rating must be a whole number from 1 to 5'],
    ['rating "five"', { rating: 'five' }, 'rating', 'Rating must be a whole number from 1 to 5'],
    ['rating "5" (string)', { rating: '5' }, 'rating', 'Rating must be a whole number from 1 to 5'],
    ['rating null', { rating: null }, 'rating', 'Rating must be a whole number from 1 to 5'],
    ['short title', { title: 'Nice' }, 'title', 'Title must be at least 5 characters'],
    ['long title', { title: 't'.repeat(121) }, 'title', /at most 120/],
    ['short comment', { comment: 'Too short' }, 'comment', 'Review must be at least 10 characters'],
    ['long comment', { comment: 'c'.repeat(2001) }, 'comment', /at most 2000/],
    ['order number not a number', { orderNumber: 'ABC-12' }, 'orderNumber', 'Order number should look like #123'],
    ['long order number', { orderNumber: '1'.repeat(41) }, 'orderNumber', /at most 40/],
    ['unknown field', { verified: true }, 'verified', /Unknown field/],
  ];
  for (const [name, override, field, message] of cases) {
    it(`refuses ${name} with 400 and writes nothing`, async () => {
      const before = await countReviews();
      const res = await visitor().post('/api/reviews', reviewInput(override));
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(typeof body.message).toBe('string');
      if (typeof message === 'string') expect(body.errors[field]).toBe(message);
      else expect(body.errors[field]).toMatch(message);
      expect(await countReviews()).toBe(before);
    });
  }

  it('refuses a missing body, a non-JSON body and a foreign Origin', async () => {
    const before = await countReviews();
    const empty = await t.app.inject({ method: 'POST', url: '/api/reviews', headers: { 'x-forwarded-for': visitor().ip } });
    expect(empty.statusCode).toBeGreaterThanOrEqual(400);
    expect(empty.statusCode).toBeLessThan(500);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/reviews',
      headers: { 'content-type': 'text/plain', 'x-forwarded-for': visitor().ip },
      payload: JSON.stringify(reviewInput()),
    });
    expect([403, 415]).toContain(form.statusCode);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/reviews',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'x-forwarded-for': visitor().ip },
      payload: JSON.stringify(reviewInput()),
    });
    expect(foreign.statusCode).toBe(403);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/reviews',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor().ip },
      payload: '{"customerName": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(await countReviews()).toBe(before);
  });

  it('limits one address to 5 reviews a minute (429 with Retry-After, nothing stored)', async () => {
    const v = visitor();
    for (let i = 0; i < 5; i++) expect((await v.post('/api/reviews', reviewInput())).statusCode).toBe(201);
    const before = await countReviews();
    const limited = await v.post('/api/reviews', reviewInput());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/too many/i);
    expect(await countReviews()).toBe(before);
    // another address is not affected
    expect((await visitor().post('/api/reviews', reviewInput())).statusCode).toBe(201);
  });
});

describe('GET /api/reviews and the summary', () => {
  it('lists only verified, not hidden reviews, newest first, and averages them', async () => {
    const { agent: admin } = await adminAgent(t.app);
    const make = async (rating: number) => (await visitor().post('/api/reviews', reviewInput({ rating }))).json().review.id as number;
    const a = await make(5);
    const b = await make(2);
    const c = await make(4);
    expect((await admin.patch(`/api/admin/reviews/${a}`, { verified: true })).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/reviews/${b}`, { verified: true })).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/reviews/${b}`, { hidden: true })).statusCode).toBe(200);

    const list = await publicList();
    const ids = list.map((r) => r.id);
    expect(ids).toContain(a);
    expect(ids).not.toContain(b);
    expect(ids).not.toContain(c);
    for (const r of list) {
      expect(r.verified).toBe(true);
      expect(Object.keys(r).sort()).toEqual(['comment', 'createdAt', 'customerName', 'id', 'rating', 'title', 'verification', 'verified']);
    }
    const times = list.map((r) => Date.parse(String(r.createdAt)));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const expected = await t.app.ctx.db.execute(sql`select count(*)::int n, avg(rating)::float8 a from reviews where verified and not hidden`);
    const row = (expected as any).rows[0];
    const summary = (await new Agent(t.app).get('/api/reviews/summary')).json();
    expect(summary.count).toBe(row.n);
    expect(summary.average).toBe(Math.round(row.a * 10) / 10);
  });
});

describe('admin reviews', () => {
  it('refuses signed-out (401) and non-admin (403) callers', async () => {
    expect((await new Agent(t.app).get('/api/admin/reviews')).statusCode).toBe(401);
    expect((await new Agent(t.app).patch('/api/admin/reviews/1', { verified: true })).statusCode).toBe(401);
    const { agent } = await signedInAgent(t.app);
    expect((await agent.get('/api/admin/reviews')).statusCode).toBe(403);
    expect((await agent.patch('/api/admin/reviews/1', { verified: true })).statusCode).toBe(403);
  });

  it('lists every review with e-mail, state and the matched order; filters by status', async () => {
    const { agent: admin, user } = await adminAgent(t.app);
    const email = `adm_${Date.now()}@example.com`;
    const orderId = await insertOrder(email);
    const auto = (await visitor().post('/api/reviews', reviewInput({ email, orderNumber: `#${orderId}`, orderToken: tokens.get(orderId) }))).json().review.id;
    const pendingInput = reviewInput();
    const pending = (await visitor().post('/api/reviews', pendingInput)).json().review.id;

    const all = (await admin.get('/api/admin/reviews')).json() as Array<Record<string, any>>;
    const autoRow = all.find((r) => r.id === auto)!;
    expect(autoRow).toMatchObject({ email, orderNumber: `#${orderId}`, verified: true, verification: 'purchase', hidden: false, published: true, matchedOrderId: orderId, verifiedBy: null });
    const pendingRow = all.find((r) => r.id === pending)!;
    expect(pendingRow).toMatchObject({ email: pendingInput.email, verified: false, published: false, matchedOrderId: null, verifiedAt: null });

    const pendingOnly = (await admin.get('/api/admin/reviews?status=pending')).json() as Array<Record<string, any>>;
    expect(pendingOnly.every((r) => !r.verified && !r.hidden)).toBe(true);
    expect(pendingOnly.map((r) => r.id)).toContain(pending);
    expect(pendingOnly.map((r) => r.id)).not.toContain(auto);
    const publishedOnly = (await admin.get('/api/admin/reviews?status=published')).json() as Array<Record<string, any>>;
    expect(publishedOnly.map((r) => r.id)).toContain(auto);
    const bad = await admin.get('/api/admin/reviews?status=everything');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.status).toMatch(/Status must be one of/);

    const verified = await admin.patch(`/api/admin/reviews/${pending}`, { verified: true });
    expect(verified.statusCode).toBe(200);
    // approved by staff: told apart from a verified purchase, and stays so when staff leave
    expect(verified.json()).toMatchObject({ id: pending, verified: true, verification: 'staff', published: true, verifiedBy: user.id });
    expect(verified.json().verifiedAt).toEqual(expect.any(String));
    // the staff member's account gone (verified_by set null): still "approved by staff", never a purchase
    await t.app.ctx.db.update(reviews).set({ verifiedBy: null }).where(eq(reviews.id, pending));
    const listed = (await publicList()).find((r) => r.id === pending) as Record<string, unknown> | undefined;
    expect(listed).toMatchObject({ verified: true, verification: 'staff' });
    expect((await publicList()).find((r) => r.id === auto)).toMatchObject({ verification: 'purchase' });
  });

  it('moves a review from submitted to hidden to verified to visible', async () => {
    const { agent: admin } = await adminAgent(t.app);
    const id = (await visitor().post('/api/reviews', reviewInput())).json().review.id as number;
    const visible = async () => (await publicList()).some((r) => r.id === id);
    expect(await visible()).toBe(false);
    expect((await admin.patch(`/api/admin/reviews/${id}`, { hidden: true })).json()).toMatchObject({ hidden: true, published: false });
    expect(await visible()).toBe(false);
    expect((await admin.patch(`/api/admin/reviews/${id}`, { verified: true })).json()).toMatchObject({ verified: true, hidden: true, published: false });
    expect(await visible()).toBe(false);
    expect((await admin.patch(`/api/admin/reviews/${id}`, { hidden: false })).json()).toMatchObject({ published: true });
    expect(await visible()).toBe(true);
    // unverifying takes it down again and clears who verified it
    const un = await admin.patch(`/api/admin/reviews/${id}`, { verified: false });
    expect(un.json()).toMatchObject({ verified: false, verifiedAt: null, verifiedBy: null, published: false });
    expect(await visible()).toBe(false);
  });

  it('keeps the first verification time when verified twice', async () => {
    const { agent: admin } = await adminAgent(t.app);
    const id = (await visitor().post('/api/reviews', reviewInput())).json().review.id as number;
    const first = (await admin.patch(`/api/admin/reviews/${id}`, { verified: true })).json();
    const { agent: admin2 } = await adminAgent(t.app);
    const second = (await admin2.patch(`/api/admin/reviews/${id}`, { verified: true, hidden: false })).json();
    expect(second.verifiedAt).toBe(first.verifiedAt);
    expect(second.verifiedBy).toBe(first.verifiedBy);
  });

  it('validates the change and the id', async () => {
    const { agent: admin } = await adminAgent(t.app);
    const id = (await visitor().post('/api/reviews', reviewInput())).json().review.id as number;
    const empty = await admin.patch(`/api/admin/reviews/${id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/Nothing to change/);
    expect((await admin.patch(`/api/admin/reviews/${id}`, { verified: 'yes' })).statusCode).toBe(400);
    expect((await admin.patch(`/api/admin/reviews/${id}`, { hidden: true, rating: 1 })).statusCode).toBe(400);
    expect((await admin.patch('/api/admin/reviews/abc', { verified: true })).statusCode).toBe(400);
    expect((await admin.patch('/api/admin/reviews/99999999999', { verified: true })).statusCode).toBe(400);
    const missing = await admin.patch('/api/admin/reviews/2147483000', { verified: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Review not found');
    const [row] = await t.app.ctx.db.select().from(reviews).where(eq(reviews.id, id));
    expect(row).toMatchObject({ verified: false, hidden: false, rating: 4 });
  });
});
