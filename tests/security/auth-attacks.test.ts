import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';

/** Login throttling that spoofed proxy headers cannot bypass; session fixation; logout on the server. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(); // TRUST_PROXY off, rate limits on (the defaults)
});
afterAll(async () => {
  await t.close();
});

const randomIp = () => `203.0.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

describe('login throttling', () => {
  it('counts by the real peer address: a new X-Forwarded-For on every try does not reset the limit', async () => {
    const peer = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: peer,
        headers: { 'x-forwarded-for': randomIp(), 'x-real-ip': randomIp(), forwarded: `for=${randomIp()}` },
        payload: { email: `victim${i}@example.com`, password: 'guess-guess' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('another address is not affected by that limit', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: randomIp(), payload: { email: 'someone@example.com', password: 'guess-guess' } });
    expect(res.statusCode).toBe(401);
  });

  it('with TRUST_PROXY=1 (one proxy), the address that proxy forwards is the one counted (the setting is what decides)', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const proxy = randomIp();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await proxied.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': randomIp() },
          payload: { email: `v${i}@example.com`, password: 'guess-guess' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual(Array(12).fill(401));
    } finally {
      await proxied.close();
    }
  });
});

describe('sessions', () => {
  it('session fixation: a cookie planted before sign-in never becomes a signed-in session', async () => {
    const { input } = await signedInAgent(t.app);
    const victim = new Agent(t.app);
    const planted = crypto.randomBytes(32).toString('base64url');
    victim.cookies.set('sid', planted);
    const login = await victim.post('/api/auth/login', { email: input.email, password: input.password });
    expect(login.statusCode).toBe(200);
    const issued = victim.cookies.get('sid');
    expect(issued).toBeTruthy();
    expect(issued).not.toBe(planted);
    // the attacker who planted the value is still signed out
    const attacker = new Agent(t.app);
    attacker.cookies.set('sid', planted);
    expect((await attacker.get('/api/auth/user')).statusCode).toBe(401);
    expect((await victim.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('every sign-in issues a new token, even from a browser that is already signed in', async () => {
    const { agent, input } = await signedInAgent(t.app);
    const first = agent.cookies.get('sid');
    await agent.post('/api/auth/login', { email: input.email, password: input.password });
    const second = agent.cookies.get('sid');
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
  });

  it('logout ends the session on the server: the old cookie replayed later is refused', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const token = agent.cookies.get('sid')!;
    const out = await agent.post('/api/auth/logout', {});
    expect(out.statusCode).toBeLessThan(300);
    expect(String(out.headers['set-cookie'])).toMatch(/sid=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const replay = new Agent(t.app);
    replay.cookies.set('sid', token);
    expect((await replay.get('/api/auth/user')).statusCode).toBe(401);
    const rows = await t.app.ctx.db.execute(sql`select count(*)::int as n from sessions where user_id = ${user.id}`);
    expect(Number((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n)).toBe(0);
  });

  it('the database keeps only a hash of the token, so a leaked sessions table signs no one in', async () => {
    const { agent, user } = await signedInAgent(t.app);
    const token = agent.cookies.get('sid')!;
    const rows = await t.app.ctx.db.execute(sql`select id from sessions where user_id = ${user.id}`);
    const stored = (rows as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
    expect(stored.length).toBe(1);
    expect(stored[0]).not.toContain(token);
    const thief = new Agent(t.app);
    thief.cookies.set('sid', stored[0]);
    expect((await thief.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('garbage and oversized cookies are just "signed out", never an error', async () => {
    for (const value of ['', 'x', 'a'.repeat(5000), '%00%0d%0a', "' or 1=1 --", '\u00ff\u00fe']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: `sid=${value}` } });
      expect(res.statusCode).toBe(401);
    }
  });
});
