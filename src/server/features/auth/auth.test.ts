import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { userInput } from '#tests/helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const countUsers = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int n from users`)) as any).rows[0].n);

describe('auth', () => {
  it('registers, reads the user, logs out, logs in', async () => {
    const a = new Agent(t.app);
    const input = userInput();
    const reg = await a.post('/api/auth/register', input);
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toMatchObject({ email: input.email, username: input.username, firstName: 'Ada', role: 'user' });
    expect(reg.json()).not.toHaveProperty('passwordHash');
    const setCookie = String(reg.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    expect((await a.get('/api/auth/user')).json().email).toBe(input.email);
    const oldCookie = a.cookies.get('sid');

    expect((await a.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await a.get('/api/auth/user')).statusCode).toBe(401);
    // the old token is dead on the server, not only forgotten by the client
    const replay = new Agent(t.app);
    replay.cookies.set('sid', oldCookie!);
    expect((await replay.get('/api/auth/user')).statusCode).toBe(401);

    const login = await a.post('/api/auth/login', { email: input.email.toUpperCase(), password: input.password });
    expect(login.statusCode).toBe(200);
    expect(a.cookies.get('sid')).not.toBe(oldCookie);
    expect((await a.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('answers 401 signed out', async () => {
    const res = await new Agent(t.app).get('/api/auth/user');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('message');
  });

  it('refuses duplicate e-mail and username with 409', async () => {
    const a = new Agent(t.app);
    const input = userInput();
    expect((await a.post('/api/auth/register', input)).statusCode).toBe(201);
    const dupEmail = await new Agent(t.app).post('/api/auth/register', { ...userInput(), email: input.email.toUpperCase() });
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().message).toMatch(/email/i);
    const dupUser = await new Agent(t.app).post('/api/auth/register', { ...userInput(), username: input.username });
    expect(dupUser.statusCode).toBe(409);
  });

  it('validates registration with the spec messages and writes nothing', async () => {
    const before = await countUsers();
    const a = new Agent(t.app);
    const mismatch = await a.post('/api/auth/register', { ...userInput(), confirmPassword: 'different' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.confirmPassword).toBe("Passwords don't match");
    const short = await a.post('/api/auth/register', userInput({ password: 'abc' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password).toBe('Password must be at least 6 characters long.');
    const bad = await a.post('/api/auth/register', userInput({ email: 'not-an-email' }));
    expect(bad.statusCode).toBe(400);
    expect(await countUsers()).toBe(before);
  });

  it('gives the same answer for unknown e-mail and wrong password', async () => {
    const a = new Agent(t.app);
    const input = userInput();
    await a.post('/api/auth/register', input);
    const wrong = await new Agent(t.app).post('/api/auth/login', { email: input.email, password: 'wrong-password' }, { 'x-forwarded-for': '10.0.0.1' });
    const unknown = await new Agent(t.app).post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('accepts long passwords without truncating them', async () => {
    const pw = 'p'.repeat(64) + 'X';
    const input = userInput({ password: pw });
    const a = new Agent(t.app);
    expect((await a.post('/api/auth/register', input)).statusCode).toBe(201);
    const b = new Agent(t.app);
    expect((await b.post('/api/auth/login', { email: input.email, password: 'p'.repeat(64) + 'Y' })).statusCode).toBe(401);
    expect((await b.post('/api/auth/login', { email: input.email, password: pw })).statusCode).toBe(200);
  });
});

describe('bad input never gives 500 and writes nothing', () => {
  const bodies: Array<[string, string, string]> = [
    ['malformed JSON', '{"email": ', 'application/json'],
    ['wrong content type', 'email=a@b.co&password=x', 'application/x-www-form-urlencoded'],
    ['text/plain', '{"email":"a@b.co"}', 'text/plain'],
    ['array body', '[1,2,3]', 'application/json'],
    ['null body', 'null', 'application/json'],
    ['__proto__ key', '{"__proto__":{"admin":true},"email":"a@b.co","password":"secret1"}', 'application/json'],
    ['constructor key', '{"constructor":{"prototype":{"x":1}},"email":"a@b.co","password":"x"}', 'application/json'],
  ];
  for (const path of ['/api/auth/register', '/api/auth/login', '/api/subscribe']) {
    for (const [name, payload, type] of bodies) {
      it(`${path}: ${name}`, async () => {
        const before = await countUsers();
        const res = await t.app.inject({ method: 'POST', url: path, payload, headers: { 'content-type': type } });
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json()).toHaveProperty('message');
        expect(await countUsers()).toBe(before);
      });
    }
    it(`${path}: body over 1 MB`, async () => {
      const res = await t.app.inject({ method: 'POST', url: path, payload: JSON.stringify({ email: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(413);
    });
    it(`${path}: extra fields, wrong types, overlong strings`, async () => {
      const a = new Agent(t.app);
      for (const body of [
        { ...userInput(), isAdmin: true },
        { ...userInput(), role: 'admin' },
        { ...userInput(), email: 42 },
        { ...userInput(), username: 'u'.repeat(500) },
        { email: ['a@b.co'], password: { $gt: '' } },
      ]) {
        const before = await countUsers();
        const res = await a.post(path, body);
        expect(res.statusCode).toBe(400);
        expect(await countUsers()).toBe(before);
      }
    });
  }

  it('NUL bytes and control characters are bad input, not a server fault', async () => {
    for (const email of ['Grace Hopper \u0000', 'a\u0000@b.co', 'x\r\n@b.co']) {
      const res = await new Agent(t.app).post('/api/auth/login', { email, password: 'Grace Hopper' });
      expect(res.statusCode).toBe(400);
    }
    const reg = await new Agent(t.app).post('/api/auth/register', { ...userInput(), firstName: 'Ada\u0000' });
    expect(reg.statusCode).toBe(400);
  });

  it('unknown /api paths answer JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('refuses cross-site state changes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: JSON.stringify({ email: 'a@b.co', password: 'secret1' }),
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBeTruthy();
  });
});

describe('login throttling', () => {
  it('limits attempts per IP with 429 and Retry-After', async () => {
    let last;
    for (let i = 0; i < 11; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '198.51.100.7',
        payload: { email: `nobody${i}@example.com`, password: 'whatever1' },
      });
    }
    expect(last!.statusCode).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('subscribe', () => {
  it('stores the address once (idempotent)', async () => {
    const a = new Agent(t.app);
    const email = `sub_${Date.now()}@example.com`;
    expect((await a.post('/api/subscribe', { email }, { 'x-real': '1' })).statusCode).toBe(200);
    expect((await a.post('/api/subscribe', { email: email.toUpperCase() })).statusCode).toBe(200);
    const n = ((await t.app.ctx.db.execute(sql`select count(*)::int n from subscribers where lower(email) = ${email}`)) as any).rows[0].n;
    expect(n).toBe(1);
  });
});
