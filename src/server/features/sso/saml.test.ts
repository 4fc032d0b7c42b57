import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, like, sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { verifiedAgent } from '#tests/helpers/factories';
import { authnRequestOf, b64, createSamlIdp, makeSigningKey, signElement, wrapAssertion, type ResponseOptions, type SamlIdp } from '#tests/helpers/saml-idp';
import { identityEvents, samlMessageIds, ssoConnections, ssoDomains, users } from '#server/db/schema/index';

/**
 * SAML 2.0 sign-in for teams (issue 39 item 3, decision 39-04) against the test identity provider
 * (tests/helpers/saml-idp.ts): the owner's settings (metadata pasted or by address, field
 * messages), our SP metadata, the redirect with its AuthnRequest, the happy path (a new person
 * lands in the team with their profile filled), and every check of the assertion consumer service:
 * each refusal goes to the sign-in page, says why in the audit log, and writes no account, session
 * or assertion.
 */

let t: TestApp;
let idp: SamlIdp;
let owner: Agent;
let teamId = '';
let sp: { entityId: string; acsUrl: string; metadataUrl: string };
let metadataServer: http.Server;
let metadataBase = '';
const WS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off', SSO_ALLOW_PRIVATE_NETWORKS: 'true' } });
  idp = createSamlIdp({ key: makeSigningKey('idp.corp.example') });
  const o = await verifiedAgent(t.app);
  owner = o.agent;
  const created = await owner.post('/api/team', { name: 'Corp', companyName: 'Corp Inc' });
  expect(created.statusCode, created.body).toBe(201);
  teamId = created.json().team.id;
  await t.app.ctx.db.insert(ssoDomains).values({ teamId, domain: 'corp.example', token: 'x', verifiedAt: new Date() });
  metadataServer = http.createServer((req, res) => {
    if (req.url === '/metadata') return void res.writeHead(200, { 'content-type': 'application/xml' }).end(idp.metadataXml());
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/metadata' }).end();
    if (req.url === '/huge') return void res.writeHead(200).end(`<x>${'a'.repeat(1100 * 1024)}</x>`);
    if (req.url === '/html') return void res.writeHead(200).end('<html><body>Sign in</body></html>');
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => metadataServer.listen(0, '127.0.0.1', r));
  metadataBase = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}`;
  const saved = await owner.put('/api/team/sso/saml', { metadataXml: idp.metadataXml() });
  expect(saved.statusCode, saved.body).toBe(200);
  sp = saved.json().sp;
});

afterAll(async () => {
  await new Promise((r) => metadataServer?.close(r));
  await t?.close();
});

/** A browser that has started a SAML sign-in: its cookie jar and the AuthnRequest's ID. */
async function startSignIn(returnTo = '/team') {
  const browser = new Agent(t.app);
  const res = await browser.get(`/api/sso/saml/${teamId}/login?returnTo=${encodeURIComponent(returnTo)}`);
  expect(res.statusCode, res.body).toBe(303);
  const location = String(res.headers.location);
  expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
  const request = authnRequestOf(location);
  return { browser, requestId: request.id, request };
}

function postAcs(browser: Agent, samlResponse: string, extra: Record<string, string> = {}) {
  return browser.request('POST', `/api/sso/saml/${teamId}/acs`, `SAMLResponse=${encodeURIComponent(samlResponse)}&RelayState=`, {
    'content-type': 'application/x-www-form-urlencoded',
    // the IdP's page posts cross-site
    origin: 'https://idp.example.test',
    'sec-fetch-site': 'cross-site',
    ...extra,
  });
}

const options = (requestId: string, o: Partial<ResponseOptions> = {}): ResponseOptions => ({
  audience: sp.entityId,
  acsUrl: sp.acsUrl,
  inResponseTo: requestId,
  nameId: 'ada@corp.example',
  attributes: { [`${WS}givenname`]: 'Ada', [`${WS}surname`]: 'Lovelace', 'http://schemas.microsoft.com/identity/claims/jobtitle': 'Analyst' },
  ...o,
});

async function lastFailure(): Promise<string> {
  const [row] = await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.kind, 'sso-sign-in-failed')).orderBy(desc(identityEvents.at)).limit(1);
  return String((row?.detail as { reason?: string } | undefined)?.reason ?? '');
}

async function counts() {
  const [u] = await t.app.ctx.db.select({ n: sql<number>`count(*)::int` }).from(users);
  const [a] = await t.app.ctx.db.select({ n: sql<number>`count(*)::int` }).from(samlMessageIds).where(like(samlMessageIds.key, 'asn:%'));
  return { users: u!.n, assertions: a!.n };
}

/**
 * Posts `response` from `browser` and expects a refusal whose audit reason matches `reason`, with
 * no account, session or assertion written (`spent`: a refusal after every SAML check passed, by
 * sso-core's rules, has used its valid assertion up).
 */
async function expectRefused(browser: Agent, response: string, reason: RegExp, code = 'failed', spent = 0) {
  const before = await counts();
  const res = await postAcs(browser, response);
  expect(res.statusCode, res.body).toBe(303);
  expect(res.headers.location).toBe(`/login?sso_error=${code}`);
  expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/(^|, )(__Host-)?sid=/);
  expect(await lastFailure()).toMatch(reason);
  expect(await counts()).toEqual({ ...before, assertions: before.assertions + spent });
  expect((await browser.get('/api/team')).statusCode).toBe(401);
}

describe('the owner connects the identity provider', () => {
  it('shows our SP addresses and the IdP as saved', async () => {
    const res = await owner.get('/api/team/sso/saml');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sp.entityId).toMatch(new RegExp(`/api/sso/saml/${teamId}/metadata$`));
    expect(body.sp.acsUrl).toMatch(new RegExp(`/api/sso/saml/${teamId}/acs$`));
    expect(body.idp).toMatchObject({ entityId: idp.entityId, ssoUrl: idp.ssoUrl, metadataUrl: null });
    expect(body.idp.certificates[0].subject).toContain('idp.corp.example');
    const [conn] = await t.app.ctx.db.select().from(ssoConnections).where(eq(ssoConnections.teamId, teamId));
    expect(conn?.kind).toBe('saml');
  });

  it('serves our SP metadata as XML with the entity id and the ACS', async () => {
    const res = await new Agent(t.app).get(`/api/sso/saml/${teamId}/metadata`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain(`entityID="${sp.entityId}"`);
    expect(res.body).toContain(`Location="${sp.acsUrl}"`);
    expect(res.body).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect((await new Agent(t.app).get('/api/sso/saml/not-a-uuid/metadata')).statusCode).toBe(400);
  });

  it('downloads metadata from an address, through the outbound guard', async () => {
    const ok = await owner.put('/api/team/sso/saml', { metadataUrl: `${metadataBase}/metadata` });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().idp.metadataUrl).toBe(`${metadataBase}/metadata`);
    const bad = async (url: string, message: RegExp) => {
      const res = await owner.put('/api/team/sso/saml', { metadataUrl: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.metadataUrl, url).toMatch(message);
    };
    await bad(`${metadataBase}/redirect`, /redirect/);
    await bad(`${metadataBase}/missing`, /HTTP 500/);
    await bad(`${metadataBase}/huge`, /too large/);
    await bad(`${metadataBase}/html`, /not SAML 2.0 metadata/);
    await bad('ftp://example.com/x', /address/);
    // without the test-only setting, loopback, private and metadata networks are refused
    const config = t.app.ctx.config as { SSO_ALLOW_PRIVATE_NETWORKS: boolean };
    config.SSO_ALLOW_PRIVATE_NETWORKS = false;
    try {
      await bad(`https://127.0.0.1:${new URL(metadataBase).port}/metadata`, /not allowed/);
      await bad('https://169.254.169.254/latest/meta-data', /not allowed/);
      await bad('https://[::ffff:10.0.0.1]/md', /not allowed/);
      await bad(`${metadataBase}/metadata`, /https/);
    } finally {
      config.SSO_ALLOW_PRIVATE_NETWORKS = true;
    }
    expect((await owner.put('/api/team/sso/saml', { metadataXml: idp.metadataXml() })).statusCode).toBe(200);
  });

  it('refuses bad metadata with a field message and keeps the saved connection', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ metadataXml: '<not xml' }, 'metadataXml', /malformed|well-formed/],
      [{ metadataXml: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' }, 'metadataXml', /DOCTYPE/],
      [{ metadataXml: idp.metadataXml().replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, '') }, 'metadataXml', /no signing certificate/],
      [{}, 'metadataXml', /one of the two/],
      [{ metadataXml: idp.metadataXml(), metadataUrl: `${metadataBase}/metadata` }, 'metadataXml', /one of the two/],
      [{ metadataXml: 'x'.repeat(1024 * 1024 + 1) }, 'metadataXml', /too large/],
    ];
    for (const [body, field, message] of cases) {
      const res = await owner.put('/api/team/sso/saml', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().errors?.[field], JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    expect((await owner.get('/api/team/sso/saml')).json().idp.entityId).toBe(idp.entityId);
  });
});

