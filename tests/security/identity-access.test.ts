import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent, verifiedAgent } from '#tests/helpers/factories';
import { outbox, scimGroups, scimUsers } from '#server/db/schema/index';
import { SCIM_SCHEMAS } from '#shared/schemas/scim';
import { installWriteCounter } from '#tests/helpers/db-snapshot';
import { SoftAuthenticator } from '#tests/helpers/soft-authenticator';
import { totpCode, totpStep } from '#server/features/auth/totp';

/**
 * Access to the identity routes of issue 39 items 3 to 5 (decisions 39-02, 39-03): the owner's SCIM
 * and single sign-on settings and audit log (owner, admin, member, another team's owner, an outsider, a visitor,
 * staff), the staff's audit log, and every SCIM route by credential (this team's scim token,
 * another team's, a token without the scope, a team admin's scim token, a session, none), the
 * public SCIM discovery documents, and the two-factor and passkey routes of items 1 and 2 (signed
 * out, another user, the user). IDOR: another team's token tried on this team's user and group ids
 * gets 404 and writes nothing; another user's session reaches nothing of the user's factors.
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

const cookieOf = (a: Agent) => [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

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
      for (const who of ['owner', 'admin'] as const) {
        const cookie = await t.app.inject({ method: method as 'GET', url: `/scim/v2${path}`, headers: { cookie: cookieOf(agents[who]) } });
        if (cookie.statusCode !== 401) failures.push(`${method} ${path} the team ${who}'s session cookie: ${cookie.statusCode}`);
      }
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

  it('DELETE /Users/:id and /Groups/:id: none, a malformed token, no scim scope, a team admin\'s token or session are refused, nothing deleted; the owner\'s token deletes', async () => {
    const u = await scim(secrets.own, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: `gone_${Math.random().toString(36).slice(2)}@team-a.test`, active: true });
    expect(u.statusCode, u.body).toBe(201);
    const g = await scim(secrets.own, 'POST', '/Groups', { schemas: [SCIM_SCHEMAS.group], displayName: `Gone ${Math.random()}`, members: [{ value: u.json().id }] });
    expect(g.statusCode, g.body).toBe(201);
    const targets = [`/Users/${u.json().id}`, `/Groups/${g.json().id}`];
    const failures: string[] = [];
    for (const path of targets) {
      const checks: Array<[string, () => ReturnType<typeof scim>, number]> = [
        ['none', () => scim(null, 'DELETE', path), 401],
        ['malformed', () => scim('not-a-token', 'DELETE', path), 401],
        ['no scim scope', () => scim(secrets.noScope, 'DELETE', path), 403],
        ["a team admin's scim token", () => scim(secrets.adminMade, 'DELETE', path), 403],
        ["the team admin's session", () => t.app.inject({ method: 'DELETE', url: `/scim/v2${path}`, headers: { cookie: cookieOf(agents.admin) } }), 401],
        ["the team owner's session", () => t.app.inject({ method: 'DELETE', url: `/scim/v2${path}`, headers: { cookie: cookieOf(agents.owner) } }), 401],
      ];
      for (const [who, call, want] of checks) {
        const before = await writes();
        const res = await call();
        if (res.statusCode !== want) failures.push(`DELETE ${path} ${who}: ${res.statusCode} (expected ${want})`);
        if (res.json().schemas?.[0] !== SCIM_SCHEMAS.error) failures.push(`DELETE ${path} ${who}: not a SCIM error`);
        if ((await writes()) - before > 2) failures.push(`DELETE ${path} ${who}: wrote to the database`);
      }
    }
    expect(failures).toEqual([]);
    // still there, the user still active and in the group
    const [userRow] = await t.app.ctx.db.select().from(scimUsers).where(eq(scimUsers.id, u.json().id));
    expect(userRow?.active).toBe(true);
    expect(await t.app.ctx.db.select().from(scimGroups).where(eq(scimGroups.id, g.json().id))).toHaveLength(1);
    expect((await scim(secrets.own, 'GET', `/Groups/${g.json().id}`)).json().members).toEqual([expect.objectContaining({ value: u.json().id })]);
    // the owner's token: 204 each, then 404
    for (const path of targets) {
      expect((await scim(secrets.own, 'DELETE', path)).statusCode, path).toBe(204);
      expect((await scim(secrets.own, 'GET', path)).statusCode, path).toBe(404);
    }
  });
});

describe('SCIM discovery (RFC 7644 section 4): public, never a 500', () => {
  const DOCS = [
    '/ServiceProviderConfig',
    '/ResourceTypes',
    '/ResourceTypes/User',
    '/ResourceTypes/Group',
    '/Schemas',
    `/Schemas/${encodeURIComponent(SCIM_SCHEMAS.user)}`,
    `/Schemas/${encodeURIComponent(SCIM_SCHEMAS.enterprise)}`,
    `/Schemas/${encodeURIComponent(SCIM_SCHEMAS.group)}`,
  ];

  it('every document answers without credentials (and the same with any), in application/scim+json', async () => {
    const failures: string[] = [];
    const callers: Array<[string, Record<string, string>]> = [
      ['no credentials', {}],
      ['a session cookie', { cookie: cookieOf(agents.owner) }],
      ['a token without the scim scope', { authorization: `Bearer ${secrets.noScope}` }],
      ['the scim token', { authorization: `Bearer ${secrets.own}` }],
    ];
    for (const path of DOCS) {
      for (const [who, headers] of callers) {
        const res = await t.app.inject({ method: 'GET', url: `/scim/v2${path}`, headers });
        if (res.statusCode !== 200) failures.push(`${path} ${who}: ${res.statusCode}`);
        else if (!/^application\/scim\+json/.test(String(res.headers['content-type']))) failures.push(`${path} ${who}: ${res.headers['content-type']}`);
        else if (!Array.isArray(res.json().schemas)) failures.push(`${path} ${who}: no schemas`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('unknown, malformed and oversized ids, other methods and odd queries: 4xx, never a 500; unknown ids in the SCIM error schema', async () => {
    const failures: string[] = [];
    const unknown = ['/ResourceTypes/Printer', '/ResourceTypes/user%20', `/Schemas/${encodeURIComponent('urn:ietf:params:scim:schemas:core:2.0:Printer')}`, '/Schemas/nope', `/Schemas/${'x'.repeat(3000)}`, '/Schemas/%E2%80%AE%00', '/ResourceTypes/..%2F..%2FUsers'];
    for (const path of unknown) {
      const res = await t.app.inject({ method: 'GET', url: `/scim/v2${path}` });
      if (res.statusCode < 400 || res.statusCode >= 500) failures.push(`GET ${path}: ${res.statusCode}`);
      else if (res.statusCode === 404 && res.json().schemas?.[0] !== SCIM_SCHEMAS.error) failures.push(`GET ${path}: not a SCIM error`);
    }
    const odd: Array<[string, string, string?]> = [
      ['GET', '/Schemas/%E0%A4%A'],
      ['GET', '/ServiceProviderConfig?filter=((('],
      ['GET', '/ResourceTypes?startIndex=-1&count=abc'],
      ['POST', '/ServiceProviderConfig', '{}'],
      ['PUT', '/Schemas', '{"schemas":[]}'],
      ['DELETE', '/ResourceTypes/User'],
      ['PATCH', '/Schemas/x', 'not json'],
    ];
    for (const [method, path, payload] of odd) {
      const res = await t.app.inject({ method: method as 'GET', url: `/scim/v2${path}`, headers: payload ? { 'content-type': 'application/scim+json' } : {}, payload });
      if (res.statusCode >= 500) failures.push(`${method} ${path}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});

// ---- two-factor and passkeys (issue 39 items 1 and 2, decision 39-01): signed out, another user, the user

type Person = 'visitor' | 'otherUser' | 'theUser';
/** In this order: the user's own call comes last, so a call that changes their factors runs after the refused ones. */
const PEOPLE: Person[] = ['visitor', 'otherUser', 'theUser'];
// app.inject's requests come to http://localhost (no PUBLIC_URL): the relying party is localhost
const ORIGIN = 'http://localhost';
const codeAt = (secret: string, delta = 0) => totpCode(secret, totpStep() + delta);

