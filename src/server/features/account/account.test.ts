import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent, userInput } from '#tests/helpers/factories';
import {
  cards,
  cardCodes,
  contactSaves,
  emailChanges,
  files,
  leads,
  linkClicks,
  orderStatusHistory,
  orders,
  outbox,
  passwordResets,
  profileLinks,
  profiles,
  sessions,
  users,
  visits,
} from '#server/db/schema/index';
import { sha256Hex } from '#server/infra/crypto';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';
import { deviceLabel } from './device-label';
import { startSmtpServer, waitFor } from '#tests/helpers/smtp-server';

let t: TestApp;
let ipSeq = 1;
/** A fresh client address per call site, so the per-IP limits of one test don't spill into another. */
const nextIp = () => {
  const n = ipSeq++;
  return `10.7.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
// accounts are made through the API from one address; its sign-up and login limits are not under test here
beforeEach(async () => {
  await t.app.ctx.db.execute(sql`delete from rate_limits where key like 'register:ip:%' or key like 'login:ip:%'`);
});

const db = () => t.app.ctx.db;

async function postFrom(ip: string, url: string, body: unknown, agent?: Agent) {
  const cookie = agent ? [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
  if (agent) {
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (c.value === '' || c.maxAge === 0) agent.cookies.delete(c.name);
      else agent.cookies.set(c.name, c.value);
    }
  }
  return res;
}

async function mailsTo(address: string, kind: string) {
  return db()
    .select()
    .from(outbox)
    .where(and(sql`lower(${outbox.toAddress}) = ${address.toLowerCase()}`, eq(outbox.kind, kind)))
    .orderBy(outbox.id);
}

function linkToken(body: string, page: 'reset-password' | 'confirm-email') {
  const m = body.match(new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`));
  if (!m) throw new Error(`no ${page} link in e-mail:\n${body}`);
  return m[1];
}

/** Asks for a reset link and returns the token from the e-mail that was queued. */
async function resetTokenFor(email: string) {
  const before = (await mailsTo(email, 'password-reset')).length;
  const res = await postFrom(nextIp(), '/api/auth/forgot-password', { email });
  expect(res.statusCode).toBe(200);
  const mails = await mailsTo(email, 'password-reset');
  expect(mails.length).toBe(before + 1);
  return linkToken(mails[mails.length - 1].textBody, 'reset-password');
}

async function canLogin(email: string, password: string) {
  const res = await postFrom(nextIp(), '/api/auth/login', { email, password });
  return res.statusCode === 200;
}

describe('forgot password', () => {
  it('answers the same for a known and an unknown address and only mails the known one', async () => {
    const { input } = await signedInAgent(t.app);
    const known = await postFrom(nextIp(), '/api/auth/forgot-password', { email: input.email.toUpperCase() });
    const unknown = await postFrom(nextIp(), '/api/auth/forgot-password', { email: `nobody_${Date.now()}@example.com` });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(ACCOUNT_MESSAGES.forgotSent);

    const mails = await mailsTo(input.email, 'password-reset');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/reset/i);
    expect(mails[0].htmlBody).toContain('/reset-password?token=');
    const unknownMails = await db().select().from(outbox).where(sql`${outbox.toAddress} like 'nobody_%'`);
    expect(unknownMails).toHaveLength(0);
  });

  it('stores only the hash of a random token that expires in an hour', async () => {
    const { user, input } = await signedInAgent(t.app);
    const token = await resetTokenFor(input.email);
    expect(token.length).toBeGreaterThanOrEqual(40);
    const rows = await db().select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const minutes = (rows[0].expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it('validates the address and writes nothing', async () => {
    const before = (await db().select().from(passwordResets)).length;
    for (const body of [{}, { email: 'not-an-email' }, { email: 42 }, { email: 'a@b.co', extra: 1 }, { email: 'a@b.co\r\nBcc: x@y.co' }]) {
      const res = await postFrom(nextIp(), '/api/auth/forgot-password', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toHaveProperty('message');
    }
    expect((await db().select().from(passwordResets)).length).toBe(before);
  });

  it('is throttled per IP (429 with Retry-After) and sends at most 3 e-mails per address an hour', async () => {
    const { input } = await signedInAgent(t.app);
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await postFrom(ip, '/api/auth/forgot-password', { email: input.email })).statusCode);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes[5]).toBe(429);
    const last = await postFrom(ip, '/api/auth/forgot-password', { email: input.email });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // five accepted answers, but only three e-mails: the rest were silently dropped
    expect(await mailsTo(input.email, 'password-reset')).toHaveLength(3);
  });
});