describe('signing in through the identity provider', () => {
  it('sends the browser to the IdP with an AuthnRequest for our entity id and ACS', async () => {
    const { request } = await startSignIn();
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${sp.acsUrl}"`);
    expect(request.xml).toContain(`Destination="${idp.ssoUrl}"`);
    expect(request.xml).toContain(`>${sp.entityId}</saml:Issuer>`);
    expect(request.xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(request.id).toMatch(/^_[0-9a-f]{40}$/);
  });

  it('signs a new person in, creates the account and the membership, fills the profile (just in time)', async () => {
    const { browser, requestId } = await startSignIn('/team');
    const res = await postAcs(browser, idp.response(options(requestId)));
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/team');
    const team = await browser.get('/api/team');
    expect(team.statusCode).toBe(200);
    expect(team.json()).toMatchObject({ role: 'member', team: { id: teamId } });
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'ada@corp.example'));
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    const [ok] = await t.app.ctx.db.select().from(identityEvents).where(and(eq(identityEvents.kind, 'sso-sign-in'), eq(identityEvents.userId, user!.id)));
    expect(ok?.detail).toMatchObject({ method: 'saml', accountCreated: true });
  });

  it('accepts a response signed as a whole (the assertion unsigned inside it)', async () => {
    const { browser, requestId } = await startSignIn('/profile');
    const res = await postAcs(browser, idp.response(options(requestId, { sign: 'response' })));
    expect(res.headers.location).toBe('/profile');
    expect((await browser.get('/api/team')).json().role).toBe('member');
  });

  it('refuses a replayed response, even with the browser cookie of its request', async () => {
    const { browser, requestId } = await startSignIn();
    const cookie = browser.cookies.get('saml_rq')!;
    const response = idp.response(options(requestId));
    expect((await postAcs(browser, response)).headers.location).toBe('/team');
    const attacker = new Agent(t.app);
    attacker.cookies.set('saml_rq', cookie);
    await expectRefused(attacker, response, /already used \(replay\)/);
  });

  it('refuses a second assertion for a request already answered', async () => {
    const { browser, requestId } = await startSignIn();
    const cookie = browser.cookies.get('saml_rq')!;
    expect((await postAcs(browser, idp.response(options(requestId)))).headers.location).toBe('/team');
    const again = new Agent(t.app);
    again.cookies.set('saml_rq', cookie);
    await expectRefused(again, idp.response(options(requestId)), /already answered/);
  });
});