interface Account {
  agent: Agent;
  id: string;
  email: string;
  password: string;
  /** the TOTP secret ('' when none) */
  secret: string;
}
interface Factors {
  user: Account;
  other: Account;
  visitor: Agent;
  /** the user's authenticator, holding their passkey (when the fixture made one) */
  auth: SoftAuthenticator;
  passkeyId: string;
}

/** A signed-in account; TOTP 'on' (confirmed), 'pending' (set up, not confirmed) or 'off'. */
async function account(totp: 'on' | 'pending' | 'off'): Promise<Account> {
  // a password of its own (the factories' default is shared): another user's password is not the user's
  const { agent, user, input } = await signedInAgent(t.app, { password: `pw-${Math.random().toString(36).slice(2)}-1` });
  let secret = '';
  if (totp !== 'off') {
    const setup = await agent.post('/api/account/two-factor/totp');
    expect(setup.statusCode, setup.body).toBe(200);
    secret = setup.json().secret;
    if (totp === 'on') expect((await agent.post('/api/account/two-factor/totp/confirm', { code: codeAt(secret) })).statusCode).toBe(200);
  }
  return { agent, id: user.id, email: input.email, password: input.password, secret };
}

/**
 * A fresh pair for each row (a row may turn a factor off): the user (TOTP on and a passkey unless
 * said) and another user (TOTP on unless said), and a visitor.
 */
