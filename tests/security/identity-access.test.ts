import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, verifiedAgent } from '#tests/helpers/factories';
import { outbox, scimUsers } from '#server/db/schema/index';
import { SCIM_SCHEMAS } from '#shared/schemas/scim';
import { installWriteCounter } from '#tests/helpers/db-snapshot';

/**
 * Access to the identity routes of issue 39 items 3 to 5 (decisions 39-02, 39-03): the owner's SCIM
 * and single sign-on settings and audit log (owner, admin, member, another team's owner, an outsider, a visitor,
 * staff), the staff's audit log, and every SCIM route by credential (this team's scim token,
 * another team's, a token without the scope, a team admin's scim token, none). IDOR: another
 * team's token tried on this team's user and group ids gets 404 and writes nothing.
 */
let t: TestApp;
type Who = 'owner' | 'admin' | 'member' | 'otherTeam' | 'outsider' | 'visitor' | 'staff';
const agents = {} as Record<Who, Agent>;
const secrets = {} as Record<'own' | 'other' | 'noScope' | 'adminMade', string>;
let userId = '';
let groupId = '';
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

async function token(agent: Agent, password: string, scopes: string[]) {
  const res = await agent.post('/api/tokens', { name: 'SCIM', scopes, expiresInDays: null, team: true, password });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().secret as string;
}

function scim(secret: string | null, method: string, path: string, body?: unknown) {
  return t.app.inject({
    method: method as 'GET',
    url: `/scim/v2${path}`,
    headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  const owner = await verifiedAgent(t.app);
  expect((await owner.agent.post('/api/team', { name: 'Team A', companyName: 'A Corp' })).statusCode).toBe(201);
  const admin = await inviteAndJoin(owner.agent, 'admin');
  const member = await inviteAndJoin(owner.agent, 'member');
  const other = await verifiedAgent(t.app);
  expect((await other.agent.post('/api/team', { name: 'Team B' })).statusCode).toBe(201);
  const outsider = await verifiedAgent(t.app);
  const staff = await adminAgent(t.app);
  Object.assign(agents, { owner: owner.agent, admin: admin.agent, member: member.agent, otherTeam: other.agent, outsider: outsider.agent, visitor: new Agent(t.app), staff: staff.agent });
  Object.assign(secrets, {
    own: await token(owner.agent, owner.input.password, ['scim']),
    other: await token(other.agent, other.input.password, ['scim']),
    noScope: await token(owner.agent, owner.input.password, ['team:read']),
    adminMade: await token(admin.agent, admin.input.password, ['scim']),
  });
  const u = await scim(secrets.own, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'ivy@team-a.test', active: true });
  expect(u.statusCode, u.body).toBe(201);
  userId = u.json().id;
  const g = await scim(secrets.own, 'POST', '/Groups', { schemas: [SCIM_SCHEMAS.group], displayName: 'Sales', members: [{ value: userId }] });
  expect(g.statusCode, g.body).toBe(201);
  groupId = g.json().id;
  writes = await installWriteCounter(t.app);
});
afterAll(async () => {
  await t?.close();
});

const rules = { fullName: 'always', jobTitle: 'always', email: 'create', phoneNumber: 'create', address: 'never', companyName: 'never' };

