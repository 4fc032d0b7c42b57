import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, verifiedAgent } from '#tests/helpers/factories';
import { authnRequestOf, createSamlIdp, makeSigningKey, type SamlIdp } from '#tests/helpers/saml-idp';
import { installWriteCounter } from '#tests/helpers/db-snapshot';
import { identityEvents, outbox, ssoConnections, ssoDomains, users } from '#server/db/schema/index';

/**
 * Access to the SAML routes of issue 39 item 3 (decision 39-04) by caller: the team owner, a team
 * admin, a member, another team's owner, an outsider, a visitor, staff. Only the owner reads or
 * changes the team's SAML connection; another team's owner only ever reaches their own. The
 * service provider routes are public by nature; a refusal there writes only its audit line. IDOR
 * across tenants: a response the identity provider made for team A, posted to team B's consumer
 * service (even when B connected the same IdP), signs nobody in.
 */
let t: TestApp;
type Who = 'owner' | 'admin' | 'member' | 'otherTeam' | 'outsider' | 'visitor' | 'staff';
const agents = {} as Record<Who, Agent>;
let teamA = '';
let teamB = '';
let idp: SamlIdp;
let writes: () => Promise<number>;

async function inviteAndJoin(owner: Agent, role: 'admin' | 'member') {
  const email = `${role}_${Math.random().toString(36).slice(2)}@example.com`;
  await owner.post('/api/team/invites', { invites: [{ email, fullName: `The ${role}`, role }] });
  const [mail] = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
  const token = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1];
  const p = await verifiedAgent(t.app, { email });
  expect((await p.agent.post(`/api/team/invites/${token}/accept`)).statusCode).toBe(200);
  return p;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off', SSO_ALLOW_PRIVATE_NETWORKS: 'true' } });
  idp = createSamlIdp({ key: makeSigningKey() });
  const owner = await verifiedAgent(t.app);
  const a = await owner.agent.post('/api/team', { name: 'Team A' });
  expect(a.statusCode).toBe(201);
  teamA = a.json().team.id;
  const admin = await inviteAndJoin(owner.agent, 'admin');
  const member = await inviteAndJoin(owner.agent, 'member');
  const other = await verifiedAgent(t.app);
  const b = await other.agent.post('/api/team', { name: 'Team B' });
  expect(b.statusCode).toBe(201);
  teamB = b.json().team.id;
  await t.app.ctx.db.insert(ssoDomains).values([
    { teamId: teamA, domain: 'team-a.test', token: 'a', verifiedAt: new Date() },
    { teamId: teamB, domain: 'team-b.test', token: 'b', verifiedAt: new Date() },
  ]);
  Object.assign(agents, { owner: owner.agent, admin: admin.agent, member: member.agent, otherTeam: other.agent, outsider: (await verifiedAgent(t.app)).agent, visitor: new Agent(t.app), staff: (await adminAgent(t.app)).agent });
  expect((await owner.agent.put('/api/team/sso/saml', { metadataXml: idp.metadataXml() })).statusCode).toBe(200);
  writes = await installWriteCounter(t.app);
});
afterAll(async () => {
  await t?.close();
});

const OWNER_ONLY = { owner: 'ok', admin: 403, member: 403, otherTeam: 'ok', outsider: 404, visitor: 401, staff: 404 } as const;
const ANYONE = (status: number | 'ok') => ({ owner: status, admin: status, member: status, otherTeam: status, outsider: status, visitor: status, staff: status });

const MATRIX: { name: string; call: (a: Agent) => Promise<{ statusCode: number; body: string }>; expect: Record<Who, 'ok' | number> }[] = [
  { name: 'GET /api/team/sso/saml', call: (a) => a.get('/api/team/sso/saml'), expect: OWNER_ONLY },
  { name: 'PUT /api/team/sso/saml', call: (a) => a.put('/api/team/sso/saml', { metadataXml: idp.metadataXml() }), expect: OWNER_ONLY },
  { name: 'GET /api/sso/saml/:teamId/metadata', call: (a) => a.get(`/api/sso/saml/${teamA}/metadata`), expect: ANYONE('ok') },
  { name: 'GET /api/sso/saml/:teamId/login', call: (a) => a.get(`/api/sso/saml/${teamA}/login`), expect: ANYONE(303) },
  {
    name: 'POST /api/sso/saml/:teamId/acs',
    call: (a) => a.request('POST', `/api/sso/saml/${teamA}/acs`, 'SAMLResponse=bm90IHNhbWw%3D', { 'content-type': 'application/x-www-form-urlencoded' }),
    expect: ANYONE(303),
  },
];

