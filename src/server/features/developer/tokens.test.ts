import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, verifiedAgent } from '#tests/helpers/factories';
import { insertProfile } from '#tests/helpers/admin-factories';
import { concreteUrl } from '#tests/helpers/route-table';
import { exampleOf } from '#tests/helpers/zod-example';
import { apiTokens, leads, users } from '#server/db/schema/index';
import { API_SCOPES, PERSONAL_SCOPES, TEAM_SCOPES, type ApiScope, type TokenCreateResponse } from '#shared/schemas/developer';
import { TOKEN_MESSAGES } from '#server/plugins/api-tokens';
import { allEndpoints } from '#shared/contracts/index';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

/** every test user's password (factories' default): creating a token asks for it (issue 33) */
const PW = 'correct-horse-1';

type Agent = Awaited<ReturnType<typeof verifiedAgent>>['agent'];

async function makeToken(agent: Agent, scopes: ApiScope[], extra: { team?: boolean; expiresInDays?: number | null; name?: string } = {}) {
  const res = await agent.post('/api/tokens', { name: extra.name ?? 'Script', scopes, expiresInDays: extra.expiresInDays === undefined ? 30 : extra.expiresInDays, team: extra.team ?? false, password: PW });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TokenCreateResponse;
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

function call(method: string, url: string, secret: string, body?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...bearer(secret), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('access tokens', () => {
  it('shows the secret once at creation; the list never shows it', async () => {
    const { agent } = await verifiedAgent(t.app);
    const created = await makeToken(agent, ['leads:read'], { name: 'CRM sync' });
    expect(created.secret).toMatch(/^mc_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({ name: 'CRM sync', scopes: ['leads:read'], lastUsedAt: null, expired: false });
    expect(created.secret.startsWith(created.token.prefix)).toBe(true);
    const list = await agent.get('/api/tokens');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.body).not.toContain(created.secret.slice(12));
    expect(list.json().tokens).toEqual([created.token]);
    // only the hash is stored
    const [row] = await t.app.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, created.token.id));
    expect(JSON.stringify(row)).not.toContain(created.secret);
  });

  it('reads the leads with the leads:read scope, as the token creator, without a session cookie', async () => {
    const { agent, user } = await verifiedAgent(t.app);
    const profile = await insertProfile(t.app, user.id);
    await t.app.ctx.db.insert(leads).values({ profileId: profile.id, name: 'Ada Lovelace', email: 'ada@example.com', consent: true });
    const { secret } = await makeToken(agent, ['leads:read']);
    const res = await call('GET', '/api/leads', secret);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('ada@example.com');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    const csv = await call('GET', '/api/leads.csv', secret);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('"Ada","Lovelace"');
    // someone else's token sees their own (empty) list
    const other = await verifiedAgent(t.app);
    const theirs = await makeToken(other.agent, ['leads:read']);
    const res2 = await call('GET', '/api/leads', theirs.secret);
    expect(res2.statusCode).toBe(200);
    expect(res2.body).not.toContain('ada@example.com');
  });

  it('answers 403 with the missing scope, and refuses routes that take no token', async () => {
    const { agent } = await verifiedAgent(t.app);
    const { secret } = await makeToken(agent, ['profile:read']);
    const res = await call('GET', '/api/leads', secret);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This token does not have the leads:read scope');
    for (const [m, url] of [
      ['GET', '/api/account'],
      ['GET', '/api/tokens'],
      ['GET', '/api/orders/mine'],
      ['GET', '/api/auth/user'],
      ['GET', '/api/health'],
    ] as const) {
      const r = await call(m, url, secret);
      expect(r.statusCode, url).toBe(403);
      expect(r.json().message).toBe(TOKEN_MESSAGES.notForTokens);
    }
    // a token cannot make more tokens
    const r = await call('POST', '/api/tokens', secret, { name: 'x', scopes: ['leads:read'], expiresInDays: null });
    expect(r.statusCode).toBe(403);
    expect(await t.app.ctx.db.select().from(apiTokens).where(eq(apiTokens.name, 'x'))).toHaveLength(0);
  });

  it("never reaches staff routes, even with an admin's token", async () => {
    const { agent, user } = await adminAgent(t.app);
    await t.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    const { secret } = await makeToken(agent, [...PERSONAL_SCOPES]);
    for (const url of ['/api/admin/orders', '/api/admin/stats', '/api/admin/customers']) {
      const res = await call('GET', url, secret);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toBe(TOKEN_MESSAGES.staff);
    }
    // the same admin's session does reach them
    expect((await agent.get('/api/admin/stats')).statusCode).toBe(200);
  });

  it('refuses revoked, expired, unknown and malformed tokens with 401', async () => {
    const { agent } = await verifiedAgent(t.app);
    const a = await makeToken(agent, ['leads:read']);
    expect((await call('GET', '/api/leads', a.secret)).statusCode).toBe(200);
    const del = await agent.delete(`/api/tokens/${a.token.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Token revoked' });
    const after = await call('GET', '/api/leads', a.secret);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(TOKEN_MESSAGES.invalid);
    expect((await agent.get('/api/tokens')).json().tokens).toEqual([]);
    expect((await agent.delete(`/api/tokens/${a.token.id}`)).statusCode).toBe(404);

    const b = await makeToken(agent, ['leads:read'], { expiresInDays: 7 });
    await t.app.ctx.db.update(apiTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiTokens.id, b.token.id));
    expect((await call('GET', '/api/leads', b.secret)).statusCode).toBe(401);
    expect((await agent.get('/api/tokens')).json().tokens[0]).toMatchObject({ id: b.token.id, expired: true });

    expect((await call('GET', '/api/leads', `mc_${'A'.repeat(43)}`)).statusCode).toBe(401);
    expect((await call('GET', '/api/leads', 'not-a-token')).statusCode).toBe(401);
    expect((await call('GET', '/api/leads', '')).statusCode).toBe(401);
  });

  it('a token with no expiry lives until revoked', async () => {
    const { agent } = await verifiedAgent(t.app);
    const a = await makeToken(agent, ['stats:read'], { expiresInDays: null });
    expect(a.token.expiresAt).toBeNull();
    expect((await call('GET', '/api/stats/visits', a.secret)).statusCode).toBe(200);
  });

  it('records the last use at most once a minute', async () => {
    const { agent } = await verifiedAgent(t.app);
    const a = await makeToken(agent, ['stats:read']);
    await call('GET', '/api/stats/visits', a.secret);
    const first = (await agent.get('/api/tokens')).json().tokens[0].lastUsedAt as string;
    expect(first).not.toBeNull();
    await call('GET', '/api/stats/visits', a.secret);
    expect((await agent.get('/api/tokens')).json().tokens[0].lastUsedAt).toBe(first);
    await t.app.ctx.db.update(apiTokens).set({ lastUsedAt: new Date(Date.now() - 120_000) }).where(eq(apiTokens.id, a.token.id));
    await call('GET', '/api/stats/visits', a.secret);
    const third = (await agent.get('/api/tokens')).json().tokens[0].lastUsedAt as string;
    expect(new Date(third).getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  it('answers 400 with field messages for bad input and writes nothing', async () => {
    const { agent } = await verifiedAgent(t.app);
    const res = await agent.post('/api/tokens', { name: '', scopes: ['leads:delete'], expiresInDays: 5, password: PW });
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors;
    expect(errors.name).toBe('Please give the token a name');
    expect(errors['scopes.0']).toMatch(/Unknown scope/);
    expect(errors.expiresInDays).toBe('Expiry must be 7, 30, 90 or 365 days, or none');
    expect((await agent.post('/api/tokens', { name: 'a', scopes: [], expiresInDays: 7, password: PW })).json().errors.scopes).toBe('Choose at least one scope');
    expect((await agent.post('/api/tokens', { name: 'a', scopes: ['leads:read'], expiresInDays: 7, admin: true, password: PW })).json().errors.admin).toBe('Unknown field: admin');
    const team = await agent.post('/api/tokens', { name: 'a', scopes: ['team:read'], expiresInDays: 7, password: PW });
    expect(team.statusCode).toBe(400);
    expect(team.json().errors.scopes).toBe('Team scopes need a team token');
    expect((await agent.delete('/api/tokens/nope')).statusCode).toBe(400);
    expect((await agent.get('/api/tokens')).json().tokens).toEqual([]);
    // anonymous callers cannot manage tokens
    expect((await t.app.inject({ method: 'GET', url: '/api/tokens' })).statusCode).toBe(401);
  });

  it("cannot revoke someone else's token", async () => {
    const a = await verifiedAgent(t.app);
    const b = await verifiedAgent(t.app);
    const tok = await makeToken(a.agent, ['leads:read']);
    expect((await b.agent.delete(`/api/tokens/${tok.token.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/leads', tok.secret)).statusCode).toBe(200);
  });

  it('changes state without Origin checks (no ambient credentials), JSON only', async () => {
    const { agent, user } = await verifiedAgent(t.app);
    await insertProfile(t.app, user.id);
    const { secret } = await makeToken(agent, ['profile:read', 'profile:write']);
    const current = await call('GET', '/api/profile/lead-form', secret);
    expect(current.statusCode).toBe(200);
    const res = await call('PUT', '/api/profile/lead-form', secret, current.json(), { origin: 'https://elsewhere.example' });
    expect(res.statusCode, res.body).toBe(200);
    const plain = await t.app.inject({ method: 'PUT', url: '/api/profile/lead-form', headers: { ...bearer(secret), 'content-type': 'text/plain' }, payload: 'x' });
    expect(plain.statusCode).toBe(415);
    // a Bearer header never borrows the session cookie sent with it
    const withCookie = await agent.post('/api/tokens', { name: 'sneaky', scopes: ['leads:read'], expiresInDays: 7, password: PW }, { ...bearer(secret), origin: 'https://elsewhere.example' });
    expect(withCookie.statusCode).toBe(403);
    const badWithCookie = await agent.get('/api/account', bearer('nope'));
    expect(badWithCookie.statusCode).toBe(401);
    expect((await agent.get('/api/tokens')).json().tokens.map((x: { name: string }) => x.name)).not.toContain('sneaky');
  });

  it('team tokens: made by team owners and admins, team scopes only, acting within the team', async () => {
    const owner = await verifiedAgent(t.app);
    expect((await owner.agent.post('/api/tokens', { name: 't', scopes: ['team:read'], expiresInDays: 7, team: true, password: PW })).statusCode).toBe(400);
    expect((await owner.agent.post('/api/team', { name: 'Northwind' })).statusCode).toBe(201);
    const mixed = await owner.agent.post('/api/tokens', { name: 't', scopes: ['team:read', 'leads:read'], expiresInDays: 7, team: true, password: PW });
    expect(mixed.statusCode).toBe(400);
    const tok = await makeToken(owner.agent, ['team:read'], { team: true });
    expect(tok.token.teamId).not.toBeNull();
    const res = await call('GET', '/api/team', tok.secret);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().team.name).toBe('Northwind');
    expect((await call('GET', '/api/team/members', tok.secret)).statusCode).toBe(200);
    const write = await call('PATCH', '/api/team', tok.secret, { name: 'Other' });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe('This token does not have the team:write scope');
    expect((await call('GET', '/api/leads', tok.secret)).statusCode).toBe(403);
    // the team is deleted: the token stops working
    expect((await owner.agent.delete('/api/team')).statusCode).toBe(200);
    expect((await call('GET', '/api/team', tok.secret)).statusCode).toBe(401);
  });
});

describe('scopes on every documented route', () => {
  it('a token without the scope gets 403; with it, never 401 or 403', async () => {
    const { agent, user } = await verifiedAgent(t.app);
    await insertProfile(t.app, user.id);
    expect((await agent.post('/api/team', { name: 'Walkers' })).statusCode).toBe(201);
    // the routes tokens may call, from the shared endpoint contracts (the set test checks they are the registered ones)
    const routes = allEndpoints()
      .filter((e) => (e.scopes ?? []).length > 0)
      .map((e) => ({ method: e.method, url: e.path, scopes: e.scopes ?? [], body: e.body }));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const tokens = new Map<string, string>();
    const tokenFor = async (scopes: ApiScope[], team: boolean) => {
      const key = `${team}:${scopes.join(',')}`;
      if (!tokens.has(key)) tokens.set(key, (await makeToken(agent, scopes, { team })).secret);
      return tokens.get(key)!;
    };
    const checked: string[] = [];
    for (const r of routes) {
      const scope = r.scopes[0]!;
      const team = TEAM_SCOPES.includes(scope);
      const family = team ? TEAM_SCOPES : PERSONAL_SCOPES;
      const without = family.filter((s) => !r.scopes.includes(s));
      const url = concreteUrl(r.url, (name) => (name === 'id' && r.url.startsWith('/api/profile') ? '1' : '00000000-0000-4000-8000-000000000000'));
      const body = r.body ? exampleOf(r.body) : undefined;
      if (without.length) {
        const res = await call(r.method, url, await tokenFor(without, team), body);
        expect(res.statusCode, `${r.method} ${r.url} without ${scope}`).toBe(403);
        // the SCIM routes answer in the SCIM error schema (`detail`; decision 39-02)
        expect(res.json().message ?? res.json().detail).toBe(`This token does not have the ${scope} scope`);
      }
      const res = await call(r.method, url, await tokenFor([...r.scopes], team), body);
      expect([401, 403], `${r.method} ${r.url} with ${scope}: ${res.statusCode} ${res.body.slice(0, 200)}`).not.toContain(res.statusCode);
      expect(res.statusCode, `${r.method} ${r.url}`).toBeLessThan(500);
      checked.push(`${r.method} ${r.url}`);
    }
    // every scope is used by some route
    for (const s of API_SCOPES) expect(routes.some((r) => r.scopes.includes(s)), s).toBe(true);
    expect(checked).toContain('GET /api/leads');
  });
});

describe('per-token rate limit', () => {
  it('answers 429 with Retry-After over the limit, per token', async () => {
    const limited = await createTestApp({ env: { RATE_LIMITS: 'on', API_TOKEN_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const { agent } = await verifiedAgent(limited.app);
      const mk = async () => ((await agent.post('/api/tokens', { name: 'n', scopes: ['stats:read'], expiresInDays: 7, password: PW })).json() as TokenCreateResponse).secret;
      const a = await mk();
      const b = await mk();
      const get = (s: string) => limited.app.inject({ method: 'GET', url: '/api/stats/visits', headers: bearer(s) });
      for (let i = 0; i < 3; i++) expect((await get(a)).statusCode).toBe(200);
      const over = await get(a);
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await get(b)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
