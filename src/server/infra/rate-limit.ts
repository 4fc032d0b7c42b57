import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client';
import { queryRow } from '#server/db/rows';
import { tooManyRequests } from '#server/http/http-errors';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  peek(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

/** Fixed-window counters in the database, so every instance shares them. */
export function createDbRateLimiter(db: Db, enabled = true): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      if (!enabled) return { allowed: true, count: 0, retryAfterSeconds: 0 };
      const row = await queryRow<{ count: number; retry_after: number }>(
        db,
        sql`
        insert into rate_limits (key, count, reset_at)
        values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
        on conflict (key) do update set
          count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
          reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
        returning count, extract(epoch from (reset_at - now()))::float8 as retry_after`,
      );
      const count = Number(row!.count);
      return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil(Number(row!.retry_after))) };
    },
    async peek(key) {
      if (!enabled) return 0;
      const row = await queryRow<{ count: number }>(db, sql`select count from rate_limits where key = ${key} and reset_at > now()`);
      return row ? Number(row.count) : 0;
    },
    async reset(key) {
      await db.execute(sql`delete from rate_limits where key = ${key}`);
    },
  };
}

/** Counts one hit and throws 429 (with Retry-After) when over the limit. */
export async function enforceRateLimit(limiter: RateLimiter, key: string, limit: number, windowSeconds: number, message?: string) {
  const r = await limiter.hit(key, limit, windowSeconds);
  if (!r.allowed) throw tooManyRequests(r.retryAfterSeconds, message);
}
