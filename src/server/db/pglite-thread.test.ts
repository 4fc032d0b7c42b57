import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from './client';
import { runMigrations } from './migrate';
import { subscribers, users } from './schema/index';

/**
 * The embedded database on a thread of its own (decision 18-05): the same answers as PGlite on the
 * event-loop thread (types, errors, transactions), and a long statement no longer holds the loop.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-pglite-thread-'));
let database: Database;

describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('PGlite on its own thread', () => {
  beforeAll(async () => {
    database = await openDatabase({ dataDir: root, ownThread: true });
    await runMigrations(database);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('round-trips rows with their types: timestamps as drizzle expects, json, booleans, numbers, bytes', async () => {
    const { db } = database;
    // statements run off the event loop, so batch writers may send big ones (visit-flusher.ts)
    expect(database.onEventLoop).toBe(false);
    const [u] = await db.insert(users).values({ username: 'thread1', email: 'thread1@example.com', passwordHash: 'x' }).returning();
    expect(u.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(u.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const rows = (await db.execute(
      sql`select ${JSON.stringify({ a: [1, 'two'] })}::jsonb as j, true as b, 42::int as n, 9007199254740993::int8 as big, '\\x0102ff'::bytea as bytes, now() as at`,
    )) as unknown as { rows: Record<string, unknown>[] };
    const r = rows.rows[0];
    expect(r.j).toEqual({ a: [1, 'two'] });
    expect(r.b).toBe(true);
    expect(r.n).toBe(42);
    expect(String(r.big)).toBe('9007199254740993');
    expect(Array.from(r.bytes as Uint8Array)).toEqual([1, 2, 255]);
    expect(typeof r.at).toBe('string'); // drizzle keeps timestamps as text in raw results
    const found = await db.select().from(users).where(eq(users.id, u.id));
    expect(found[0].email).toBe('thread1@example.com');
  });

  it('keeps PostgreSQL error fields (code, constraint) for the code that reads them', async () => {
    const { db } = database;
    await db.insert(subscribers).values({ email: 'dup@example.com' });
    const err = await db
      .insert(subscribers)
      .values({ email: 'DUP@example.com' })
      .then(() => null)
      .catch((e) => e);
    const cause = (err?.cause ?? err) as { code?: string; constraint?: string };
    expect(cause.code).toBe('23505');
    expect(cause.constraint).toBe('subscribers_email_lower_uq');
  });

  it('commits a transaction, rolls back one that throws, and rolls back a nested savepoint alone', async () => {
    const { db } = database;
    await db.transaction(async (tx) => {
      await tx.insert(subscribers).values({ email: 'committed@example.com' });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(subscribers).values({ email: 'rolledback@example.com' });
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await db.transaction(async (tx) => {
      await tx.insert(subscribers).values({ email: 'outer@example.com' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(subscribers).values({ email: 'inner@example.com' });
          inner.rollback();
        })
        .catch(() => undefined);
    });
    const emails = (await db.select({ e: subscribers.email }).from(subscribers)).map((r) => r.e);
    expect(emails).toContain('committed@example.com');
    expect(emails).toContain('outer@example.com');
    expect(emails).not.toContain('rolledback@example.com');
    expect(emails).not.toContain('inner@example.com');
  });

  it('runs a statement outside a transaction after the open transaction ends, never inside it', async () => {
    const { db } = database;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.insert(subscribers).values({ email: 'in-tx@example.com' });
      await gate;
      throw new Error('rolled back');
    });
    await new Promise((r) => setTimeout(r, 50));
    const outside = db.insert(subscribers).values({ email: 'outside@example.com' });
    release();
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    const emails = (await db.select({ e: subscribers.email }).from(subscribers)).map((r) => r.e);
    expect(emails).toContain('outside@example.com');
    expect(emails).not.toContain('in-tx@example.com');
  });

  it('a long statement does not hold the event loop', async () => {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const t0 = Date.now();
    await database.db.execute(sql`select count(*) from generate_series(1, 3000000) g where g % 7 = 3`);
    const took = Date.now() - t0;
    h.disable();
    // the statement takes a good part of a second; the loop kept ticking all along
    expect(took).toBeGreaterThan(100);
    expect(h.max / 1e6).toBeLessThan(Math.max(60, took / 3));
  });

  it('answers the health ping while busy elsewhere, and keeps what was written across a reopen', async () => {
    await database.ping();
    await database.db.insert(subscribers).values({ email: 'kept-thread@example.com' });
    await database.close();
    database = await openDatabase({ dataDir: root, ownThread: true });
    const rows = await database.db.select({ e: subscribers.email }).from(subscribers).where(eq(subscribers.email, 'kept-thread@example.com'));
    expect(rows).toHaveLength(1);
  });

  it('fails calls clearly once the thread is gone, instead of hanging', async () => {
    const other = await openDatabase({ memory: true, ownThread: true });
    await other.close();
    await expect(other.db.execute(sql`select 1`)).rejects.toThrow();
  });
});