describe('reset password', () => {
  it('sets the new password, ends every other session and signs this browser in', async () => {
    const { agent: laptop, user, input } = await signedInAgent(t.app);
    const phone = new Agent(t.app);
    expect((await phone.post('/api/auth/login', { email: input.email, password: input.password })).statusCode).toBe(200);
    const token = await resetTokenFor(input.email);

    const browser = new Agent(t.app);
    const res = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'brand-new-pass', confirmPassword: 'brand-new-pass' }, browser);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.resetDone);
    expect(res.json().user).toMatchObject({ id: user.id, email: input.email });
    expect(res.json().user).not.toHaveProperty('passwordHash');

    expect((await laptop.get('/api/auth/user')).statusCode).toBe(401);
    expect((await phone.get('/api/auth/user')).statusCode).toBe(401);
    expect((await browser.get('/api/auth/user')).json().id).toBe(user.id);
    const live = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(live).toHaveLength(1);

    expect(await canLogin(input.email, input.password)).toBe(false);
    expect(await canLogin(input.email, 'brand-new-pass')).toBe(true);

    // a security notice goes to the account's address
    expect(await mailsTo(input.email, 'password-changed')).toHaveLength(1);
  });

  it('refuses a reused token', async () => {
    const { input } = await signedInAgent(t.app);
    const token = await resetTokenFor(input.email);
    const first = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'first-new-pass', confirmPassword: 'first-new-pass' });
    expect(first.statusCode).toBe(200);
    const again = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'second-new-pass', confirmPassword: 'second-new-pass' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(ACCOUNT_MESSAGES.resetInvalid);
    expect(again.json().errors.token).toBe(ACCOUNT_MESSAGES.resetInvalid);
    expect(await canLogin(input.email, 'first-new-pass')).toBe(true);
    expect(await canLogin(input.email, 'second-new-pass')).toBe(false);
  });

  it('refuses an expired token', async () => {
    const { user, input } = await signedInAgent(t.app);
    const token = await resetTokenFor(input.email);
    await db().update(passwordResets).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResets.userId, user.id));
    const res = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'late-new-pass', confirmPassword: 'late-new-pass' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.resetInvalid);
    expect(await canLogin(input.email, input.password)).toBe(true);
  });

  it('refuses an unknown token and a token of the wrong shape', async () => {
    for (const token of ['x'.repeat(43), 'not a token!', '', 'a'.repeat(500)]) {
      const res = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'whatever-1', confirmPassword: 'whatever-1' });
      expect(res.statusCode, token).toBe(400);
    }
  });

  it('applies the registration rules and spends nothing on a refused password', async () => {
    const { user, input } = await signedInAgent(t.app);
    const token = await resetTokenFor(input.email);
    const short = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'abc', confirmPassword: 'abc' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password).toBe('Password must be at least 6 characters long.');
    const mismatch = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'abcdefg', confirmPassword: 'abcdefh' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.confirmPassword).toBe("Passwords don't match");
    const [row] = await db().select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(row.usedAt).toBeNull();
    // the link still works afterwards
    const ok = await postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'abcdefg', confirmPassword: 'abcdefg' });
    expect(ok.statusCode).toBe(200);
  });

  it('kills the other links of the account once one is used', async () => {
    const { input } = await signedInAgent(t.app);
    const older = await resetTokenFor(input.email);
    const newer = await resetTokenFor(input.email);
    expect((await postFrom(nextIp(), '/api/auth/reset-password', { token: newer, password: 'newer-pass', confirmPassword: 'newer-pass' })).statusCode).toBe(200);
    expect((await postFrom(nextIp(), '/api/auth/reset-password', { token: older, password: 'older-pass', confirmPassword: 'older-pass' })).statusCode).toBe(400);
  });

  it('uses a token once even when two requests race', async () => {
    const { input } = await signedInAgent(t.app);
    const token = await resetTokenFor(input.email);
    const [a, b] = await Promise.all([
      postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'racer-one', confirmPassword: 'racer-one' }),
      postFrom(nextIp(), '/api/auth/reset-password', { token, password: 'racer-two', confirmPassword: 'racer-two' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
  });
});