const OWNER_ONLY = { owner: 'ok', admin: 403, member: 403, otherTeam: 'ok', outsider: 404, visitor: 401, staff: 404 } as const;
const UNKNOWN_ID = { owner: 404, admin: 403, member: 403, otherTeam: 404, outsider: 404, visitor: 401, staff: 404 } as const;
const ANYONE = { owner: 'ok', admin: 'ok', member: 'ok', otherTeam: 'ok', outsider: 'ok', visitor: 'ok', staff: 'ok' } as const;
const someDomainId = '00000000-0000-4000-8000-000000000000';
const SSO_ROWS: { name: string; call: (a: Agent) => Promise<{ statusCode: number }>; expect: Record<Who, 'ok' | number> }[] = [
  { name: 'GET /api/team/sso', call: (a) => a.get('/api/team/sso'), expect: OWNER_ONLY },
  { name: 'POST /api/team/sso/domains', call: (a) => a.post('/api/team/sso/domains', { domain: `d${Math.random().toString(36).slice(2)}.test` }), expect: OWNER_ONLY },
  { name: 'POST /api/team/sso/domains/:id/verify', call: (a) => a.post(`/api/team/sso/domains/${someDomainId}/verify`), expect: UNKNOWN_ID },
  { name: 'DELETE /api/team/sso/domains/:id', call: (a) => a.request('DELETE', `/api/team/sso/domains/${someDomainId}`), expect: UNKNOWN_ID },
  // a loopback issuer is refused by the outbound guard (400) once the caller is the owner
  { name: 'PUT /api/team/sso/oidc', call: (a) => a.put('/api/team/sso/oidc', { issuer: 'https://127.0.0.1/', clientId: 'x', clientSecret: 'y' }), expect: { ...OWNER_ONLY, owner: 400, otherTeam: 400 } },
  { name: 'DELETE /api/team/sso/connection', call: (a) => a.request('DELETE', '/api/team/sso/connection'), expect: OWNER_ONLY },
  { name: 'PUT /api/team/sso/require', call: (a) => a.put('/api/team/sso/require', { requireSso: false }), expect: OWNER_ONLY },
  { name: 'POST /api/auth/sso/discover', call: (a) => a.post('/api/auth/sso/discover', { email: 'someone@team-a.test' }), expect: ANYONE },
  { name: 'GET /api/auth/sso/start', call: (a) => a.get('/api/auth/sso/start?email=someone%40team-a.test'), expect: { owner: 303, admin: 303, member: 303, otherTeam: 303, outsider: 303, visitor: 303, staff: 303 } },
  { name: 'GET /api/auth/sso/oidc/callback', call: (a) => a.get('/api/auth/sso/oidc/callback?state=x&code=y'), expect: { owner: 303, admin: 303, member: 303, otherTeam: 303, outsider: 303, visitor: 303, staff: 303 } },
];

/** Each /api route with what each caller must get: 'ok' is any 2xx; a number is that status. */
const MATRIX: { name: string; call: (a: Agent) => Promise<{ statusCode: number }>; expect: Record<Who, 'ok' | number> }[] = [
  { name: 'GET /api/team/scim/settings', call: (a) => a.get('/api/team/scim/settings'), expect: { owner: 'ok', admin: 403, member: 403, otherTeam: 'ok', outsider: 404, visitor: 401, staff: 404 } },
  { name: 'PUT /api/team/scim/settings', call: (a) => a.put('/api/team/scim/settings', { fieldRules: rules, adminGroup: 'Card admins' }), expect: { owner: 'ok', admin: 403, member: 403, otherTeam: 'ok', outsider: 404, visitor: 401, staff: 404 } },
  { name: 'GET /api/team/scim/synced-fields', call: (a) => a.get('/api/team/scim/synced-fields'), expect: { owner: 'ok', admin: 'ok', member: 'ok', otherTeam: 'ok', outsider: 'ok', visitor: 401, staff: 'ok' } },
  { name: 'GET /api/team/audit', call: (a) => a.get('/api/team/audit'), expect: { owner: 'ok', admin: 403, member: 403, otherTeam: 'ok', outsider: 404, visitor: 401, staff: 404 } },
  { name: 'GET /api/team/audit.csv', call: (a) => a.get('/api/team/audit.csv'), expect: { owner: 'ok', admin: 403, member: 403, otherTeam: 'ok', outsider: 404, visitor: 401, staff: 404 } },
  { name: 'GET /api/admin/audit', call: (a) => a.get('/api/admin/audit'), expect: { owner: 403, admin: 403, member: 403, otherTeam: 403, outsider: 403, visitor: 401, staff: 'ok' } },
  { name: 'GET /api/admin/audit.csv', call: (a) => a.get('/api/admin/audit.csv'), expect: { owner: 403, admin: 403, member: 403, otherTeam: 403, outsider: 403, visitor: 401, staff: 'ok' } },
  // team single sign-on (issue 39 item 3, decision 39-03): the owner's settings; an unknown domain id is 404 to everyone who gets that far
  ...SSO_ROWS,
];

describe('identity routes: the owner, the team, staff', () => {
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

  it("the owner's audit log holds their team's entries only", async () => {
    const own = (await agents.owner.get('/api/team/audit')).json();
    expect(own.events.length).toBeGreaterThan(0);
    const other = (await agents.otherTeam.get('/api/team/audit')).json();
    expect(other.events.some((e: { email: string | null }) => e.email === 'ivy@team-a.test')).toBe(false);
  });
});

