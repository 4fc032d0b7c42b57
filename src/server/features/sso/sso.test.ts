import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent, verifiedAgent } from '#tests/helpers/factories';
import { startDnsStandin, type DnsStandin } from '#tests/helpers/dns-standin';
import { FetchJar, startOidcStandin, type OidcStandin } from '#tests/helpers/oidc-standin';
import { identityEvents, profiles, ssoConnections, ssoSignInStates, teamMembers, users } from '#server/db/schema/index';
import { totpCode, totpStep } from '#server/features/auth/totp';
import { SoftAuthenticator } from '#tests/helpers/soft-authenticator';
import { guardedFetch } from './oidc-fetch';
import { SSO_MESSAGES } from '#shared/schemas/sso';

/**
 * Team single sign-on with OpenID Connect (issue 39 item 3, decision 39-03), against real
 * counterparts on 127.0.0.1: a DNS server answering the domain's TXT proof and an OpenID provider
 * (`oidc-provider`). Domain proof, the connection, just-in-time sign-in, the refusals (state,
 * nonce, a forged ID token, a foreign domain, a replayed callback), require-SSO and break-glass.
 */
const ORIGIN = 'http://cards.test';
const CALLBACK = `${ORIGIN}/api/auth/sso/oidc/callback`;
let t: TestApp;
let dns: DnsStandin;
let idp: OidcStandin;
const domain = `acme-${crypto.randomBytes(3).toString('hex')}.test`;

beforeAll(async () => {
  dns = await startDnsStandin();
  idp = await startOidcStandin([CALLBACK]);
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off', SSO_DNS_RESOLVER: dns.address, SSO_ALLOW_PRIVATE_NETWORKS: 'true' } });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await idp?.close();
  await dns?.close();
});

const codeAt = (secret: string, delta = 0) => totpCode(secret, totpStep() + delta);

async function teamOwner(name: string) {
  const owner = await verifiedAgent(t.app, { firstName: 'Olga', lastName: 'Owner' });
  const team = await owner.agent.post('/api/team', { name, companyName: `${name} Inc` });
  expect(team.statusCode, team.body).toBe(201);
  const [m] = await t.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, owner.user.id));
  return { ...owner, teamId: m!.teamId };
}

/** Start → the provider's login page → sign in as `account` → back to our callback (its URL can be changed first). */
async function ssoSignIn(agent: Agent, email: string, account: string, change?: (callback: URL) => void | Promise<void>) {
  const start = await agent.get(`/api/auth/sso/start?email=${encodeURIComponent(email)}&returnTo=${encodeURIComponent('/team')}`);
  expect(start.statusCode, start.body).toBe(303);
  const authUrl = new URL(String(start.headers.location));
  expect(authUrl.origin).toBe(idp.issuer);
  expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authUrl.searchParams.get('nonce')).toBeTruthy();
  const jar = new FetchJar();
  let res = await jar.fetch(authUrl.href);
  expect(res.status, await res.clone().text()).toBeGreaterThanOrEqual(302);
  const interaction = new URL(res.headers.get('location')!, idp.issuer).href;
  res = await jar.fetch(interaction, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `login=${encodeURIComponent(account)}` });
  res = await jar.fetch(new URL(res.headers.get('location')!, idp.issuer).href);
  const callback = new URL(res.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  await change?.(callback);
  return agent.get(callback.pathname + callback.search);
}

let owner: Awaited<ReturnType<typeof teamOwner>>;
let domainId: string;

describe('domain proof by DNS TXT', () => {
  it('refuses public suffixes and free-mail domains, proves a domain by its TXT record', async () => {
    owner = await teamOwner('Acme');
    for (const bad of ['gmail.com', 'mail.gmail.com', 'co.uk', 'github.io', 'com', '127.0.0.1', 'not a domain']) {
      const res = await owner.agent.post('/api/team/sso/domains', { domain: bad });
      expect(res.statusCode, `${bad}: ${res.body}`).toBe(400);
      expect(res.json().errors?.domain, bad).toBeTruthy();
    }
    const added = await owner.agent.post('/api/team/sso/domains', { domain: domain.toUpperCase() + '.' });
    expect(added.statusCode, added.body).toBe(201);
    const d = added.json();
    expect(d).toMatchObject({ domain, txtName: `_cards-verification.${domain}`, verifiedAt: null });
    expect(d.txtValue).toMatch(/^cards-verification=[A-Za-z0-9_-]{20,}$/);
    domainId = d.id;

    // nothing published yet, then a wrong value: not verified
    let verify = await owner.agent.post(`/api/team/sso/domains/${domainId}/verify`);
    expect(verify.statusCode).toBe(400);
    expect(verify.json().message).toContain('No TXT record');
    dns.txt.set(`_cards-verification.${domain}`, ['cards-verification=someone-elses-token', 'v=spf1 -all']);
    verify = await owner.agent.post(`/api/team/sso/domains/${domainId}/verify`);
    expect(verify.statusCode).toBe(400);
    dns.txt.set(`_cards-verification.${domain}`, ['v=spf1 -all', d.txtValue]);
    verify = await owner.agent.post(`/api/team/sso/domains/${domainId}/verify`);
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json().verifiedAt).toBeTruthy();
    expect(dns.questions).toContain(`TXT _cards-verification.${domain}`);
  });

  it('a domain another team verified is refused to everyone else', async () => {
    const other = await teamOwner('Rival');
    const res = await other.agent.post('/api/team/sso/domains', { domain });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Another team');
  });
});

