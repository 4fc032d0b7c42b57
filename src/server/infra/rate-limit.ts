import { sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Db, Tx } from '#server/db/client';
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

/** Clears a database counter in the caller's transaction (a deleted account's login failures). */
export async function clearRateLimitIn(tx: Db | Tx, key: string): Promise<void> {
  await tx.execute(sql`delete from rate_limits where key = ${key}`);
}

/** Counts one hit and throws 429 (with Retry-After) when over the limit. */
export async function enforceRateLimit(limiter: RateLimiter, key: string, limit: number, windowSeconds: number, message?: string) {
  const r = await limiter.hit(key, limit, windowSeconds);
  if (!r.allowed) throw tooManyRequests(r.retryAfterSeconds, message);
}

/**
 * Fastify's `trustProxy` for the TRUST_PROXY setting (decision 33-02): off, the proxies' addresses
 * (proxy-addr checks each hop against them), or a number of hops. Fastify refuses a bare number (it
 * cannot check the nearest peer), so hops are a trust function: the nearest `hops` addresses (the
 * socket peer first) are proxies. Hop counting is right only when no client can reach the app
 * except through those proxies; the README says so.
 */
export function trustProxyOption(setting: false | number | string[]): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return hops > 0 ? (_address, hop) => hop < hops : false;
}

/**
 * The caller's address, derived in one place (issue 33, decision 33-02): Fastify's `req.ip`, which
 * reads X-Forwarded-For only as TRUST_PROXY allows (a number of proxy hops, or the proxies'
 * addresses), so the address is the rightmost one no trusted proxy vouches for. IPv4-mapped IPv6 is
 * its IPv4 address, IPv6 is written canonically; anything unreadable is `unknown`.
 */
export function clientAddress(req: { ip: string }): string {
  try {
    return ipaddr.process(req.ip).toString();
  } catch {
    return 'unknown';
  }
}

/**
 * What every per-address limit counts: the client address, an IPv6 caller by its /64 (one
 * subscriber's network: rotating through its 2^64 addresses gains nothing). Every caller whose
 * address cannot be read shares the one `unknown` count.
 */
export function clientKey(req: { ip: string }): string {
  const address = clientAddress(req);
  if (address === 'unknown' || !address.includes(':')) return address;
  const { parts } = ipaddr.IPv6.parse(address);
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
