import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { insertOrder } from '#tests/helpers/admin-factories';
import { SoftAuthenticator } from '#tests/helpers/soft-authenticator';
import { sessions, totpFactors } from '#server/db/schema/auth';
import { identityEvents, templates } from '#server/db/schema/index';
import { RECENT_AUTH_REQUIRED, TWO_FACTOR_MESSAGES, TWO_FACTOR_SETUP_REQUIRED } from '#shared/schemas/auth';
import { base32Decode, base32Encode, matchTotp, totpCode, totpStep } from './totp';
import { openSecret } from './secret-box';

/**
 * Passkeys and two-factor sign-in (issue 39, decision 39-01): the TOTP set-up and sign-in with
 * wrong, replayed and recovery codes, the attempt limits, the staff guard (STAFF_TWO_FACTOR=required),
 * recent-auth on sensitive staff actions, and passkeys made and used by a software authenticator
 * (real WebAuthn verification on the server).
 */
let t: TestApp;
// app.inject's requests come to http://localhost (no PUBLIC_URL): the relying party is localhost
const ORIGIN = 'http://localhost';
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'required' } });
});
afterAll(async () => {
  await t?.close();
});

const codeAt = (secret: string, delta = 0) => totpCode(secret, totpStep() + delta);
const sessionCount = async (userId: string) => (await t.app.ctx.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

/** Turns TOTP on for a signed-in agent; answers the secret and the recovery codes. */
async function enableTotp(agent: Agent) {
  const setup = await agent.post('/api/account/two-factor/totp');
  expect(setup.statusCode).toBe(200);
  const { secret, otpauthUrl } = setup.json();
  // the step the set-up spends: a later test replays exactly this code (a 30-second boundary may
  // pass between the set-up and the replay; "the code of now" would then be a fresh one)
  const setupStep = totpStep();
  const confirm = await agent.post('/api/account/two-factor/totp/confirm', { code: totpCode(secret, setupStep) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { secret, setupStep, otpauthUrl: otpauthUrl as string, recoveryCodes: confirm.json().recoveryCodes as string[] };
}

async function passwordLogin(email: string, password: string) {
  const a = new Agent(t.app);
  const res = await a.post('/api/auth/login', { email, password });
  return { a, res };
}

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vectors (last six digits)', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret).toString()).toBe('12345678901234567890');
    for (const [time, code] of [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
      [20000000000, '353130'],
    ] as const) {
      expect(totpCode(secret, Math.floor(time / 30)), String(time)).toBe(code);
      expect(matchTotp(secret, code, time * 1000)).toBe(Math.floor(time / 30));
    }
  });

  it('accepts one step either side and nothing further; refuses non-digits', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    const now = 1234567890 * 1000;
    const step = Math.floor(1234567890 / 30);
    for (const d of [-1, 0, 1]) expect(matchTotp(secret, totpCode(secret, step + d), now)).toBe(step + d);
    for (const d of [-2, 2]) expect(matchTotp(secret, totpCode(secret, step + d), now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
    expect(matchTotp(secret, '12345', now)).toBeNull();
  });
});