async function factors(opts: { user?: 'on' | 'pending'; other?: 'on' | 'pending' | 'off'; passkey?: boolean } = {}): Promise<Factors> {
  const user = await account(opts.user ?? 'on');
  const other = await account(opts.other ?? 'on');
  const auth = new SoftAuthenticator(ORIGIN);
  let passkeyId = '';
  if (opts.passkey ?? true) {
    const options = (await user.agent.post('/api/account/passkeys/options')).json().options;
    const added = await user.agent.post('/api/account/passkeys', { name: 'User key', credential: auth.create(options) });
    expect(added.statusCode, added.body).toBe(201);
    passkeyId = added.json().id;
  }
  return { user, other, visitor: new Agent(t.app), auth, passkeyId };
}

const agentOf = (f: Factors, who: Person) => (who === 'visitor' ? f.visitor : who === 'otherUser' ? f.other.agent : f.user.agent);
type Res = { statusCode: number; body: string; json: () => any };

interface FactorRow {
  name: string;
  setup?: Parameters<typeof factors>[0];
  call: (f: Factors, who: Person) => Promise<Res>;
  expect: Record<Person, 'ok' | number>;
  /** after each call: what must hold (a failure message, or nothing) */
  check?: (f: Factors, who: Person, res: Res) => Promise<string | undefined>;
}

const statusOf = async (a: Agent) => (await a.get('/api/account/two-factor')).json() as { totp: string; passkeys: number };
const namesOfPasskeys = async (a: Agent) => ((await a.get('/api/account/passkeys')).json().passkeys as Array<{ name: string }>).map((p) => p.name);
/** The user's factors are as the fixture made them (nobody else changed them). */
const userUntouched = async (f: Factors, who: Person) => {
  if (who === 'theUser') return undefined;
  const s = await statusOf(f.user.agent);
  return s.totp === 'on' && s.passkeys === (f.passkeyId ? 1 : 0) ? undefined : `after ${who}: the user's factors changed (${JSON.stringify(s)})`;
};