describe('SAML routes by caller', () => {
  it.each(MATRIX)('$name', async (row) => {
    const failures: string[] = [];
    for (const who of Object.keys(row.expect) as Who[]) {
      const res = await row.call(agents[who]);
      const want = row.expect[who];
      const ok = want === 'ok' ? res.statusCode >= 200 && res.statusCode < 300 : res.statusCode === want;
      if (!ok) failures.push(`${who}: ${res.statusCode} (expected ${want})`);
    }
    expect(failures).toEqual([]);
  });

  it("another team's owner sees and changes only their own team's connection (IDOR)", async () => {
    const before = await t.app.ctx.db.select().from(ssoConnections).where(eq(ssoConnections.teamId, teamA));
    const other = createSamlIdp({ entityId: 'https://idp.team-b.test/', key: makeSigningKey('team-b') });
    const put = await agents.otherTeam.put('/api/team/sso/saml', { metadataXml: other.metadataXml() });
    expect(put.statusCode).toBe(200);
    expect(put.json().sp.entityId).toContain(teamB);
    const get = await agents.otherTeam.get('/api/team/sso/saml');
    expect(get.body).not.toContain(teamA);
    expect(get.json().idp.entityId).toBe('https://idp.team-b.test/');
    const after = await t.app.ctx.db.select().from(ssoConnections).where(eq(ssoConnections.teamId, teamA));
    expect(after).toEqual(before);
    expect((await agents.owner.get('/api/team/sso/saml')).json().idp.entityId).toBe(idp.entityId);
  });

  it('a refusal by the guards writes nothing; a refused SAML post writes only its audit line', async () => {
    for (const who of ['admin', 'member', 'outsider', 'visitor', 'staff'] as Who[]) {
      const before = await writes();
      await agents[who].put('/api/team/sso/saml', { metadataXml: idp.metadataXml() });
      await agents[who].request('DELETE', '/api/team/sso/saml');
      expect(await writes(), who).toBe(before);
    }
    const before = await writes();
    await agents.visitor.request('POST', `/api/sso/saml/${teamA}/acs`, 'SAMLResponse=x', { 'content-type': 'application/x-www-form-urlencoded' });
    // (the identity audit line, when the counter sees that table)
    expect((await writes()) - before).toBeLessThanOrEqual(1);
  });

  it("a response made for team A, posted to team B's consumer service, signs nobody in even when B connected the same IdP", async () => {
    expect((await agents.otherTeam.put('/api/team/sso/saml', { metadataXml: idp.metadataXml() })).statusCode).toBe(200);
    const spA = (await agents.owner.get('/api/team/sso/saml')).json().sp;
    // a browser that started a sign-in at team B
    const browser = new Agent(t.app);
    const start = await browser.get(`/api/sso/saml/${teamB}/login`);
    const { id } = authnRequestOf(String(start.headers.location));
    // the IdP's response for team A's SP, naming B's request and an address of B's domain
    const response = idp.response({ audience: spA.entityId, acsUrl: spA.acsUrl, inResponseTo: id, nameId: 'eve@team-b.test' });
    const usersBefore = await t.app.ctx.db.select({ id: users.id }).from(users);
    const res = await browser.request('POST', `/api/sso/saml/${teamB}/acs`, `SAMLResponse=${encodeURIComponent(response)}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.headers.location).toBe('/login?sso_error=failed');
    expect((await browser.get('/api/team')).statusCode).toBe(401);
    expect(await t.app.ctx.db.select({ id: users.id }).from(users)).toHaveLength(usersBefore.length);
    const [failure] = await t.app.ctx.db.select().from(identityEvents).where(eq(identityEvents.kind, 'sso-sign-in-failed')).orderBy(desc(identityEvents.at)).limit(1);
    expect(JSON.stringify(failure?.detail)).toMatch(/audience mismatch/);
  });

  it('DELETE /api/team/sso/saml: the owner only', async () => {
    const failures: string[] = [];
    for (const who of ['admin', 'member', 'outsider', 'visitor', 'staff'] as Who[]) {
      const res = await agents[who].request('DELETE', '/api/team/sso/saml');
      if (res.statusCode !== OWNER_ONLY[who]) failures.push(`${who}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect((await agents.owner.get('/api/team/sso/saml')).json().idp).not.toBeNull();
    const res = await agents.owner.request('DELETE', '/api/team/sso/saml');
    expect(res.statusCode).toBe(200);
    expect(res.json().idp).toBeNull();
    // the other team's connection stays
    expect((await agents.otherTeam.get('/api/team/sso/saml')).json().idp).not.toBeNull();
  });
});