describe('the OpenID Connect connection', () => {
  it('refuses an issuer on a private network without the test setting (the outbound guard)', async () => {
    const f = guardedFetch(false);
    await expect(f('https://127.0.0.1/.well-known/openid-configuration', { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as never)).rejects.toThrow(/not allowed/);
    await expect(f('http://example.com/', { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as never)).rejects.toThrow(/https/);
    await expect(f('https://169.254.169.254/latest', { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as never)).rejects.toThrow(/not allowed/);
  });

  it('checks the issuer by discovery, seals the secret and never answers it', async () => {
    const bad = await owner.agent.put('/api/team/sso/oidc', { issuer: `${idp.issuer}/nowhere`, clientId: idp.clientId, clientSecret: idp.clientSecret });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors?.issuer).toBeTruthy();
    const noSecret = await owner.agent.put('/api/team/sso/oidc', { issuer: idp.issuer, clientId: idp.clientId });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().errors?.clientSecret).toBeTruthy();

    const res = await owner.agent.put('/api/team/sso/oidc', { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'oidc', oidc: { issuer: idp.issuer, clientId: idp.clientId, hasClientSecret: true }, oidcRedirectUri: CALLBACK, requireSso: false });
    expect(res.body).not.toContain(idp.clientSecret);
    const get = await owner.agent.get('/api/team/sso');
    expect(get.body).not.toContain(idp.clientSecret);
    const [row] = await t.app.ctx.db.select().from(ssoConnections).where(eq(ssoConnections.teamId, owner.teamId));
    expect(row!.oidcClientSecret).not.toContain(idp.clientSecret);
    expect(row!.oidcClientSecret).toMatch(/^v1\./);
    // saving again with the same client keeps the stored secret
    const again = await owner.agent.put('/api/team/sso/oidc', { issuer: idp.issuer, clientId: idp.clientId, clientSecret: '' });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('discover answers one bit for the address, naming no team', async () => {
    const anon = new Agent(t.app);
    const yes = await anon.post('/api/auth/sso/discover', { email: `someone@${domain}` });
    expect(yes.json()).toEqual({ sso: true });
    const no = await anon.post('/api/auth/sso/discover', { email: 'someone@elsewhere.test' });
    expect(no.json()).toEqual({ sso: false });
    const bad = await anon.post('/api/auth/sso/discover', { email: 'nope' });
    expect(bad.statusCode).toBe(400);
    const start = await anon.get('/api/auth/sso/start?email=someone%40elsewhere.test');
    expect(start.statusCode).toBe(303);
    expect(start.headers.location).toBe('/login?sso_error=not-available');
  });
});

describe('signing in through the OpenID provider', () => {
  const email = `alice@${domain}`;

  it('first sign-in makes the account and the membership (just in time) and fills the profile', async () => {
    idp.accounts.set('alice', { email, email_verified: true, name: 'Alice Example', given_name: 'Alice', family_name: 'Example', job_title: 'Head of Sales', phone_number: '+1 212 555 0147' });
    const browser = new Agent(t.app);
    const res = await ssoSignIn(browser, email, 'alice');
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/team');
    const me = await browser.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, emailVerified: true, role: 'user', firstName: 'Alice', lastName: 'Example' });
    const [m] = await t.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, me.json().id));
    expect(m).toMatchObject({ teamId: owner.teamId, role: 'member' });
    const [p] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, me.json().id));
    expect(p).toMatchObject({ fullName: 'Alice Example', jobTitle: 'Head of Sales' });
    const events = await t.app.ctx.db.select().from(identityEvents).where(and(eq(identityEvents.kind, 'sso-sign-in'), eq(identityEvents.email, email)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ teamId: owner.teamId, outcome: 'success' });
    expect(events[0]!.detail).toMatchObject({ method: 'oidc', accountCreated: true, joinedTeam: true });
    // the owner sees it in the team's audit log
    const log = await owner.agent.get('/api/team/audit');
    expect(log.body).toContain('sso-sign-in');
  });

  it('a second sign-in finds the same account; synced fields follow the provider', async () => {
    idp.accounts.set('alice', { ...idp.accounts.get('alice')!, job_title: 'VP Sales' });
    const browser = new Agent(t.app);
    const res = await ssoSignIn(browser, email, 'alice');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/team');
    const rows = await t.app.ctx.db.select().from(users).where(eq(users.email, email));
    expect(rows).toHaveLength(1);
    const [p] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, rows[0]!.id));
    expect(p!.jobTitle).toBe('VP Sales');
    const last = await t.app.ctx.db.select().from(identityEvents).where(and(eq(identityEvents.kind, 'sso-sign-in'), eq(identityEvents.email, email)));
    expect(last.map((e) => e.detail)).toContainEqual(expect.objectContaining({ accountCreated: false, joinedTeam: false }));
  });

  async function expectRefused(res: Awaited<ReturnType<typeof ssoSignIn>>, browser: Agent, code = 'failed', reason?: RegExp) {
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/login?sso_error=${code}`);
    expect((await browser.get('/api/auth/user')).statusCode).toBe(401);
    if (reason) {
      const failures = await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.kind, 'sso-sign-in-failed')).orderBy(desc(identityEvents.at));
      expect(String((failures[0]!.detail as { reason?: string }).reason)).toMatch(reason);
    }
  }

  it('refuses a state that does not match (a forged or swapped callback)', async () => {
    const browser = new Agent(t.app);
    const res = await ssoSignIn(browser, email, 'alice', (cb) => cb.searchParams.set('state', 'forged-state'));
    await expectRefused(res, browser, 'failed', /state/i);
  });

  it('refuses an ID token whose nonce is not the one this browser sent', async () => {
    const browser = new Agent(t.app);
    const res = await ssoSignIn(browser, email, 'alice', async () => {
      await t.app.ctx.db.update(ssoSignInStates).set({ nonce: 'another-nonce' });
    });
    await expectRefused(res, browser, 'failed', /nonce/i);
  });

  it('refuses a forged ID token (its payload changed after signing)', async () => {
    const browser = new Agent(t.app);
    const res = await ssoSignIn(browser, email, 'alice', () => {
      idp.tamperIdToken = true;
    });
    await expectRefused(res, browser, 'failed', /signature|JWS|JWT/i);
  });

  it('refuses a callback replayed, and one from a browser that never started', async () => {
    const browser = new Agent(t.app);
    let url = '';
    const res = await ssoSignIn(browser, email, 'alice', (cb) => {
      url = cb.pathname + cb.search;
    });
    expect(res.headers.location).toBe('/team');
    const again = await browser.get(url);
    expect(again.headers.location).toBe('/login?sso_error=expired');
    const stranger = new Agent(t.app);
    await expectRefused(await stranger.get(url), stranger, 'expired');
  });

  it('refuses an address outside the verified domains', async () => {
    idp.accounts.set('mallory', { email: 'mallory@elsewhere.test', email_verified: true, name: 'Mallory' });
    const browser = new Agent(t.app);
    const res = await ssoSignIn(browser, `mallory@${domain}`, 'mallory');
    await expectRefused(res, browser, 'wrong-domain');
    expect(await t.app.ctx.db.select().from(users).where(eq(users.email, 'mallory@elsewhere.test'))).toHaveLength(0);
    const [ev] = await t.app.ctx.db.select().from(identityEvents).where(and(eq(identityEvents.kind, 'sso-sign-in-failed'), eq(identityEvents.email, 'mallory@elsewhere.test')));
    expect(ev).toMatchObject({ outcome: 'failure', teamId: owner.teamId });
  });

  it('refuses an address the provider says is not verified', async () => {
    idp.accounts.set('eve', { email: `eve@${domain}`, email_verified: false, name: 'Eve' });
    const browser = new Agent(t.app);
    await expectRefused(await ssoSignIn(browser, `eve@${domain}`, 'eve'), browser, 'not-verified');
  });
});

describe('require single sign-on', () => {
  it('needs a second factor on the owner first; then members cannot use a password or a passkey, the owner can with the factor', async () => {
    // a person of the domain with a password account of their own
    const dave = await signedInAgent(t.app, { email: `dave@${domain}` });
    const before = await new Agent(t.app).post('/api/auth/login', { email: dave.input.email, password: dave.input.password });
    expect(before.statusCode).toBe(200);
    // and a passkey of their own
    const authenticator = new SoftAuthenticator(ORIGIN);
    const regOptions = (await dave.agent.post('/api/account/passkeys/options')).json().options;
    expect((await dave.agent.post('/api/account/passkeys', { name: 'Dave key', credential: authenticator.create(regOptions) })).statusCode).toBe(201);
    const passkeySignIn = async () => {
      const a = new Agent(t.app);
      const options = (await a.post('/api/auth/passkey/options')).json().options;
      return a.post('/api/auth/passkey', { credential: authenticator.get(options) });
    };
    expect((await passkeySignIn()).statusCode).toBe(200);

    const early = await owner.agent.put('/api/team/sso/require', { requireSso: true });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain('second factor');
    const setup = await owner.agent.post('/api/account/two-factor/totp');
    const { secret } = setup.json();
    expect((await owner.agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(secret) })).statusCode).toBe(200);
    const on = await owner.agent.put('/api/team/sso/require', { requireSso: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().requireSso).toBe(true);

    const refused = await new Agent(t.app).post('/api/auth/login', { email: dave.input.email, password: dave.input.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'sso_required' });
    expect(refused.json().message).toContain('Continue with SSO');
    // a passkey alone does not get a member of the team past the requirement either
    const byPasskey = await passkeySignIn();
    expect(byPasskey.statusCode, byPasskey.body).toBe(403);
    expect(byPasskey.json()).toMatchObject({ code: 'sso_required' });

    // break-glass: the owner's password, then the code
    const glass = new Agent(t.app);
    const step1 = await glass.post('/api/auth/login', { email: owner.input.email, password: owner.input.password });
    expect(step1.statusCode, step1.body).toBe(200);
    expect(step1.json().twoFactorRequired).toBe(true);
    const step2 = await glass.post('/api/auth/login/two-factor', { code: codeAt(secret, 1) });
    expect(step2.statusCode, step2.body).toBe(200);

    // SSO still signs people in
    const browser = new Agent(t.app);
    expect((await ssoSignIn(browser, `alice@${domain}`, 'alice')).headers.location).toBe('/team');

    const off = await owner.agent.put('/api/team/sso/require', { requireSso: false });
    expect(off.json().requireSso).toBe(false);
    expect((await new Agent(t.app).post('/api/auth/login', { email: dave.input.email, password: dave.input.password })).statusCode).toBe(200);
    expect((await passkeySignIn()).statusCode).toBe(200);
  });

  it('staff who are members of the team keep the break-glass path: the password, then the second factor (a member with a factor is still refused)', async () => {
    /** A signed-in account (not on the domain: the membership is what puts it under the requirement) in the owner's team. */
    const memberOfTeam = async (role: 'admin' | 'user', withTotp: boolean) => {
      const p = await signedInAgent(t.app);
      if (role === 'admin') await t.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, p.user.id));
      await t.app.ctx.db.insert(teamMembers).values({ teamId: owner.teamId, userId: p.user.id, role: 'member' });
      let secret = '';
      if (withTotp) {
        secret = (await p.agent.post('/api/account/two-factor/totp')).json().secret;
        expect((await p.agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(secret) })).statusCode).toBe(200);
      }
      return { ...p, secret };
    };
    const staff = await memberOfTeam('admin', true);
    const staffNoFactor = await memberOfTeam('admin', false);
    const member = await memberOfTeam('user', true);
    const on = await owner.agent.put('/api/team/sso/require', { requireSso: true });
    expect(on.statusCode, on.body).toBe(200);
    const login = async (who: { input: { email: string; password: string } }) => {
      const a = new Agent(t.app);
      return { a, res: await a.post('/api/auth/login', { email: who.input.email, password: who.input.password }) };
    };
    try {
      // a member of the team: refused even with a factor on the account; no pending sign-in is started
      const m = await login(member);
      expect(m.res.statusCode).toBe(403);
      expect(m.res.json()).toMatchObject({ code: 'sso_required', message: SSO_MESSAGES.required });
      expect(m.a.cookies.has('tfa')).toBe(false);
      expect((await m.a.post('/api/auth/login/two-factor', { code: codeAt(member.secret, 1) })).statusCode).toBe(401);
      // staff without a second factor: told the password needs one
      const bare = await login(staffNoFactor);
      expect(bare.res.statusCode).toBe(403);
      expect(bare.res.json()).toMatchObject({ code: 'sso_required', message: SSO_MESSAGES.breakGlassNeedsFactor });
      expect(bare.a.cookies.has('sid')).toBe(false);

      // staff with a factor: the password asks for the code (no session yet), a wrong code is refused, the right one signs in
      const glass = await login(staff);
      expect(glass.res.statusCode, glass.res.body).toBe(200);
      expect(glass.res.json()).toEqual({ twoFactorRequired: true, methods: ['totp'] });
      expect(glass.a.cookies.has('sid')).toBe(false);
      expect((await glass.a.post('/api/auth/login/two-factor', { code: codeAt(staff.secret, 5) })).statusCode).toBe(400);
      const step2 = await glass.a.post('/api/auth/login/two-factor', { code: codeAt(staff.secret, 1) });
      expect(step2.statusCode, step2.body).toBe(200);
      expect(step2.json()).toMatchObject({ id: staff.user.id, role: 'admin' });
      expect((await glass.a.get('/api/admin/stats')).statusCode).toBe(200);
      expect((await glass.a.get('/api/account/two-factor')).json().sessionVerified).toBe(true);

      // the audit log tells the three apart
      const events = await t.app.ctx.db.select().from(identityEvents).where(inArray(identityEvents.userId, [staff.user.id, staffNoFactor.user.id, member.user.id]));
      const of = (userId: string) => events.filter((e) => e.kind === 'sign-in' || e.kind === 'sign-in-failed').filter((e) => e.userId === userId).map((e) => [e.kind, e.detail]);
      expect(of(member.user.id)).toEqual([['sign-in-failed', { method: 'password', reason: 'sso-required' }]]);
      expect(of(staffNoFactor.user.id)).toEqual([['sign-in-failed', { method: 'password', reason: 'sso-required' }]]);
      expect(of(staff.user.id)).toEqual([['sign-in', { method: 'password+totp' }]]);
    } finally {
      expect((await owner.agent.put('/api/team/sso/require', { requireSso: false })).statusCode).toBe(200);
      await t.app.ctx.db.delete(teamMembers).where(inArray(teamMembers.userId, [staff.user.id, staffNoFactor.user.id, member.user.id]));
    }
  });
});

describe("who reaches a team's single sign-on settings", () => {
  it('only its owner: another team owner, a member, a visitor are refused; ids of another team are unknown', async () => {
    const anon = new Agent(t.app);
    expect((await anon.get('/api/team/sso')).statusCode).toBe(401);
    expect((await anon.post('/api/team/sso/domains', { domain: 'x.test' })).statusCode).toBe(401);

    const alice = new Agent(t.app);
    await ssoSignIn(alice, `alice@${domain}`, 'alice');
    const member = await alice.get('/api/team/sso');
    expect(member.statusCode).toBe(403);
    expect((await alice.put('/api/team/sso/require', { requireSso: false })).statusCode).toBe(403);
    expect((await alice.request('DELETE', '/api/team/sso/connection')).statusCode).toBe(403);

    const rival = await teamOwner('Rival Two');
    const theirs = await rival.agent.get('/api/team/sso');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ domains: [], kind: null, oidc: null });
    expect(theirs.body).not.toContain(domain);
    expect((await rival.agent.post(`/api/team/sso/domains/${domainId}/verify`)).statusCode).toBe(404);
    expect((await rival.agent.request('DELETE', `/api/team/sso/domains/${domainId}`)).statusCode).toBe(404);
    const still = await owner.agent.get('/api/team/sso');
    expect(still.json().domains.map((d: { id: string }) => d.id)).toContain(domainId);

    const loner = await signedInAgent(t.app);
    expect((await loner.agent.get('/api/team/sso')).statusCode).toBe(404);
  });

  it('disconnecting leaves an audit trail and ends the SSO sign-in', async () => {
    const res = await owner.agent.request('DELETE', '/api/team/sso/connection');
    expect(res.statusCode).toBe(200);
    const anon = new Agent(t.app);
    expect((await anon.post('/api/auth/sso/discover', { email: `alice@${domain}` })).json()).toEqual({ sso: false });
    const kinds = (await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.teamId, owner.teamId))).map((e) => `${e.kind}:${(e.detail as { change?: string }).change ?? ''}`);
    for (const k of ['sso-configured:domain-added', 'sso-configured:domain-verified', 'sso-configured:oidc-connected', 'sso-configured:sso-required', 'sso-removed:connection-removed']) expect(kinds).toContain(k);
  });
});
