import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimiter, RateLimitResult } from './rate-limit';

// one round trip, atomic: count the hit, start the window on the first hit, report the time left
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if c == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {c, ttl}`;

export interface RedisRateLimiter extends RateLimiter {
  readonly kind: 'redis';
  close(): Promise<void>;
}

/**
 * Fixed-window counters in Redis (same semantics as the database limiter: the window starts at
 * the first hit). When Redis does not answer, the hit is counted by `fallback` (the database
 * limiter, also shared by every instance) so a Redis outage neither blocks nor un-limits anyone.
 */
export async function createRedisRateLimiter(opts: {
  url: string;
  fallback: RateLimiter;
  log: FastifyBaseLogger;
  enabled?: boolean;
  prefix?: string;
}): Promise<RedisRateLimiter> {
  const { default: IORedis } = await import('ioredis');
  const prefix = opts.prefix ?? 'mc:rl:';
  const enabled = opts.enabled ?? true;
  const redis: Redis = new IORedis(opts.url, {
    lazyConnect: true,
    // fail fast instead of queueing commands while disconnected; the fallback takes over
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastWarn = 0;
  redis.on('error', (err) => {
    // ioredis reports every reconnect attempt; say it at most once a minute
    if (Date.now() - lastWarn > 60_000) {
      lastWarn = Date.now();
      opts.log.warn({ err: err.message }, 'redis unavailable; rate limits use the database meanwhile');
    }
  });
  redis.defineCommand('mcRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  await redis.connect().catch(() => undefined); // keeps retrying in the background

  const ready = () => redis.status === 'ready';

  return {
    kind: 'redis',
    async hit(key, limit, windowSeconds): Promise<RateLimitResult> {
      if (!enabled) return { allowed: true, count: 0, retryAfterSeconds: 0 };
      if (!ready()) return opts.fallback.hit(key, limit, windowSeconds);
      try {
        const [count, ttlMs] = (await (redis as unknown as { mcRateHit(k: string, ms: number): Promise<[number, number]> }).mcRateHit(
          prefix + key,
          Math.round(windowSeconds * 1000),
        )) as [number, number];
        return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(Number(ttlMs) / 1000)) };
      } catch {
        return opts.fallback.hit(key, limit, windowSeconds);
      }
    },
    async peek(key) {
      if (!enabled) return 0;
      if (!ready()) return opts.fallback.peek(key);
      try {
        const v = await redis.get(prefix + key);
        return v ? Number(v) : 0;
      } catch {
        return opts.fallback.peek(key);
      }
    },
    async reset(key) {
      await Promise.all([redis.del(prefix + key).catch(() => undefined), opts.fallback.reset(key)]);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