describe('every check of the assertion consumer service', () => {
  const cases: Array<[string, (id: string) => string, RegExp]> = [
    ['an unsigned response', (id) => idp.response(options(id, { sign: 'none' })), /Invalid signature/],
    ['a response signed by another key', (id) => idp.response(options(id, { signer: otherKey })), /Invalid signature/],
    ['an assertion changed after signing', (id) => b64(idp.responseXml(options(id)).replace('>ada@corp.example<', '>boss@corp.example<')), /Invalid signature/],
    ['a response changed after signing (response signature)', (id) => b64(idp.responseXml(options(id, { sign: 'response' })).replace('>Analyst<', '>Director<')), /Invalid signature/],
    ['another audience', (id) => idp.response(options(id, { audience: 'https://other-sp.example/metadata' })), /audience mismatch/],
    ['an expired assertion', (id) => idp.response(options(id, { notBefore: Date.now() - 20 * 60_000, notOnOrAfter: Date.now() - 10 * 60_000 })), /expired|No valid subject confirmation/],
    ['an assertion not yet valid', (id) => idp.response(options(id, { notBefore: Date.now() + 10 * 60_000 })), /not yet valid/],
    ['another recipient', (id) => idp.response(options(id, { recipient: 'https://evil.example/acs' })), /Recipient/],
    ['another destination', (id) => idp.response(options(id, { destination: 'https://evil.example/acs' })), /Destination/],
    ['another issuer', (id) => idp.response(options(id, { issuer: 'https://evil-idp.example/' })), /issuer/],
    ['a request we never issued', () => idp.response(options('_never_issued_0000')), /InResponseTo is not valid/],
    ['an IdP-initiated response (no InResponseTo)', () => idp.response(options('', { inResponseTo: undefined })), /InResponseTo is missing/],
    ['signature wrapping (a signed assertion moved into an unsigned one)', (id) => b64(wrapAssertion(idp.responseXml(options(id)), 'boss@corp.example')), /signature|assertion/i],
    [
      'signature wrapping of a signed response (an unsigned evil assertion beside the signed one)',
      (id) => {
        const xml = idp.responseXml(options(id));
        const start = xml.indexOf('<saml:Assertion');
        const evil = xml.slice(start, xml.indexOf('</saml:Assertion>') + 17).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace('>ada@corp.example<', '>boss@corp.example<').replace(/ID="[^"]+"/, 'ID="_evil"');
        return b64(xml.slice(0, start) + evil + xml.slice(start));
      },
      /multiple assertions|Invalid signature/,
    ],
    ['a DOCTYPE with entities', (id) => b64(`<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">]>${idp.responseXml(options(id))}`), /DOCTYPE/],
    ['an oversized response', (id) => b64(idp.responseXml(options(id, { attributes: { big: 'x'.repeat(300 * 1024) } }))), /too large/],
    ['text that is not base64', () => '<samlp:Response>', /not base64/],
    ['a response with an error status', (id) => b64(idp.responseXml(options(id)).replace('status:Success', 'status:Requester')), /status is not Success \(urn:oasis:names:tc:SAML:2.0:status:Requester\)/],
    ['an assertion without an e-mail address', (id) => idp.response(options(id, { nameId: 'opaque-123', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', attributes: {} })), /no e-mail/],
  ];
  let otherKey: ReturnType<typeof makeSigningKey>;
  beforeAll(() => {
    otherKey = makeSigningKey('attacker.example');
  });

  it.each(cases)('refuses %s', async (_what, make, reason) => {
    const { browser, requestId } = await startSignIn();
    await expectRefused(browser, make(requestId), reason);
  });

  it('refuses a response to a sign-in another browser started (no cookie, or the cookie of another request)', async () => {
    const victim = await startSignIn();
    const attackerStart = await startSignIn();
    // the attacker's own valid response, posted into the victim's browser (login CSRF)
    await expectRefused(victim.browser, idp.response(options(attackerStart.requestId, { nameId: 'mallory@corp.example' })), /did not start/);
    await expectRefused(new Agent(t.app), idp.response(options(attackerStart.requestId)), /cookie is missing/);
  });

  it('refuses an address outside the team verified domains (sso-core rule)', async () => {
    const { browser, requestId } = await startSignIn();
    await expectRefused(browser, idp.response(options(requestId, { nameId: 'ada@elsewhere.example' })), /not a verified domain/, 'wrong-domain', 1);
  });

  it('refuses a signed message of a certificate that was replaced in the settings', async () => {
    const rotated = createSamlIdp({ entityId: idp.entityId, ssoUrl: idp.ssoUrl, key: otherKey });
    expect((await owner.put('/api/team/sso/saml', { metadataXml: rotated.metadataXml() })).statusCode).toBe(200);
    try {
      const { browser, requestId } = await startSignIn();
      await expectRefused(browser, idp.response(options(requestId)), /Invalid signature/);
    } finally {
      expect((await owner.put('/api/team/sso/saml', { metadataXml: idp.metadataXml() })).statusCode).toBe(200);
    }
  });

  it('takes the form only at the ACS: another route refuses x-www-form-urlencoded and cross-site posts', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a&password=b' });
    expect(res.statusCode).toBe(415);
    const cross = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json', origin: 'https://idp.example.test' }, payload: '{}' });
    expect(cross.statusCode).toBe(403);
  });

  it('refuses a wrapped document re-signed with the attacker\'s own key', async () => {
    // an attacker holding no key cannot re-sign; re-signing with their own key is refused
    const { browser, requestId } = await startSignIn();
    const wrapped = wrapAssertion(idp.responseXml(options(requestId)), 'boss@corp.example');
    await expectRefused(browser, b64(signElement(wrapped.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, ''), 'Response', otherKey)), /signature/i);
  });
});