describe('two-factor set-up and sign-in', () => {
  it('sets up TOTP: a secret and otpauth URL, a wrong code refused (nothing turned on), ten recovery codes once', async () => {
    const { agent, user } = await signedInAgent(t.app);
    expect((await agent.get('/api/account/two-factor')).json()).toMatchObject({ totp: 'off', passkeys: 0, recoveryCodesLeft: 0, staffSetupRequired: false });
    const setup = await agent.post('/api/account/two-factor/totp');
    const { secret, otpauthUrl } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Metal Cards');
    expect(decodeURIComponent(url.pathname)).toContain(user.email);
    // stored encrypted, never as the plain secret
    const [row] = await t.app.ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row.secretEnc).not.toContain(secret);
    expect(await openSecret(t.app.ctx, row.secretEnc)).toBe(secret);

    const wrong = await agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(secret, 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.code).toBe(TWO_FACTOR_MESSAGES.wrongCode);
    expect((await agent.get('/api/account/two-factor')).json().totp).toBe('pending');
    for (const bad of [{}, { code: '' }, { code: 'x'.repeat(40) }, { code: '<script>' }, { code: 123456 }, { code: '123456', extra: 1 }]) {
      const res = await agent.post('/api/account/two-factor/totp/confirm', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }

    const ok = await agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(secret) });
    expect(ok.statusCode).toBe(200);
    const codes: string[] = ok.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await agent.get('/api/account/two-factor')).json()).toMatchObject({ totp: 'on', recoveryCodesLeft: 10, sessionVerified: true });
    // on already: a second set-up or confirm is refused, the secret stays
    expect((await agent.post('/api/account/two-factor/totp')).statusCode).toBe(409);
    expect((await agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(secret, 1) })).statusCode).toBe(409);
  });

  it('sign-in with TOTP: 200 twoFactorRequired and no session, wrong and replayed codes refused, the right one completes', async () => {
    const { agent, user, input } = await signedInAgent(t.app);
    const { secret, setupStep } = await enableTotp(agent);
    const before = await sessionCount(user.id);

    const { a, res } = await passwordLogin(input.email, input.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ twoFactorRequired: true, methods: ['totp'] });
    expect(a.cookies.has('sid')).toBe(false);
    expect(await sessionCount(user.id)).toBe(before);
    expect((await a.get('/api/auth/session')).json().user).toBeNull();

    const wrong = await a.post('/api/auth/login/two-factor', { code: codeAt(secret, 3) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.code).toBe(TWO_FACTOR_MESSAGES.wrongCode);
    // the code the set-up used is spent: a replay is refused
    const replay = await a.post('/api/auth/login/two-factor', { code: totpCode(secret, setupStep) });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(TWO_FACTOR_MESSAGES.usedCode);
    expect(a.cookies.has('sid')).toBe(false);

    const next = totpCode(secret, setupStep + 1);
    const ok = await a.post('/api/auth/login/two-factor', { code: next.slice(0, 3) + ' ' + next.slice(3) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, email: input.email });
    expect((await a.get('/api/auth/user')).statusCode).toBe(200);
    expect((await a.get('/api/account/two-factor')).json().sessionVerified).toBe(true);
    // the pending sign-in is single use, and the same code cannot sign in a second time
    expect((await a.post('/api/auth/login/two-factor', { code: next })).statusCode).toBe(401);
    const again = await passwordLogin(input.email, input.password);
    expect((await again.a.post('/api/auth/login/two-factor', { code: next })).json().message).toBe(TWO_FACTOR_MESSAGES.usedCode);
  });

  it('the second step without a password first, or with a made-up pending token, is refused', async () => {
    const a = new Agent(t.app);
    expect((await a.post('/api/auth/login/two-factor', { code: '123456' })).statusCode).toBe(401);
    a.cookies.set('tfa', 'made-up-token');
    const res = await a.post('/api/auth/login/two-factor', { code: '123456' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(TWO_FACTOR_MESSAGES.noPending);
  });

  it('recovery codes sign in once each', async () => {
    const { agent, input } = await signedInAgent(t.app);
    const { recoveryCodes } = await enableTotp(agent);
    const first = await passwordLogin(input.email, input.password);
    const ok = await first.a.post('/api/auth/login/two-factor', { code: recoveryCodes[0].toUpperCase() });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await first.a.get('/api/account/two-factor')).json().recoveryCodesLeft).toBe(9);
    const second = await passwordLogin(input.email, input.password);
    const reused = await second.a.post('/api/auth/login/two-factor', { code: recoveryCodes[0] });
    expect(reused.statusCode).toBe(400);
    expect((await second.a.post('/api/auth/login/two-factor', { code: recoveryCodes[1].replace('-', '') })).statusCode).toBe(200);
  });

  it('five wrong codes end a pending sign-in (the password is asked again)', async () => {
    const { agent, input } = await signedInAgent(t.app);
    const { secret } = await enableTotp(agent);
    const { a } = await passwordLogin(input.email, input.password);
    for (let i = 0; i < 4; i++) expect((await a.post('/api/auth/login/two-factor', { code: '000000' === codeAt(secret) ? '111111' : '000000' })).statusCode).toBe(400);
    const fifth = await a.post('/api/auth/login/two-factor', { code: 'aaaaa-aaaaa' });
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().message).toBe(TWO_FACTOR_MESSAGES.tooManyCodes);
    const late = await a.post('/api/auth/login/two-factor', { code: codeAt(secret, 1) });
    expect(late.statusCode).toBe(401);
    expect(a.cookies.has('sid')).toBe(false);
  });

  it('turning TOTP off needs the password; then a password signs in alone', async () => {
    const { agent, input } = await signedInAgent(t.app);
    await enableTotp(agent);
    const wrong = await agent.request('DELETE', '/api/account/two-factor/totp', { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.password).toBe(TWO_FACTOR_MESSAGES.wrongPassword);
    expect((await agent.request('DELETE', '/api/account/two-factor/totp', {})).statusCode).toBe(400);
    expect((await agent.get('/api/account/two-factor')).json().totp).toBe('on');
    const ok = await agent.request('DELETE', '/api/account/two-factor/totp', { password: input.password });
    expect(ok.statusCode).toBe(200);
    expect((await agent.get('/api/account/two-factor')).json()).toMatchObject({ totp: 'off', recoveryCodesLeft: 0, sessionVerified: false });
    expect((await agent.request('DELETE', '/api/account/two-factor/totp', { password: input.password })).statusCode).toBe(409);
    const { res } = await passwordLogin(input.email, input.password);
    expect(res.json()).toMatchObject({ email: input.email });
  });

  it('adding a factor to an account that has one needs a session that passed one', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const { secret } = await enableTotp(agent);
    // a session that never passed the factor (made before it was turned on): simulated by clearing the mark
    await t.app.ctx.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.userId, user.id));
    const res = await agent.post('/api/account/passkeys/options');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(TWO_FACTOR_SETUP_REQUIRED);
    // a code re-proves it
    expect((await agent.post('/api/auth/reauthenticate', { code: codeAt(secret, 1) })).statusCode).toBe(200);
    expect((await agent.post('/api/account/passkeys/options')).statusCode).toBe(200);
  });
});