describe('account settings', () => {
  it('all settings calls need a session', async () => {
    const anon = new Agent(t.app);
    expect((await anon.get('/api/account')).statusCode).toBe(401);
    expect((await anon.get('/api/account/sessions')).statusCode).toBe(401);
    expect((await anon.post('/api/account/sessions/revoke-others')).statusCode).toBe(401);
    expect((await anon.post('/api/account/password', { currentPassword: 'x', newPassword: 'yyyyyy', confirmPassword: 'yyyyyy' })).statusCode).toBe(401);
    expect((await anon.post('/api/account/email', { newEmail: 'a@b.co', currentPassword: 'x' })).statusCode).toBe(401);
    expect((await anon.get('/api/account/export')).statusCode).toBe(401);
    expect((await anon.request('DELETE', '/api/account', { password: 'x' })).statusCode).toBe(401);
  });

  it('changes the password with the current one and signs out the other devices', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const other = new Agent(t.app);
    await other.post('/api/auth/login', { email: input.email, password: input.password });

    const wrong = await agent.post('/api/account/password', { currentPassword: 'not-my-password', newPassword: 'changed-pass', confirmPassword: 'changed-pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.currentPassword).toBe(ACCOUNT_MESSAGES.wrongPassword);
    expect((await other.get('/api/auth/user')).statusCode).toBe(200);
    expect(await canLogin(input.email, input.password)).toBe(true);

    const mismatch = await agent.post('/api/account/password', { currentPassword: input.password, newPassword: 'changed-pass', confirmPassword: 'changed-pasS' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.confirmPassword).toBe("Passwords don't match");

    const ok = await agent.post('/api/account/password', { currentPassword: input.password, newPassword: 'changed-pass', confirmPassword: 'changed-pass' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(ACCOUNT_MESSAGES.passwordChanged);
    expect((await agent.get('/api/auth/user')).statusCode).toBe(200);
    expect((await other.get('/api/auth/user')).statusCode).toBe(401);
    expect(await canLogin(input.email, input.password)).toBe(false);
    expect(await canLogin(input.email, 'changed-pass')).toBe(true);
    expect(await mailsTo(input.email, 'password-changed')).toHaveLength(1);
    void user;
  });

  it('limits guesses at the current password', async () => {
    const { agent } = await signedInAgent(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      codes.push((await agent.post('/api/account/password', { currentPassword: `guess-${i}`, newPassword: 'changed-pass', confirmPassword: 'changed-pass' })).statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 400)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('lists live sessions and signs out everywhere else', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const phone = new Agent(t.app);
    await phone.post('/api/auth/login', { email: input.email, password: input.password }, {
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });
    // an expired session of the account is not listed
    await db().insert(sessions).values({ id: `expired-${user.id}`, userId: user.id, expiresAt: new Date(Date.now() - 1000) });
    const stranger = await signedInAgent(t.app);

    const list = await agent.get('/api/account/sessions');
    expect(list.statusCode).toBe(200);
    const items = list.json().sessions as Array<{ id: string; current: boolean; device: string; lastSeenAt: string }>;
    expect(items).toHaveLength(2);
    expect(items[0].current).toBe(true);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    expect(items.map((s) => s.device)).toContain('Safari on iOS');
    // neither the cookie nor its stored hash leaves the server
    const stored = await db().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    for (const s of stored) expect(list.body).not.toContain(s.id);
    expect(list.body).not.toContain(agent.cookies.get('sid')!);

    const revoke = await agent.post('/api/account/sessions/revoke-others');
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().message).toBe(ACCOUNT_MESSAGES.sessionsEnded);
    expect((await phone.get('/api/auth/user')).statusCode).toBe(401);
    expect((await agent.get('/api/auth/user')).statusCode).toBe(200);
    expect((await agent.get('/api/account/sessions')).json().sessions).toHaveLength(1);
    // another account's sessions are untouched
    expect((await stranger.agent.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('changes the e-mail only after the new address confirms it', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const newEmail = `moved_${Date.now()}@example.com`;

    const wrong = await agent.post('/api/account/email', { newEmail, currentPassword: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.currentPassword).toBe(ACCOUNT_MESSAGES.wrongPassword);
    expect(await mailsTo(newEmail, 'email-change')).toHaveLength(0);

    const same = await agent.post('/api/account/email', { newEmail: input.email.toUpperCase(), currentPassword: input.password });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors.newEmail).toBe(ACCOUNT_MESSAGES.emailSame);

    const other = await signedInAgent(t.app);
    const taken = await agent.post('/api/account/email', { newEmail: other.input.email, currentPassword: input.password });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.newEmail).toBe(ACCOUNT_MESSAGES.emailTaken);

    const bad = await agent.post('/api/account/email', { newEmail: 'nope', currentPassword: input.password });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.newEmail).toBe('Please enter a valid email address');

    const ok = await agent.post('/api/account/email', { newEmail, currentPassword: input.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangeSent, pendingEmail: newEmail });
    // not yet in effect
    expect((await agent.get('/api/auth/user')).json().email).toBe(input.email);
    expect((await agent.get('/api/account')).json().pendingEmail).toBe(newEmail);
    // the old address is told, the new one gets the link
    expect(await mailsTo(input.email, 'email-change-notice')).toHaveLength(1);
    const [mail] = await mailsTo(newEmail, 'email-change');
    const token = linkToken(mail.textBody, 'confirm-email');
    const [row] = await db().select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(row.tokenHash).toBe(sha256Hex(token));

    // the link works from a signed-out browser too
    const confirm = await postFrom(nextIp(), '/api/account/email/confirm', { token });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChanged, email: newEmail });
    expect((await agent.get('/api/auth/user')).json().email).toBe(newEmail);
    expect((await agent.get('/api/account')).json().pendingEmail).toBeNull();
    expect(await canLogin(newEmail, input.password)).toBe(true);
    expect(await canLogin(input.email, input.password)).toBe(false);

    // used once
    const again = await postFrom(nextIp(), '/api/account/email/confirm', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(ACCOUNT_MESSAGES.emailLinkInvalid);

    // the old address is free for a new account
    expect((await new Agent(t.app).post('/api/auth/register', userInput({ email: input.email }))).statusCode).toBe(201);
  });

  it('refuses an expired e-mail link, and a link whose address was taken meanwhile', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const first = `late_${Date.now()}@example.com`;
    await agent.post('/api/account/email', { newEmail: first, currentPassword: input.password });
    const lateToken = linkToken((await mailsTo(first, 'email-change'))[0].textBody, 'confirm-email');
    await db().update(emailChanges).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(emailChanges.userId, user.id));
    const late = await postFrom(nextIp(), '/api/account/email/confirm', { token: lateToken });
    expect(late.statusCode).toBe(400);
    expect((await agent.get('/api/auth/user')).json().email).toBe(input.email);

    const second = `raced_${Date.now()}@example.com`;
    await agent.post('/api/account/email', { newEmail: second, currentPassword: input.password });
    const token = linkToken((await mailsTo(second, 'email-change'))[0].textBody, 'confirm-email');
    expect((await new Agent(t.app).post('/api/auth/register', userInput({ email: second }))).statusCode).toBe(201);
    const taken = await postFrom(nextIp(), '/api/account/email/confirm', { token });
    expect(taken.statusCode).toBe(409);
    expect((await agent.get('/api/auth/user')).json().email).toBe(input.email);
  });

  it('a newer e-mail change request replaces the older link', async () => {
    const { agent, input } = await signedInAgent(t.app);
    const a = `first_${Date.now()}@example.com`;
    const b = `second_${Date.now()}@example.com`;
    await agent.post('/api/account/email', { newEmail: a, currentPassword: input.password });
    await agent.post('/api/account/email', { newEmail: b, currentPassword: input.password });
    const tokenA = linkToken((await mailsTo(a, 'email-change'))[0].textBody, 'confirm-email');
    expect((await postFrom(nextIp(), '/api/account/email/confirm', { token: tokenA })).statusCode).toBe(400);
    expect((await agent.get('/api/account')).json().pendingEmail).toBe(b);
  });
});

// ----------------------------------------------------------------------------------------------
// Your data: export and delete

let orderSeq = 0;
/** Gives an account the full set of data the product can hold (profile, links, files, cards, orders, stats, leads). */
async function fillAccount(userId: string, email: string) {
  const d = db();
  const profileId = `p${userId.slice(0, 8)}${orderSeq++}`;
  await d.insert(profiles).values({
    id: profileId,
    userId,
    fullName: 'Grace Hopper',
    jobTitle: 'Rear Admiral',
    email,
    phoneNumber: '+1 212 555 0100',
    address: '1 Navy Way, Arlington',
    companyName: 'US Navy',
  });
  await d.insert(profileLinks).values([
    { profileId, linkType: 'website', url: 'https://grace.example.com', position: 0 },
    { profileId, linkType: 'github', url: 'https://github.com/grace', position: 1 },
  ]);
  const key = `uploads/test/${profileId}-photo.webp`;
  const bytes = Buffer.from(`fake image bytes of ${profileId}`);
  await t.app.ctx.storage.put(key, bytes, 'image/webp');
  await d.insert(files).values({ userId, kind: 'profile-image', key, mimeType: 'image/webp', size: bytes.length, width: 10, height: 10 });
  await d.update(profiles).set({ customPhotoUrl: `/files/${key}` }).where(eq(profiles.id, profileId));
  // artwork uploaded before signing in, then used (with its upload token) in the account's order:
  // the order made the account its owner (issue 19)
  const artworkKey = `artwork/test/${profileId}-logo.png`;
  await t.app.ctx.storage.put(artworkKey, Buffer.from('logo'), 'image/png');
  await d.insert(files).values({ userId, kind: 'artwork', key: artworkKey, mimeType: 'image/png', size: 4 });
  const [order] = await d
    .insert(orders)
    .values({
      userId,
      customerName: 'Grace Hopper',
      email,
      phone: '+1 212 555 0100',
      companyName: 'US Navy',
      position: 'Rear Admiral',
      address: '1 Navy Way, Arlington',
      quantity: 100,
      cardType: 'luxury_titanium',
      cardStyle: 'Brushed',
      deliveryOption: 'standard',
      specialRequests: 'Engrave my initials GH',
      artworkUrl: `/files/${artworkKey}`,
      unitPriceCents: 900,
      deliveryFeeCents: 0,
      totalCents: 90000,
      priceSnapshot: { unitPriceCents: 900 },
      statusToken: `tok-${profileId}`,
      idempotencyKey: `idem-${profileId}`,
      internalNotes: 'staff only: VIP',
      source: 'design',
    })
    .returning();
  await d.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: null, toStatus: 'pending' });
  const [card] = await d
    .insert(cards)
    .values({ userId, profileId, templateId: 17, customerProfile: { fullName: 'Grace Hopper', email }, orderId: order.id })
    .returning();
  await d.insert(cardCodes).values({ code: `c${profileId}`, profileId, orderId: order.id, label: 'First batch' });
  await d.insert(visits).values([
    { profileId, userAgent: 'UA one', device: 'Mobile', source: 'card' },
    { profileId, userAgent: 'UA two', device: 'Desktop', source: 'link' },
    { profileId, userAgent: 'UA three', device: 'Mobile', source: 'direct' },
  ]);
  await d.insert(linkClicks).values([{ profileId, linkType: 'website' }, { profileId, linkType: 'github' }]);
  await d.insert(contactSaves).values([{ profileId }]);
  await d.insert(leads).values({ profileId, name: 'Alan Turing', email: 'alan@example.com', consent: true, note: 'Met at the conference' });
  return { profileId, key, bytes, artworkKey, orderId: order.id, cardId: card.id };
}

describe('export', () => {
  it('downloads everything about the account as one JSON file, and nothing of anyone else', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const mine = await fillAccount(user.id, input.email);
    const stranger = await signedInAgent(t.app);
    const theirs = await fillAccount(stranger.user.id, stranger.input.email);

    const res = await agent.get('/api/account/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="metal-cards-account-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();

    expect(data.format).toBe('metal-cards-account-export');
    expect(data.user).toMatchObject({ id: user.id, email: input.email, username: input.username, firstName: 'Ada' });
    expect(data.profile).toMatchObject({ id: mine.profileId, fullName: 'Grace Hopper', phoneNumber: '+1 212 555 0100' });
    expect(data.links.map((l: any) => l.url)).toEqual(['https://grace.example.com', 'https://github.com/grace']);
    // the photo and the artwork the account's order made its own (issue 19), nobody else's
    expect(data.files.map((f: any) => f.key).sort()).toEqual([mine.key, mine.artworkKey].sort());
    const photo = data.files.find((f: any) => f.key === mine.key);
    expect(photo).toMatchObject({ key: mine.key, mimeType: 'image/webp', kind: 'profile-image' });
    expect(photo.url).toMatch(new RegExp(`^https?://[^/]+/files/${mine.key}$`));
    expect(Buffer.from(photo.dataBase64, 'base64').equals(mine.bytes)).toBe(true);
    expect(data.cards).toHaveLength(1);
    expect(data.cards[0]).toMatchObject({ id: mine.cardId, templateId: 17 });
    expect(data.cardCodes.map((c: any) => c.code)).toEqual([`c${mine.profileId}`]);
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({ id: mine.orderId, customerName: 'Grace Hopper', specialRequests: 'Engrave my initials GH', totalCents: 90000 });
    expect(data.orders[0].statusUrl).toMatch(new RegExp(`/order-status/tok-${mine.profileId}$`));
    expect(data.orders[0].statusHistory.map((h: any) => h.toStatus)).toEqual(['pending']);
    expect(data.visits.map((v: any) => v.userAgent)).toEqual(['UA one', 'UA two', 'UA three']);
    expect(data.linkClicks).toHaveLength(2);
    expect(data.contactSaves).toHaveLength(1);
    expect(data.leads).toHaveLength(1);
    expect(data.leads[0]).toMatchObject({ name: 'Alan Turing', email: 'alan@example.com' });
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0].current).toBe(true);

    // secrets and staff-only data stay on the server
    expect(res.body).not.toContain('passwordHash');
    expect(res.body).not.toContain('password_hash');
    expect(res.body).not.toContain('staff only: VIP');
    expect(res.body).not.toContain(`idem-${mine.profileId}`);
    // nothing of the other account
    expect(res.body).not.toContain(theirs.profileId);
    expect(res.body).not.toContain(stranger.input.email);
  });

  it('exports an account without a profile', async () => {
    const { agent } = await signedInAgent(t.app);
    const data = (await agent.get('/api/account/export')).json();
    expect(data.profile).toBeNull();
    for (const k of ['links', 'files', 'cards', 'orders', 'visits', 'linkClicks', 'contactSaves', 'leads']) expect(data[k], k).toEqual([]);
  });

  it('pages through large statistics', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const { profileId } = await fillAccount(user.id, input.email);
    await db().execute(sql`insert into visits (profile_id, device) select ${profileId}, 'Mobile' from generate_series(1, 4500)`);
    const data = (await agent.get('/api/account/export')).json();
    expect(data.visits).toHaveLength(4503);
    const ids = data.visits.map((v: any) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('delete account', () => {
  it('refuses a wrong password and deletes nothing', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const mine = await fillAccount(user.id, input.email);
    const res = await agent.request('DELETE', '/api/account', { password: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.password).toBe(ACCOUNT_MESSAGES.wrongPassword);
    const missing = await agent.request('DELETE', '/api/account', {});
    expect(missing.statusCode).toBe(400);
    const noBody = await agent.delete('/api/account');
    expect(noBody.statusCode).toBe(400);
    expect((await db().select().from(users).where(eq(users.id, user.id))).length).toBe(1);
    expect((await db().select().from(profiles).where(eq(profiles.id, mine.profileId))).length).toBe(1);
    expect(await t.app.ctx.storage.get(mine.key)).not.toBeNull();
    expect((await agent.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('removes the profile and personal data, keeps orders anonymized, ends every session, frees the e-mail', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const phone = new Agent(t.app);
    await phone.post('/api/auth/login', { email: input.email, password: input.password });
    const mine = await fillAccount(user.id, input.email);
    await resetTokenFor(input.email);
    const stranger = await signedInAgent(t.app);
    const theirs = await fillAccount(stranger.user.id, stranger.input.email);
    const oldCookie = agent.cookies.get('sid')!;

    const res = await agent.request('DELETE', '/api/account', { password: input.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.accountDeleted);

    // every session is dead, including a replay of the old cookie
    expect((await agent.get('/api/auth/user')).statusCode).toBe(401);
    expect((await phone.get('/api/auth/user')).statusCode).toBe(401);
    const replay = new Agent(t.app);
    replay.cookies.set('sid', oldCookie);
    expect((await replay.get('/api/auth/user')).statusCode).toBe(401);
    expect((await replay.get('/api/account/export')).statusCode).toBe(401);
    expect(await canLogin(input.email, input.password)).toBe(false);

    // personal data gone
    expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await db().select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toHaveLength(0);
    expect(await db().select().from(profiles).where(eq(profiles.id, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(profileLinks).where(eq(profileLinks.profileId, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(visits).where(eq(visits.profileId, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(linkClicks).where(eq(linkClicks.profileId, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(contactSaves).where(eq(contactSaves.profileId, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(leads).where(eq(leads.profileId, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(cardCodes).where(eq(cardCodes.profileId, mine.profileId))).toHaveLength(0);
    expect(await db().select().from(cards).where(eq(cards.id, mine.cardId))).toHaveLength(0);
    expect(await db().select().from(files).where(eq(files.key, mine.key))).toHaveLength(0);
    expect(await t.app.ctx.storage.get(mine.key)).toBeNull();
    expect(await db().select().from(files).where(eq(files.key, mine.artworkKey))).toHaveLength(0);
    expect(await t.app.ctx.storage.get(mine.artworkKey)).toBeNull();

    // the order stays for the books, without the customer
    const [order] = await db().select().from(orders).where(eq(orders.id, mine.orderId));
    expect(order).toBeDefined();
    expect(order.anonymizedAt).toBeInstanceOf(Date);
    expect(order.userId).toBeNull();
    expect(order.customerName).toBe('Deleted customer');
    expect(order.email).toBe('');
    for (const f of ['phone', 'companyName', 'position', 'address', 'specialRequests', 'artworkUrl', 'checkoutUrl', 'idempotencyKey'] as const) {
      expect(order[f], f).toBeNull();
    }
    expect(order.statusToken).not.toBe(`tok-${mine.profileId}`);
    expect(order).toMatchObject({ quantity: 100, cardType: 'luxury_titanium', totalCents: 90000, status: 'pending' });
    expect(JSON.stringify(order)).not.toContain('Grace');
    expect(JSON.stringify(order)).not.toContain(input.email);
    expect(await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, mine.orderId))).toHaveLength(1);

    // a goodbye e-mail is queued
    expect(await mailsTo(input.email, 'account-deleted')).toHaveLength(1);

    // the other account is untouched
    expect(await db().select().from(profiles).where(eq(profiles.id, theirs.profileId))).toHaveLength(1);
    expect(await db().select().from(visits).where(eq(visits.profileId, theirs.profileId))).toHaveLength(3);
    const [theirOrder] = await db().select().from(orders).where(eq(orders.id, theirs.orderId));
    expect(theirOrder).toMatchObject({ customerName: 'Grace Hopper', email: stranger.input.email, anonymizedAt: null });
    expect(await t.app.ctx.storage.get(theirs.key)).not.toBeNull();
    expect(await t.app.ctx.storage.get(theirs.artworkKey)).not.toBeNull();
    expect(await db().select().from(files).where(eq(files.key, theirs.artworkKey))).toHaveLength(1);
    expect((await stranger.agent.get('/api/auth/user')).statusCode).toBe(200);

    // the e-mail (and username) can register again, as a brand-new account
    const again = await new Agent(t.app).post('/api/auth/register', userInput({ email: input.email.toUpperCase(), username: input.username }));
    expect(again.statusCode).toBe(201);
    expect(again.json().id).not.toBe(user.id);
    const fresh = await new Agent(t.app);
    await fresh.post('/api/auth/login', { email: input.email, password: 'correct-horse-1' });
    const exported = (await fresh.get('/api/account/export')).json();
    expect(exported.orders).toEqual([]);
    expect(exported.profile).toBeNull();
  });

  it('the public profile (already cached) answers 404 right after deletion', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const { profileId } = await fillAccount(user.id, input.email);
    const before = await t.app.inject({ method: 'GET', url: `/api/p/${profileId}` });
    expect(before.statusCode).toBe(200);
    expect(before.json().fullName).toBe('Grace Hopper');
    expect((await t.app.inject({ method: 'GET', url: `/p/${profileId}` })).statusCode).toBe(200);
    expect((await agent.request('DELETE', '/api/account', { password: input.password })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/p/${profileId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/p/${profileId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/vcard/${profileId}` })).statusCode).toBe(404);
  });
});

describe('bad input never gives 500 and writes nothing', () => {
  const routes: Array<[string, string]> = [
    ['POST', '/api/auth/forgot-password'],
    ['POST', '/api/auth/reset-password'],
    ['POST', '/api/account/password'],
    ['POST', '/api/account/email'],
    ['POST', '/api/account/email/confirm'],
    ['DELETE', '/api/account'],
  ];
  const payloads: Array<[string, string, string]> = [
    ['malformed JSON', '{"token": ', 'application/json'],
    ['array body', '[1,2,3]', 'application/json'],
    ['null body', 'null', 'application/json'],
    ['wrong types', '{"token":1,"password":[],"email":{},"newEmail":true,"currentPassword":null,"newPassword":2}', 'application/json'],
    ['extra field', '{"token":"abc","password":"secret-1","confirmPassword":"secret-1","role":"admin"}', 'application/json'],
    ['form post', 'token=abc', 'application/x-www-form-urlencoded'],
  ];
  for (const [method, url] of routes) {
    for (const [name, payload, type] of payloads) {
      it(`${method} ${url}: ${name}`, async () => {
        const { agent, user } = await signedInAgent(t.app);
        const cookie = `sid=${agent.cookies.get('sid')}`;
        const res = await t.app.inject({ method: method as any, url, payload, remoteAddress: nextIp(), headers: { 'content-type': type, cookie } });
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json()).toHaveProperty('message');
        expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
        expect(await db().select().from(emailChanges).where(eq(emailChanges.userId, user.id))).toHaveLength(0);
      });
    }
  }

  it('refuses a cross-site delete', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const res = await agent.request('DELETE', '/api/account', { password: input.password }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
  });
});

describe('reset e-mail over SMTP (a real smtp-server on 127.0.0.1)', () => {
  it('delivers the link on PUBLIC_URL (never the Host header), and the link resets the password', async () => {
    const smtp = await startSmtpServer();
    const s = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://cards.example.test' } });
    try {
      const { input } = await signedInAgent(s.app);
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: { 'content-type': 'application/json', host: 'evil.example' },
        payload: JSON.stringify({ email: input.email }),
      });
      expect(res.statusCode).toBe(200);
      const mail = await waitFor(() => smtp.messages.find((m) => m.to.includes(input.email) && /reset/i.test(m.subject ?? '')), 'the reset e-mail');
      const text = mail.part('text/plain')!;
      const html = mail.part('text/html')!;
      const m = text.match(/https:\/\/cards\.example\.test\/reset-password\?token=([A-Za-z0-9_-]+)/);
      expect(m, text).not.toBeNull();
      expect(html).toContain(`href="https://cards.example.test/reset-password?token=${m![1]}"`);
      expect(text + html).not.toContain('evil.example');
      const reset = await new Agent(s.app).post('/api/auth/reset-password', { token: m![1], password: 'mailed-pass-1', confirmPassword: 'mailed-pass-1' });
      expect(reset.statusCode).toBe(200);
      const notice = await waitFor(() => smtp.messages.find((x) => x.to.includes(input.email) && /password was changed/i.test(x.subject ?? '')), 'the password-changed notice');
      expect(notice.part('text/plain')).toContain('was just reset');
    } finally {
      await s.close();
      await smtp.close();
    }
  });
});

describe('device labels', () => {
  it('names common browsers and systems', () => {
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36')).toBe('Chrome on Windows');
    expect(deviceLabel('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('Safari on macOS');
    expect(deviceLabel('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(deviceLabel('Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0')).toBe('Firefox on Linux');
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0')).toBe('Edge on Windows');
    expect(deviceLabel('')).toBe('Unknown device');
  });
});
