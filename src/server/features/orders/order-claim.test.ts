import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { countRows, orderInput } from '#tests/helpers/orders';
import { cardCodes, orders, outbox, profiles, users } from '#server/db/schema/index';
import { CLAIM_MESSAGES } from '#shared/schemas/orders';
import { orderBatchQrText } from '#server/features/engagement/public-api';

const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

/** A visitor's order and the claim link from its e-mail. */
async function visitorOrder(over: Record<string, unknown> = {}) {
  const input = orderInput(over);
  const res = await new Agent(t.app).post('/api/order', input);
  expect(res.statusCode, res.body).toBe(201);
  const orderId = res.json().orderId as number;
  const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, `order-received:${orderId}`));
  const m = /https:\/\/cards\.example\.test\/claim\/([A-Za-z0-9_-]+)/.exec(mail.textBody);
  expect(m, 'the order e-mail carries a claim link').not.toBeNull();
  return { orderId, input, token: m![1] };
}

const codeOf = async (orderId: number) => (await t.app.ctx.db.select().from(cardCodes).where(eq(cardCodes.orderId, orderId)))[0];

describe('a visitor order gets its QR at once and is claimed from the e-mail', () => {
  it('the code exists at order time; its production QR is the code; the claim builds account, profile and link', async () => {
    const { orderId, input, token } = await visitorOrder();
    const code = await codeOf(orderId);
    expect(code.profileId).toBeNull();
    expect(await orderBatchQrText(t.app.ctx, orderId, ORIGIN)).toBe(`HTTPS://CARDS.EXAMPLE.TEST/C/${code.code}`);
    // before the claim the scan invites, naming no one
    const before = await t.app.inject({ method: 'GET', url: `/c/${code.code}` });
    expect(before.statusCode).toBe(200);
    expect(before.body).not.toContain(input.customerName);

    const view = await new Agent(t.app).get(`/api/orders/claim/${token}`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ orderId, customerName: input.customerName, email: input.email, accountExists: false });

    const visitor = new Agent(t.app);
    const noPassword = await visitor.post('/api/orders/claim', { token });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().errors.password).toBe(CLAIM_MESSAGES.passwordRequired);
    const common = await visitor.post('/api/orders/claim', { token, password: 'password', confirmPassword: 'password' });
    expect(common.statusCode).toBe(400);
    expect(await countRows(t.app, 'orders', eq(orders.id, orderId) as never)).toBe(1);

    const claimed = await visitor.post('/api/orders/claim', { token, password: 'silver-anvil-72', confirmPassword: 'silver-anvil-72' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const body = claimed.json();
    expect(body).toMatchObject({ orderId, accountCreated: true, user: { email: input.email, emailVerified: true } });
    // signed in now, with a profile built from the order
    const me = await visitor.get('/api/auth/user');
    expect(me.json().email).toBe(input.email);
    const [profile] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.id, body.profileId));
    expect(profile).toMatchObject({ fullName: input.customerName, companyName: input.companyName, jobTitle: input.position, email: input.email });
    // the card code opens it
    expect((await codeOf(orderId)).profileId).toBe(body.profileId);
    const after = await t.app.inject({ method: 'GET', url: `/c/${code.code}` });
    expect(after.statusCode).toBe(302);
    expect(after.headers.location).toBe(`/p/${body.profileId}?src=card&code=${code.code}`);
    // no verification e-mail for an address the claim already proved
    const [u] = await t.app.ctx.db.select().from(users).where(eq(users.email, input.email));
    expect(await countRows(t.app, 'outbox', and(eq(outbox.toAddress, input.email), eq(outbox.kind, 'verify-email')) as never)).toBe(0);
    expect(u.emailVerifiedAt).not.toBeNull();

    // single use
    const again = await new Agent(t.app).post('/api/orders/claim', { token, password: 'silver-anvil-72', confirmPassword: 'silver-anvil-72' });
    expect(again.statusCode).toBe(400);
    expect((await new Agent(t.app).get(`/api/orders/claim/${token}`)).statusCode).toBe(400);

    // My orders shows it, with the card link and no longer waiting
    const mine = await visitor.get('/api/orders/mine');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().orders).toHaveLength(1);
    expect(mine.json().orders[0]).toMatchObject({ id: orderId, waitsForProfile: false, cardLink: `${ORIGIN}/c/${code.code}` });
  });

  it('signed in, one press attaches the order to the account; an existing address must sign in first', async () => {
    const s = await signedInAgent(t.app);
    const { orderId, token } = await visitorOrder({ email: s.input.email });
    const signedOut = await new Agent(t.app).post('/api/orders/claim', { token, password: 'silver-anvil-72', confirmPassword: 'silver-anvil-72' });
    expect(signedOut.statusCode).toBe(409);
    expect(signedOut.json().errors.email).toBe(CLAIM_MESSAGES.accountExists);
    expect((await new Agent(t.app).get(`/api/orders/claim/${token}`)).json().accountExists).toBe(true);

    const res = await s.agent.post('/api/orders/claim', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orderId, accountCreated: false, user: { id: s.user.id, emailVerified: true } });
    const [o] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(o.userId).toBe(s.user.id);
    expect(o.claimTokenHash).toBeNull();
  });

  it('a wrong or malformed token: 400 with the message, nothing written', async () => {
    for (const token of ['x', 'a'.repeat(43), '../../etc']) {
      const res = await new Agent(t.app).post('/api/orders/claim', { token, password: 'silver-anvil-72', confirmPassword: 'silver-anvil-72' });
      expect(res.statusCode, token).toBe(400);
    }
    expect((await new Agent(t.app).get('/api/orders/claim/not-a-real-claim-token-at-all')).statusCode).toBe(400);
  });

  it('orders placed signed out with a verified address join the account at sign-in and in My orders', async () => {
    const s = await signedInAgent(t.app);
    await t.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, s.user.id));
    const { orderId } = await visitorOrder({ email: s.input.email.toUpperCase() });
    const other = await visitorOrder();
    const login = await new Agent(t.app).post('/api/auth/login', { email: s.input.email, password: s.input.password });
    expect(login.statusCode).toBe(200);
    const [o] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(o.userId).toBe(s.user.id);
    const mine = (await s.agent.get('/api/orders/mine')).json().orders.map((x: { id: number }) => x.id);
    expect(mine).toContain(orderId);
    expect(mine).not.toContain(other.orderId);
  });

  it('an unverified account does not gather orders by address; My orders is for signed-in users only', async () => {
    const s = await signedInAgent(t.app);
    const { orderId } = await visitorOrder({ email: s.input.email });
    expect((await s.agent.get('/api/orders/mine')).json().orders).toEqual([]);
    const [o] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(o.userId).toBeNull();
    expect((await new Agent(t.app).get('/api/orders/mine')).statusCode).toBe(401);
  });

  it('staff are e-mailed about each new order (every admin by default) and see which orders wait for a profile', async () => {
    const admin = await adminAgent(t.app);
    const { orderId } = await visitorOrder();
    const notices = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.kind, 'staff-new-order'), eq(outbox.toAddress, admin.user.email)));
    expect(notices.map((n) => n.subject).join('\n')).toContain(`New order #${orderId}`);
    const list = await admin.agent.get('/api/admin/orders');
    expect(list.statusCode).toBe(200);
    const row = (list.json().orders as Array<{ id: number; waitsForProfile?: boolean }>).find((r) => r.id === orderId);
    expect(row?.waitsForProfile).toBe(true);
  });
});