describe('attempt limits (RATE_LIMITS on)', () => {
  let rl: TestApp;
  beforeAll(async () => {
    rl = await createTestApp({ env: { STAFF_TWO_FACTOR: 'optional' } });
  });
  afterAll(async () => {
    await rl?.close();
  });

  it('an account takes at most 10 code checks in 15 minutes (429 with Retry-After)', async () => {
    const { agent } = await signedInAgent(rl.app);
    const setup = (await agent.post('/api/account/two-factor/totp')).json();
    const confirm = await agent.post('/api/account/two-factor/totp/confirm', { code: totpCode(setup.secret, totpStep()) });
    expect(confirm.statusCode).toBe(200);
    // the set-up's confirming code was the first of the ten
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await agent.post('/api/auth/reauthenticate', { code: 'zzzzz-zzzzz' })).statusCode);
    expect(statuses.every((s) => s === 400), statuses.join(',')).toBe(true);
    const limited = await agent.post('/api/auth/reauthenticate', { code: totpCode(setup.secret, totpStep() + 1) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('staff need a second factor (STAFF_TWO_FACTOR=required)', () => {
  it('an admin without a factor is told to set one up and kept out of /api/admin/* until done', async () => {
    const { agent, input } = await adminAgent(t.app);
    const refused = await agent.get('/api/admin/stats');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: TWO_FACTOR_SETUP_REQUIRED, message: TWO_FACTOR_MESSAGES.setupRequired });
    expect((await agent.get('/api/account/two-factor')).json().staffSetupRequired).toBe(true);
    // signing in again does not help
    const { a, res } = await passwordLogin(input.email, input.password);
    expect(res.json()).toMatchObject({ role: 'admin' });
    expect((await a.get('/api/admin/orders')).statusCode).toBe(403);

    const { secret } = await enableTotp(agent);
    expect((await agent.get('/api/admin/stats')).statusCode).toBe(200);
    expect((await agent.get('/api/account/two-factor')).json().staffSetupRequired).toBe(false);
    // the other session, signed in with the password alone, is still kept out
    expect((await a.get('/api/admin/orders')).statusCode).toBe(403);
    // from now on the sign-in asks for the code, and then the staff area opens
    const next = await passwordLogin(input.email, input.password);
    expect(next.res.json().twoFactorRequired).toBe(true);
    expect((await next.a.post('/api/auth/login/two-factor', { code: codeAt(secret, 1) })).statusCode).toBe(200);
    expect((await next.a.get('/api/admin/orders')).statusCode).toBe(200);
  });

  it('STAFF_TWO_FACTOR=optional lets an admin in with a password alone', async () => {
    const opt = await createTestApp({ env: { RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'optional' } });
    try {
      const { agent } = await adminAgent(opt.app);
      expect((await agent.get('/api/admin/stats')).statusCode).toBe(200);
      expect((await agent.get('/api/account/two-factor')).json().staffSetupRequired).toBe(false);
    } finally {
      await opt.close();
    }
  });

  it('users never reach the staff area, with or without a factor', async () => {
    const { agent } = await signedInAgent(t.app);
    await enableTotp(agent);
    expect((await agent.get('/api/admin/stats')).statusCode).toBe(403);
  });
});

describe('recent authentication for sensitive staff actions', () => {
  async function verifiedAdmin() {
    const { agent, user, input } = await adminAgent(t.app);
    const { secret } = await enableTotp(agent);
    const age = async (minutes: number) =>
      t.app.ctx.db.execute(sql`update sessions set authenticated_at = now() - make_interval(mins => ${minutes}) where user_id = ${user.id}`);
    return { agent, secret, age, input };
  }

  it('exports, refunds and cancellations need a sign-in or code within 15 minutes; other actions do not', async () => {
    const { agent, secret, age } = await verifiedAdmin();
    const order = await insertOrder(t.app);
    expect((await agent.get('/api/admin/orders.csv')).statusCode).toBe(200);
    await age(16);
    const csv = await agent.get('/api/admin/orders.csv');
    expect(csv.statusCode).toBe(403);
    expect(csv.json()).toMatchObject({ code: RECENT_AUTH_REQUIRED, message: TWO_FACTOR_MESSAGES.recentAuth });
    const cancel = await agent.patch(`/api/admin/orders/${order.id}`, { status: 'cancelled' });
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json().code).toBe(RECENT_AUTH_REQUIRED);
    const refund = await agent.post(`/api/admin/orders/${order.id}/payments`, { kind: 'refund', amountCents: 100, method: 'card', reference: 'R-1' });
    expect(refund.statusCode).toBe(403);
    expect((await agent.post('/api/admin/production/export', {})).statusCode).toBe(403);
    expect((await agent.post('/api/svg-files', {})).statusCode).toBe(403);
    // not sensitive: reading and ordinary moves
    expect((await agent.get('/api/admin/orders')).statusCode).toBe(200);
    expect((await agent.patch(`/api/admin/orders/${order.id}`, { status: 'processing' })).statusCode).not.toBe(403);
    // nothing was cancelled
    expect((await agent.get(`/api/admin/orders/${order.id}`)).json().status).not.toBe('cancelled');

    // a password alone is not enough for an account with a factor; a code is
    const pw = await agent.post('/api/auth/reauthenticate', { password: 'whatever-it-is' });
    expect(pw.statusCode).toBe(400);
    expect((await agent.post('/api/auth/reauthenticate', { code: codeAt(secret, 5) })).statusCode).toBe(400);
    const re = await agent.post('/api/auth/reauthenticate', { code: codeAt(secret, 1) });
    expect(re.statusCode).toBe(200);
    expect(Date.parse(re.json().authenticatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await agent.get('/api/admin/orders.csv')).statusCode).toBe(200);
    expect((await agent.patch(`/api/admin/orders/${order.id}`, { status: 'cancelled' })).statusCode).not.toBe(403);
  });

  it("the other staff exports (an order's NFC CSV, the audit log CSV) and template rollbacks need it too", async () => {
    const { agent, secret, age } = await verifiedAdmin();
    const order = await insertOrder(t.app, { status: 'processing' });
    const [template] = await t.app.ctx.db.select({ id: templates.id, version: templates.version }).from(templates).orderBy(templates.id).limit(1);
    expect(template).toBeTruthy();
    const nfcCsv = () => agent.get(`/api/admin/orders/${order.id}/nfc.csv`);
    const auditCsv = (query = '') => agent.get(`/api/admin/audit.csv${query}`);
    const rollback = () => agent.post(`/api/svg-files/${template.id}/rollback`, { version: template.version });

    // inside the window: the files download; the rollback is not refused for recent-auth
    expect((await nfcCsv()).statusCode).toBe(200);
    const freshAudit = await auditCsv();
    expect(freshAudit.statusCode).toBe(200);
    expect(freshAudit.headers['content-type']).toMatch(/^text\/csv/);
    expect((await rollback()).statusCode).not.toBe(403);

    await age(16);
    for (const [name, res] of [
      ['nfc.csv', await nfcCsv()],
      ['audit.csv', await auditCsv()],
      // refused before the query is read: a stale session learns nothing about what it should send
      ['audit.csv with a bad filter', await auditCsv('?kind=nope')],
      ['rollback', await rollback()],
    ] as const) {
      expect(res.statusCode, name).toBe(403);
      expect(res.json(), name).toMatchObject({ code: RECENT_AUTH_REQUIRED, message: TWO_FACTOR_MESSAGES.recentAuth });
      expect(String(res.headers['content-type']), name).toMatch(/^application\/json/);
    }
    // nothing was rolled back
    const [after] = await t.app.ctx.db.select({ version: templates.version }).from(templates).where(eq(templates.id, template.id));
    expect(after!.version).toBe(template.version);
    // the reading routes beside them are not sensitive
    expect((await agent.get(`/api/admin/orders/${order.id}/nfc`)).statusCode).toBe(200);
    expect((await agent.get('/api/admin/audit')).statusCode).toBe(200);

    // a code confirms it is them; the exports download again
    expect((await agent.post('/api/auth/reauthenticate', { code: codeAt(secret, 1) })).statusCode).toBe(200);
    const nfc = await nfcCsv();
    expect(nfc.statusCode).toBe(200);
    expect(nfc.headers['content-disposition']).toBe(`attachment; filename="nfc-order-${order.id}.csv"`);
    expect((await auditCsv()).statusCode).toBe(200);
    expect((await auditCsv('?kind=nope')).statusCode).toBe(400);
    expect((await rollback()).statusCode).not.toBe(403);
  });

  it('a password-only account re-proves with its password (wrong one: 400, field message)', async () => {
    const { agent, input } = await signedInAgent(t.app);
    const wrong = await agent.post('/api/auth/reauthenticate', { password: 'nope-nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.password).toBe(TWO_FACTOR_MESSAGES.wrongPassword);
    expect((await agent.post('/api/auth/reauthenticate', {})).statusCode).toBe(400);
    expect((await agent.post('/api/auth/reauthenticate', { password: input.password })).statusCode).toBe(200);
  });

  it('RECENT_AUTH_MINUTES=0 turns the check off', async () => {
    const off = await createTestApp({ env: { RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'optional', RECENT_AUTH_MINUTES: '0' } });
    try {
      const { agent, user } = await adminAgent(off.app);
      await off.app.ctx.db.execute(sql`update sessions set authenticated_at = now() - interval '2 days' where user_id = ${user.id}`);
      expect((await agent.get('/api/admin/orders.csv')).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('passkeys', () => {
  async function addPasskey(agent: Agent, auth: SoftAuthenticator, name?: string) {
    const opts = await agent.post('/api/account/passkeys/options');
    expect(opts.statusCode, opts.body).toBe(200);
    const options = opts.json().options;
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const res = await agent.post('/api/account/passkeys', { ...(name ? { name } : {}), credential: auth.create(options) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; name: string };
  }

  async function passkeySignIn(auth: SoftAuthenticator, which = 0, agent = new Agent(t.app)) {
    const opts = await agent.post('/api/auth/passkey/options');
    expect(opts.statusCode).toBe(200);
    const options = opts.json().options;
    expect(options.allowCredentials ?? []).toEqual([]);
    const credential = auth.get(options, which);
    const res = await agent.post('/api/auth/passkey', { credential });
    return { agent, res, credential, options };
  }

  it('adds, names, lists, signs in (discoverable), renames and removes a passkey', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const auth = new SoftAuthenticator(ORIGIN);
    const pk = await addPasskey(agent, auth, 'My laptop');
    expect(pk.name).toBe('My laptop');
    const list = (await agent.get('/api/account/passkeys')).json().passkeys;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: pk.id, name: 'My laptop', lastUsedAt: null });
    expect((await agent.get('/api/account/two-factor')).json()).toMatchObject({ passkeys: 1, sessionVerified: true });

    const { agent: b, res } = await passkeySignIn(auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id });
    expect((await b.get('/api/account/two-factor')).json().sessionVerified).toBe(true);
    expect((await agent.get('/api/account/passkeys')).json().passkeys[0].lastUsedAt).not.toBeNull();

    const renamed = await agent.patch(`/api/account/passkeys/${pk.id}`, { name: '  Work phone ' });
    expect(renamed.json().name).toBe('Work phone');
    for (const bad of [{ name: '' }, { name: 'x'.repeat(61) }, { name: 'a\nb' }, {}]) {
      expect((await agent.patch(`/api/account/passkeys/${pk.id}`, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    // removing one needs a recent sign-in or factor check (a stolen old session cannot strip them)
    await t.app.ctx.db.execute(sql`update sessions set authenticated_at = now() - interval '1 hour' where user_id = ${user.id}`);
    const stale = await agent.delete(`/api/account/passkeys/${pk.id}`);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe(RECENT_AUTH_REQUIRED);
    await t.app.ctx.db.execute(sql`update sessions set authenticated_at = now() where user_id = ${user.id}`);
    expect((await agent.delete(`/api/account/passkeys/${pk.id}`)).statusCode).toBe(200);
    expect((await agent.get('/api/account/passkeys')).json().passkeys).toEqual([]);
    // a removed passkey signs in no more
    const after = await passkeySignIn(auth);
    expect(after.res.statusCode).toBe(400);
    expect(after.res.json().message).toBe(TWO_FACTOR_MESSAGES.passkeyUnknown);
  });

  it('refuses a replayed assertion, a wrong origin, a wrong ceremony type, a forged signature and an unknown challenge', async () => {
    const { agent } = await signedInAgent(t.app);
    const auth = new SoftAuthenticator(ORIGIN);
    await addPasskey(agent, auth);
    const first = await passkeySignIn(auth);
    expect(first.res.statusCode).toBe(200);
    // the same assertion again: its challenge is spent
    const replay = await new Agent(t.app).post('/api/auth/passkey', { credential: first.credential });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(TWO_FACTOR_MESSAGES.passkeyExpired);

    const opts = async () => (await new Agent(t.app).post('/api/auth/passkey/options')).json().options;
    const evil = await new Agent(t.app).post('/api/auth/passkey', { credential: auth.get(await opts(), 0, { origin: 'https://evil.example' }) });
    expect(evil.statusCode).toBe(400);
    const wrongType = await new Agent(t.app).post('/api/auth/passkey', { credential: auth.get(await opts(), 0, { type: 'webauthn.create' }) });
    expect(wrongType.statusCode).toBe(400);
    const forged = auth.get(await opts());
    forged.response.signature = Buffer.from('not a signature').toString('base64url');
    expect((await new Agent(t.app).post('/api/auth/passkey', { credential: forged })).statusCode).toBe(400);
    const made = auth.get({ challenge: Buffer.from('never handed out').toString('base64url'), rpId: 'localhost' });
    expect((await new Agent(t.app).post('/api/auth/passkey', { credential: made })).json().message).toBe(TWO_FACTOR_MESSAGES.passkeyExpired);
    for (const bad of [{}, { credential: {} }, { credential: { ...made, id: '!!' } }, { credential: { ...made, response: { ...made.response, clientDataJSON: 'bm90IGpzb24' } } }]) {
      const res = await new Agent(t.app).post('/api/auth/passkey', bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
  });

  it('a registration answer for another account, or from another origin, is refused', async () => {
    const { agent } = await signedInAgent(t.app);
    const other = await signedInAgent(t.app);
    const auth = new SoftAuthenticator(ORIGIN);
    const options = (await agent.post('/api/account/passkeys/options')).json().options;
    // the other account sends the first account's ceremony: the challenge is not theirs
    expect((await other.agent.post('/api/account/passkeys', { credential: auth.create(options) })).statusCode).toBe(400);
    const evil = new SoftAuthenticator('https://evil.example');
    const options2 = (await agent.post('/api/account/passkeys/options')).json().options;
    expect((await agent.post('/api/account/passkeys', { credential: evil.create(options2) })).statusCode).toBe(400);
    expect((await agent.get('/api/account/passkeys')).json().passkeys).toEqual([]);
  });

  it("another user cannot rename or remove someone's passkey (404, nothing changed)", async () => {
    const owner = await signedInAgent(t.app);
    const pk = await addPasskey(owner.agent, new SoftAuthenticator(ORIGIN), 'Owner key');
    const other = await signedInAgent(t.app);
    expect((await other.agent.patch(`/api/account/passkeys/${pk.id}`, { name: 'stolen' })).statusCode).toBe(404);
    expect((await other.agent.delete(`/api/account/passkeys/${pk.id}`)).statusCode).toBe(404);
    expect((await other.agent.get('/api/account/passkeys')).json().passkeys).toEqual([]);
    expect((await owner.agent.get('/api/account/passkeys')).json().passkeys).toMatchObject([{ id: pk.id, name: 'Owner key' }]);
    expect((await new Agent(t.app).delete(`/api/account/passkeys/${pk.id}`)).statusCode).toBe(401);
    expect((await owner.agent.delete('/api/account/passkeys/not-a-uuid')).statusCode).toBe(400);
  });

  it('a passkey is a second factor: the password sign-in asks for it, and it opens the staff area', async () => {
    const { agent, input } = await adminAgent(t.app);
    expect((await agent.get('/api/admin/stats')).statusCode).toBe(403);
    const auth = new SoftAuthenticator(ORIGIN);
    await addPasskey(agent, auth);
    expect((await agent.get('/api/admin/stats')).statusCode).toBe(200);

    const { a, res } = await passwordLogin(input.email, input.password);
    expect(res.json()).toEqual({ twoFactorRequired: true, methods: ['passkey'] });
    expect(a.cookies.has('tfa')).toBe(true);
    const done = await passkeySignIn(auth, 0, a);
    expect(done.res.statusCode).toBe(200);
    expect(a.cookies.has('tfa')).toBe(false);
    expect((await a.get('/api/admin/stats')).statusCode).toBe(200);
    // removing the last factor: no session counts as verified any more, the staff area closes
    const id = (await agent.get('/api/account/passkeys')).json().passkeys[0].id;
    expect((await agent.delete(`/api/account/passkeys/${id}`)).statusCode).toBe(200);
    expect((await a.get('/api/admin/stats')).statusCode).toBe(403);
  });
});

describe('the identity audit log of factor changes (decision 39-02)', () => {
  const FACTOR_KINDS = ['two-factor-enabled', 'two-factor-disabled', 'passkey-added', 'passkey-removed', 'recovery-code-used'];
  /** This account's factor events, oldest first: kind, outcome and detail. */
  const factorEvents = async (userId: string) =>
    (await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.userId, userId)).orderBy(identityEvents.at))
      .filter((e) => FACTOR_KINDS.includes(e.kind))
      .map((e) => ({ kind: e.kind, outcome: e.outcome, detail: e.detail as Record<string, unknown>, ip: e.ip }));

  it('turning TOTP on and off, adding and removing a passkey and using a recovery code are written; refused attempts write none of them', async () => {
    const { agent, user, input } = await signedInAgent(t.app);

    // a wrong confirming code turns nothing on and writes no "enabled"
    const setup = (await agent.post('/api/account/two-factor/totp')).json();
    expect((await agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(setup.secret, 5) })).statusCode).toBe(400);
    expect(await factorEvents(user.id)).toEqual([]);
    const confirmed = await agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(setup.secret) });
    expect(confirmed.statusCode).toBe(200);
    const recoveryCodes: string[] = confirmed.json().recoveryCodes;
    expect(await factorEvents(user.id)).toEqual([{ kind: 'two-factor-enabled', outcome: 'success', detail: {}, ip: expect.any(String) }]);

    // a passkey added, then removed (a stale session's removal is refused first and writes nothing)
    const auth = new SoftAuthenticator(ORIGIN);
    const options = (await agent.post('/api/account/passkeys/options')).json().options;
    const added = await agent.post('/api/account/passkeys', { name: 'Audit key', credential: auth.create(options) });
    expect(added.statusCode, added.body).toBe(201);
    const passkeyId = added.json().id as string;
    await t.app.ctx.db.execute(sql`update sessions set authenticated_at = now() - interval '1 hour' where user_id = ${user.id}`);
    expect((await agent.delete(`/api/account/passkeys/${passkeyId}`)).statusCode).toBe(403);
    expect((await factorEvents(user.id)).map((e) => e.kind)).toEqual(['two-factor-enabled', 'passkey-added']);
    expect((await agent.post('/api/auth/reauthenticate', { code: codeAt(setup.secret, 1) })).statusCode).toBe(200);
    expect((await agent.delete(`/api/account/passkeys/${passkeyId}`)).statusCode).toBe(200);

    // a recovery code at sign-in, and one to confirm it is them
    const { a } = await passwordLogin(input.email, input.password);
    expect((await a.post('/api/auth/login/two-factor', { code: recoveryCodes[0] })).statusCode).toBe(200);
    expect((await a.post('/api/auth/reauthenticate', { code: recoveryCodes[1] })).statusCode).toBe(200);
    // a spent recovery code is refused and counted as no use
    expect((await a.post('/api/auth/reauthenticate', { code: recoveryCodes[0] })).statusCode).toBe(400);

    // turning TOTP off: a wrong password writes nothing, the right one "disabled"
    expect((await agent.request('DELETE', '/api/account/two-factor/totp', { password: 'not-my-password' })).statusCode).toBe(400);
    expect((await agent.request('DELETE', '/api/account/two-factor/totp', { password: input.password })).statusCode).toBe(200);

    const events = await factorEvents(user.id);
    expect(events.map((e) => e.kind)).toEqual(['two-factor-enabled', 'passkey-added', 'passkey-removed', 'recovery-code-used', 'recovery-code-used', 'two-factor-disabled']);
    expect(events.every((e) => e.outcome === 'success')).toBe(true);
    expect(events.find((e) => e.kind === 'passkey-added')!.detail).toEqual({ passkeyId });
    expect(events.find((e) => e.kind === 'passkey-removed')!.detail).toEqual({ passkeyId });
    // the sign-in by recovery code says so
    const [signIn] = await t.app.ctx.db.select().from(identityEvents).where(and(eq(identityEvents.userId, user.id), eq(identityEvents.kind, 'sign-in')));
    expect(signIn!.detail).toEqual({ method: 'password+recovery-code' });

    // staff read them in the audit log, by kind
    const staff = await adminAgent(t.app);
    await enableTotp(staff.agent);
    for (const kind of FACTOR_KINDS) {
      const log = await staff.agent.get(`/api/admin/audit?kind=${kind}`);
      expect(log.statusCode, log.body).toBe(200);
      expect(log.json().events.some((e: { userId: string | null }) => e.userId === user.id), kind).toBe(true);
    }
  });
});