const FACTOR_ROWS: FactorRow[] = [
  {
    name: 'GET /api/account/two-factor',
    call: (f, who) => agentOf(f, who).get('/api/account/two-factor'),
    expect: { visitor: 401, otherUser: 'ok', theUser: 'ok' },
    // each answers for their own account: the other user has no passkey
    check: async (f, who, res) => (who !== 'visitor' && res.json().passkeys !== (who === 'theUser' ? 1 : 0) ? `${who} read ${res.body}` : undefined),
  },
  {
    name: 'POST /api/account/two-factor/totp',
    setup: { other: 'off' },
    call: (f, who) => agentOf(f, who).post('/api/account/two-factor/totp'),
    // another user starts their own set-up; the user's is on already
    expect: { visitor: 401, otherUser: 'ok', theUser: 409 },
    check: userUntouched,
  },
  {
    name: 'POST /api/account/two-factor/totp/confirm',
    setup: { user: 'pending', other: 'pending', passkey: false },
    // everyone sends the code of the user's authenticator app
    call: (f, who) => agentOf(f, who).post('/api/account/two-factor/totp/confirm', { code: codeAt(f.user.secret) }),
    expect: { visitor: 401, otherUser: 400, theUser: 'ok' },
    check: async (f, who) => ((await statusOf(f.other.agent)).totp !== 'pending' ? `after ${who}: the other user's set-up changed` : undefined),
  },
  {
    name: 'DELETE /api/account/two-factor/totp',
    // everyone sends the user's password
    call: (f, who) => agentOf(f, who).request('DELETE', '/api/account/two-factor/totp', { password: f.user.password }),
    expect: { visitor: 401, otherUser: 400, theUser: 'ok' },
    check: async (f, who) => (await userUntouched(f, who)) ?? ((await statusOf(f.other.agent)).totp !== 'on' ? `after ${who}: the other user's TOTP is off` : undefined),
  },
  {
    name: 'GET /api/account/passkeys',
    call: (f, who) => agentOf(f, who).get('/api/account/passkeys'),
    expect: { visitor: 401, otherUser: 'ok', theUser: 'ok' },
    check: async (f, who, res) => (who === 'otherUser' && res.json().passkeys.length !== 0 ? `the other user sees ${res.body}` : undefined),
  },
  {
    name: 'POST /api/account/passkeys/options',
    call: (f, who) => agentOf(f, who).post('/api/account/passkeys/options'),
    expect: { visitor: 401, otherUser: 'ok', theUser: 'ok' },
    // the options name the caller's own account
    check: async (f, who, res) => (who !== 'visitor' && res.json().options.user.name !== (who === 'theUser' ? f.user.email : f.other.email) ? `${who} got ${res.json().options.user.name}` : undefined),
  },
  {
    name: 'POST /api/account/passkeys',
    // everyone sends an answer to a ceremony the user started
    call: async (f, who) => {
      const options = (await f.user.agent.post('/api/account/passkeys/options')).json().options;
      return agentOf(f, who).post('/api/account/passkeys', { name: `Key of ${who}`, credential: f.auth.create(options) });
    },
    expect: { visitor: 401, otherUser: 400, theUser: 201 },
    check: async (f, who) => {
      if ((await namesOfPasskeys(f.other.agent)).length) return `after ${who}: the other user has a passkey`;
      return (await userUntouched(f, who)) ?? undefined;
    },
  },
  {
    name: 'PATCH /api/account/passkeys/:id',
    call: (f, who) => agentOf(f, who).patch(`/api/account/passkeys/${f.passkeyId}`, { name: `Renamed by ${who}` }),
    expect: { visitor: 401, otherUser: 404, theUser: 'ok' },
    check: async (f, who) => {
      const names = await namesOfPasskeys(f.user.agent);
      return names[0] === (who === 'theUser' ? 'Renamed by theUser' : 'User key') ? undefined : `after ${who}: ${names.join(', ')}`;
    },
  },
  {
    name: 'DELETE /api/account/passkeys/:id',
    call: (f, who) => agentOf(f, who).delete(`/api/account/passkeys/${f.passkeyId}`),
    expect: { visitor: 401, otherUser: 404, theUser: 'ok' },
    check: userUntouched,
  },
  {
    name: 'POST /api/auth/passkey/options',
    call: (f, who) => agentOf(f, who).post('/api/auth/passkey/options'),
    expect: { visitor: 'ok', otherUser: 'ok', theUser: 'ok' },
  },
  {
    name: "POST /api/auth/passkey (the user's passkey: it signs the user in, whoever's session sends it)",
    call: async (f, who) => {
      const a = agentOf(f, who);
      const options = (await a.post('/api/auth/passkey/options')).json().options;
      return a.post('/api/auth/passkey', { credential: f.auth.get(options) });
    },
    expect: { visitor: 'ok', otherUser: 'ok', theUser: 'ok' },
    check: async (f, who, res) => {
      const me = (await agentOf(f, who).get('/api/auth/user')).json();
      return res.json().id === f.user.id && me.id === f.user.id ? undefined : `${who}: signed in as ${me.id}`;
    },
  },
  {
    name: 'POST /api/auth/login/two-factor',
    // the visitor has no pending sign-in; the other user's pending sign-in (their password) gets the user's code; the user's gets it too
    call: async (f, who) => {
      const a = agentOf(f, who);
      if (who !== 'visitor') {
        const me = who === 'theUser' ? f.user : f.other;
        const first = await a.post('/api/auth/login', { email: me.email, password: me.password });
        expect(first.json().twoFactorRequired).toBe(true);
      }
      return a.post('/api/auth/login/two-factor', { code: codeAt(f.user.secret, 1) });
    },
    expect: { visitor: 401, otherUser: 400, theUser: 'ok' },
    check: async (f, who, res) => (who === 'theUser' && res.json().id !== f.user.id ? `signed in as ${res.json().id}` : undefined),
  },
  {
    name: 'POST /api/auth/reauthenticate',
    // everyone sends the user's code
    call: (f, who) => agentOf(f, who).post('/api/auth/reauthenticate', { code: codeAt(f.user.secret, 1) }),
    expect: { visitor: 401, otherUser: 400, theUser: 'ok' },
  },
];

describe('two-factor and passkey routes: signed out, another user, the user', () => {
  it.each(FACTOR_ROWS)('$name', async (row) => {
    const f = await factors(row.setup);
    const failures: string[] = [];
    for (const who of PEOPLE) {
      const res = await row.call(f, who);
      const want = row.expect[who];
      const ok = want === 'ok' ? res.statusCode >= 200 && res.statusCode < 300 : res.statusCode === want;
      if (!ok) failures.push(`${who}: ${res.statusCode} (expected ${want}) ${res.body.slice(0, 160)}`);
      const problem = await row.check?.(f, who, res);
      if (problem) failures.push(problem);
    }
    expect(failures).toEqual([]);
  });
});