/** Every SCIM route, with a body where it takes one. */
const SCIM_ROUTES = () =>
  [
    ['GET', '/Users'],
    ['POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: `new_${Math.random().toString(36).slice(2)}@team-a.test`, active: true }],
    ['GET', `/Users/${userId}`],
    ['PUT', `/Users/${userId}`, { schemas: [SCIM_SCHEMAS.user], userName: 'ivy@team-a.test', active: true, title: 'Changed' }],
    ['PATCH', `/Users/${userId}`, { schemas: [SCIM_SCHEMAS.patch], Operations: [{ op: 'replace', path: 'title', value: 'Patched' }] }],
    ['GET', '/Groups'],
    ['POST', '/Groups', { schemas: [SCIM_SCHEMAS.group], displayName: `G ${Math.random()}` }],
    ['GET', `/Groups/${groupId}`],
    ['PUT', `/Groups/${groupId}`, { schemas: [SCIM_SCHEMAS.group], displayName: 'Sales', members: [{ value: userId }] }],
    ['PATCH', `/Groups/${groupId}`, { schemas: [SCIM_SCHEMAS.patch], Operations: [{ op: 'add', path: 'members', value: [{ value: userId }] }] }],
  ] as Array<[string, string, unknown?]>;

describe('SCIM routes by credential', () => {
  it('only a scim token the team owner made gets in; none, a cookie, no scope or an admin-made token are refused before input is read', async () => {
    const failures: string[] = [];
    for (const [method, path, body] of SCIM_ROUTES()) {
      const checks: Array<[string, string | null, number]> = [
        ['none', null, 401],
        ['malformed', 'not-a-token', 401],
        ['no scim scope', secrets.noScope, 403],
        ["a team admin's scim token", secrets.adminMade, 403],
      ];
      for (const [who, secret, want] of checks) {
        const before = await writes();
        const res = await scim(secret, method, path, body);
        if (res.statusCode !== want) failures.push(`${method} ${path} ${who}: ${res.statusCode} (expected ${want})`);
        if (res.json().schemas?.[0] !== SCIM_SCHEMAS.error) failures.push(`${method} ${path} ${who}: not a SCIM error`);
        // a refusal writes its audit entry (and a token's last-used time, at most once a minute) and nothing else
        if ((await writes()) - before > 2) failures.push(`${method} ${path} ${who}: wrote to the database`);
      }
      const cookie = await t.app.inject({ method: method as 'GET', url: `/scim/v2${path}`, headers: { cookie: [...(agents.owner as unknown as { cookies: Map<string, string> }).cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      if (cookie.statusCode !== 401) failures.push(`${method} ${path} session cookie: ${cookie.statusCode}`);
      const own = await scim(secrets.own, method, path, body);
      if (own.statusCode >= 300) failures.push(`${method} ${path} own token: ${own.statusCode} ${own.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it("IDOR: another team's scim token on this team's user and group ids: 404, nothing changed", async () => {
    const failures: string[] = [];
    const routes = [...SCIM_ROUTES().filter(([, path]) => /\/(Users|Groups)\/[0-9a-f-]{36}$/.test(path)), ['DELETE', `/Users/${userId}`], ['DELETE', `/Groups/${groupId}`]] as Array<[string, string, unknown?]>;
    for (const [method, path, body] of routes) {
      const before = await writes();
      const res = await scim(secrets.other, method, path, body);
      if (res.statusCode !== 404) failures.push(`${method} ${path}: ${res.statusCode}`);
      if (res.body.includes('ivy@team-a.test')) failures.push(`${method} ${path}: shows the other team's user`);
      if ((await writes()) - before > 1) failures.push(`${method} ${path}: wrote to the database`);
    }
    // the lists of the other team hold nothing of this team
    const list = await scim(secrets.other, 'GET', '/Users');
    expect(list.body).not.toContain('ivy@team-a.test');
    expect(failures).toEqual([]);
    const [row] = await t.app.ctx.db.select().from(scimUsers).where(eq(scimUsers.id, userId));
    expect(row?.active).toBe(true);
  });
});
