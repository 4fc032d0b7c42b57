import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { collectRoutes, concreteUrl, type RecordedRoute } from '#tests/helpers/route-table';

/**
 * Issue 19, items 7 and 8: personal and staff answers are never cached (a walk over every route),
 * and behind TLS the session cookie is `__Host-` prefixed and Secure, and HSTS is sent, whatever the
 * proxy says about the protocol.
 */
const table = collectRoutes();
const SKIP = (r: RecordedRoute) => r.url === '/metrics' || r.url === '*' || r.url === '/*' || r.url.startsWith('/files/');

let t: TestApp;
let admin: Agent;
let user: Agent;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  admin = (await adminAgent(t.app)).agent;
  user = (await signedInAgent(t.app)).agent;
  await user.post('/api/profile', { fullName: 'Cache Tester' });
});
afterAll(async () => {
  table.detach();
  await t.close();
});

describe('Cache-Control: no-store on personal and staff answers (issue 19.7)', () => {
  it('every signed-in or staff route answers no-store, whatever its status', async () => {
    const guarded = table.routes().filter((r) => !SKIP(r) && (r.access === 'user' || r.access === 'admin'));
    expect(guarded.length).toBeGreaterThan(30);
    const missing: string[] = [];
    // reads first, writes after (a write could end the session the reads need)
    const ordered = [...guarded.filter((r) => r.method === 'GET'), ...guarded.filter((r) => r.method !== 'GET' && !/\/account$/.test(r.url))];
    for (const r of ordered) {
      const agent = r.access === 'admin' ? admin : user;
      const res = await agent.request(r.method, concreteUrl(r.url), r.method === 'GET' ? undefined : {});
      if (!/\bno-store\b/.test(String(res.headers['cache-control'] ?? ''))) missing.push(`${r.method} ${r.url} -> ${res.statusCode} ${res.headers['cache-control'] ?? '(none)'}`);
    }
    expect(missing).toEqual([]);
  });

  it('public API answers for a signed-in caller are no-store unless they are public data that says so', async () => {
    for (const url of ['/api/auth/user', '/api/account', '/api/profile', '/api/account/sessions']) {
      const res = await user.get(url);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const publicGets = table.routes().filter((r) => !SKIP(r) && r.access === 'public' && r.method === 'GET' && r.url.startsWith('/api/'));
    for (const r of publicGets) {
      const res = await user.get(concreteUrl(r.url));
      expect(res.headers['cache-control'], `${r.url} states its caching`).toBeTruthy();
    }
  });

  it('signed-out 401 answers are not cached either', async () => {
    const res = await new Agent(t.app).get('/api/auth/user');
    expect(res.statusCode).toBe(401);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('behind TLS (issue 19.8)', () => {
  it('PUBLIC_URL https: __Host- session cookie, Secure, HSTS, even when the proxy says http', async () => {
    const s = await createTestApp({ env: { PUBLIC_URL: 'https://cards.example', RATE_LIMITS: 'off' } });
    try {
      const a = new Agent(s.app);
      const reg = await signedInAgent(s.app);
      const cookie = String(reg.agent.cookies.size ? [...reg.agent.cookies.keys()] : '');
      expect(cookie).toBe('__Host-sid');
      const res = await a.post('/api/auth/login', { email: reg.input.email, password: reg.input.password }, { 'x-forwarded-proto': 'http' });
      expect(res.statusCode).toBe(200);
      const setCookie = String(res.headers['set-cookie']);
      expect(setCookie).toMatch(/^__Host-sid=/);
      expect(setCookie).toMatch(/;\s*Secure/i);
      expect(setCookie).toMatch(/;\s*Path=\//i);
      expect(setCookie).not.toMatch(/Domain=/i);
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
      expect((await a.get('/api/health')).headers['strict-transport-security']).toBeTruthy();
      // the session works with the prefixed cookie; a plain "sid" cookie (settable by a subdomain) is ignored
      expect((await a.get('/api/auth/user')).statusCode).toBe(200);
      const planted = new Agent(s.app);
      planted.cookies.set('sid', a.cookies.get('__Host-sid')!);
      expect((await planted.get('/api/auth/user')).statusCode).toBe(401);
      const out = await a.post('/api/auth/logout');
      expect(String(out.headers['set-cookie'])).toMatch(/^__Host-sid=;/);
    } finally {
      await s.close();
    }
  });

  it('without https: plain "sid", no Secure, no HSTS', async () => {
    const reg = await new Agent(t.app).post('/api/auth/register', {
      username: `plain_${Date.now()}`,
      email: `plain_${Date.now()}@example.com`,
      password: 'quiet-lantern-77',
      confirmPassword: 'quiet-lantern-77',
    });
    expect(reg.statusCode).toBe(201);
    expect(String(reg.headers['set-cookie'])).toMatch(/^sid=/);
    expect(String(reg.headers['set-cookie'])).not.toMatch(/Secure/i);
    expect(reg.headers['strict-transport-security']).toBeUndefined();
  });
});
