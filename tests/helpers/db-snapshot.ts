import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { visitFlusher } from '#server/features/engagement/visit-flusher';

const tableLists = new WeakMap<FastifyInstance, string[]>();

/**
 * Tables whose rows legitimately change on a refused request: hit counters, the identity audit log
 * (a refused sign-in or code is an event to keep, issue 39) and sign-in challenges (a wrong code
 * counts against its pending sign-in; a refused passkey assertion spends its single-use challenge).
 */
export const COUNTER_TABLES = new Set(['rate_limits', 'identity_events', 'auth_challenges']);

/** Row count of every table in the public schema (rate-limit counters left out), in one query. */
export async function rowCounts(app: FastifyInstance): Promise<Record<string, number>> {
  let tables = tableLists.get(app);
  if (!tables) {
    const r = await app.ctx.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`);
    tables = (r as unknown as { rows: Array<{ table_name: string }> }).rows.map((x) => x.table_name).filter((t) => !COUNTER_TABLES.has(t));
    tableLists.set(app, tables);
  }
  const union = sql.join(
    tables.map((t) => sql`select ${t} as t, count(*)::int as n from ${sql.identifier(t)}`),
    sql` union all `,
  );
  const r = await app.ctx.db.execute(union);
  const out: Record<string, number> = {};
  for (const row of (r as unknown as { rows: Array<{ t: string; n: number }> }).rows) out[row.t] = Number(row.n);
  return out;
}

/** Every file under dir (relative paths), for "nothing written to storage" checks. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** What changed between two snapshots ("table: before -> after"), empty when nothing did. */
export function diffCounts(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} -> ${after[k]}`);
}

/**
 * Counts every row inserted, updated or deleted in any table (rate-limit counters aside) through
 * row-level triggers into `_test_writes`; transactional, so a rolled-back write does not count.
 * Stricter than comparing row counts (an UPDATE counts too). Test databases only.
 * Each reading first writes out the buffered profile visits, so a visit recorded by an earlier
 * request is never flushed by the timer in the middle of a later request's window and blamed on
 * it, while a visit recorded by the request under test still counts against it. Recorded webhook
 * events of an earlier request are fanned out first for the same reason.
 */
export async function installWriteCounter(app: FastifyInstance): Promise<() => Promise<number>> {
  const db = app.ctx.db;
  await db.execute(sql.raw(`create table if not exists _test_writes (n bigint not null)`));
  await db.execute(sql.raw(`insert into _test_writes select 0 where not exists (select 1 from _test_writes)`));
  await db.execute(
    sql.raw(`create or replace function _test_count_write() returns trigger language plpgsql as $$ begin update _test_writes set n = n + 1; return null; end $$`),
  );
  const r = await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
  for (const { table_name: t } of (r as unknown as { rows: Array<{ table_name: string }> }).rows) {
    if (t === '_test_writes' || COUNTER_TABLES.has(t)) continue;
    await db.execute(sql.raw(`drop trigger if exists _test_w on "${t}"`));
    await db.execute(sql.raw(`create trigger _test_w after insert or update or delete on "${t}" for each row execute function _test_count_write()`));
  }
  return async () => {
    await visitFlusher(app.ctx).flush();
    await app.ctx.webhooks?.runOnce();
    const c = await db.execute(sql.raw(`select n from _test_writes`));
    return Number((c as unknown as { rows: Array<{ n: string | number }> }).rows[0].n);
  };
}
