import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createRedisRateLimiter } from './redis-rate-limit';
import type { RateLimiter } from './rate-limit';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    s.setTimeout(1000);
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => {
      resolve(d.toString().startsWith('+PONG'));
      s.destroy();
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      resolve(false);
      s.destroy();
    });
  });
}

const available = await redisAnswers(REDIS_URL);
if (!available) console.warn(`[redis-rate-limit] skipped: no Redis answers at ${REDIS_URL} (set TEST_REDIS_URL)`);

const silentLog = { warn() {}, error() {}, info() {}, debug() {} } as never;

/** A stand-in for the database limiter that counts what reaches it. */
function countingFallback() {
  const counts = new Map<string, number>();
  const limiter: RateLimiter & { calls: number } = {
    calls: 0,
    async hit(key, limit) {
      limiter.calls++;
      const c = (counts.get(key) ?? 0) + 1;
      counts.set(key, c);
      return { allowed: c <= limit, count: c, retryAfterSeconds: 60 };
    },
    async peek(key) {
      return counts.get(key) ?? 0;
    },
    async reset(key) {
      counts.delete(key);
    },
  };
  return limiter;
}

describe.skipIf(!available)('rate limits in Redis (REDIS_URL)', () => {
  const key = () => `test:${crypto.randomBytes(6).toString('hex')}`;

  it('counts a fixed window shared by two limiters (two instances) and answers Retry-After', async () => {
    const a = await createRedisRateLimiter({ url: REDIS_URL, fallback: countingFallback(), log: silentLog });
    const b = await createRedisRateLimiter({ url: REDIS_URL, fallback: countingFallback(), log: silentLog });
    const k = key();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await (i % 2 ? b : a).hit(k, 5, 60));
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results[5].retryAfterSeconds).toBeGreaterThan(55);
    expect(results[5].retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await b.peek(k)).toBe(6);
    await a.reset(k);
    expect(await b.peek(k)).toBe(0);
    await a.close();
    await b.close();
  });

  it('starts a new window when the old one ends', async () => {
    const a = await createRedisRateLimiter({ url: REDIS_URL, fallback: countingFallback(), log: silentLog });
    const k = key();
    expect((await a.hit(k, 1, 0.2)).allowed).toBe(true);
    expect((await a.hit(k, 1, 0.2)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    const after = await a.hit(k, 1, 0.2);
    expect(after).toMatchObject({ allowed: true, count: 1 });
    await a.close();
  });

  it('counts with the fallback (the database) while Redis does not answer', async () => {
    const fallback = countingFallback();
    // a port where nothing listens: Redis is "down"
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const a = await createRedisRateLimiter({ url: `redis://127.0.0.1:${port}`, fallback, log: silentLog });
    const k = key();
    const r1 = await a.hit(k, 1, 60);
    const r2 = await a.hit(k, 1, 60);
    expect([r1.allowed, r2.allowed]).toEqual([true, false]);
    expect(fallback.calls).toBe(2);
    await a.close();
  });

  describe('the app with REDIS_URL set', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { REDIS_URL } });
    });
    afterAll(async () => {
      await t.close();
    });

    it('uses Redis for its limits: the login limit is counted there, not in the database table', async () => {
      expect((t.app.ctx.rateLimiter as { kind?: string }).kind).toBe('redis');
      const ip = `10.${crypto.randomInt(255)}.${crypto.randomInt(255)}.${crypto.randomInt(255)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: `nobody${i}@example.com`, password: 'wrong-password' } });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
      const rows = await t.app.ctx.db.execute(sql`select count(*)::int as n from rate_limits where key like ${`%${ip}%`}`);
      expect(Number((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n)).toBe(0);
    });
  });
});
