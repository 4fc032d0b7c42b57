import fs from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import * as schema from '#server/db/schema/index';

export type Schema = typeof schema;
/** The one database type used everywhere: PGlite and node-postgres share it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Statements run on the event loop's thread (PGlite without its own thread): a big statement
   * then holds every request, so batch writers keep their statements small (visit-flusher.ts).
   */
  onEventLoop: boolean;
  /** run a raw query (used by health checks and migrations) */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** the underlying client, for migrations and tests */
  raw: unknown;
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** PGlite only: load an existing data dir dump (tests) */
  loadDataDir?: Blob;
  /** PGlite only: in memory (tests) */
  memory?: boolean;
  /**
   * PGlite only: run the database on a thread of its own (decision 18-05), so no statement holds
   * the event loop. The server does (PGLITE_THREAD); tests and scripts default to the same thread.
   */
  ownThread?: boolean;
  /**
   * PostgreSQL only: how long one statement may run (server-side `statement_timeout`); the client
   * gives up on an unanswered query a little later (see below). Default DEFAULT_QUERY_TIMEOUT_MS.
   */
  queryTimeoutMs?: number;
}

/** Default of DB_QUERY_TIMEOUT_MS: far above the slowest legitimate query (CSV export pages, reports). */
export const DEFAULT_QUERY_TIMEOUT_MS = 15_000;
/** The health check's own bound: `/api/health` must answer 503 quickly when the database is silent. */
export const PING_TIMEOUT_MS = 2_000;
/**
 * The client-side timer fires this long after the server-side statement_timeout, so on a network
 * that works the server cancels a slow statement itself (a clean error, the connection stays
 * usable) and the client-side timer only fires when no answer can come at all (a partition).
 */
const CLIENT_GRACE_MS = 1_000;
/** TCP keepalive probes start after this much silence on an idle connection. */
const KEEPALIVE_IDLE_MS = 10_000;
const QUERY_READ_TIMEOUT = 'Query read timeout'; // pg's message when query_timeout fires

export async function openDatabase(opts: DbOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pg = await import('pg');
    const statementTimeout = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    const pool = new pg.default.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      // without these a silently dropped network (no FIN/RST) leaves queries waiting forever
      statement_timeout: statementTimeout,
      query_timeout: statementTimeout + CLIENT_GRACE_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    });
    // a dropped connection must not crash the process; queries will fail and recover
    pool.on('error', () => {});
    pool.on('connect', (client) => guardPooledClient(client));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      onEventLoop: false,
      raw: pool,
      async ping() {
        // bounded as a whole (waiting for a pool slot or a new connection included), and the
        // query's own read timeout discards the connection if the answer never comes
        const select1: import('pg').QueryConfig & { query_timeout: number } = { text: 'select 1', query_timeout: PING_TIMEOUT_MS };
        await withDeadline(pool.query(select1), PING_TIMEOUT_MS, 'database ping');
      },
      async close() {
        await pool.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // 32 MB of shared buffers instead of 128 MB: about 90 MB less resident memory for the same speed
  // on this product's data (PGlite reads its files through the OS page cache anyway)
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
  const dir = opts.memory || !opts.dataDir ? undefined : path.join(opts.dataDir, 'pglite');
  if (dir) await preparePgliteDataDir(dir, startParams);
  if (opts.ownThread) {
    const { PgliteThreadClient } = await import('./pglite-thread-client');
    const loadDataDir = opts.loadDataDir && !dir ? await opts.loadDataDir.arrayBuffer() : undefined;
    const client = await PgliteThreadClient.open({ dataDir: dir, startParams, loadDataDir });
    const db = drizzlePglite(client as never, { schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      onEventLoop: false,
      raw: client,
      async ping() {
        // the thread may be busy with a long statement: the health check answers 503 in time
        await withDeadline(db.execute(sql`select 1`), PING_TIMEOUT_MS, 'database ping');
      },
      async close() {
        await client.close();
      },
    };
  }
  const client = dir ? await PGlite.create({ dataDir: dir, startParams }) : await PGlite.create({ loadDataDir: opts.loadDataDir, startParams });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    onEventLoop: true,
    raw: client,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * Creates a new PGlite data dir in a short-lived child process. Creating the cluster (initdb inside
 * PGlite's WebAssembly) grows the WebAssembly memory to about 800 MB, and that memory is never
 * given back: done in the server's own process, a first `npm start` would idle at twice the RSS of
 * every later start. The child exits, the server then opens an existing dir (about 270 MB).
 * 'existing' when there is nothing to do; 'in-process' when the child could not do it (the caller
 * then creates the dir itself, as before).
 */
export async function preparePgliteDataDir(dir: string, startParams: string[]): Promise<'created' | 'existing' | 'in-process'> {
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return 'existing';
  fs.mkdirSync(dir, { recursive: true });
  const { spawn } = await import('node:child_process');
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const code = `const { PGlite } = await import(process.env.MC_PGLITE_MODULE);
const db = await PGlite.create({ dataDir: process.env.MC_PGLITE_DIR, startParams: JSON.parse(process.env.MC_PGLITE_PARAMS) });
await db.close();`;
  const exitCode = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      env: { ...process.env, MC_PGLITE_MODULE: pglite, MC_PGLITE_DIR: dir, MC_PGLITE_PARAMS: JSON.stringify(startParams) },
      stdio: 'ignore',
    });
    child.on('error', () => resolve(null));
    child.on('exit', (c) => resolve(c));
  });
  return exitCode === 0 && fs.existsSync(path.join(dir, 'PG_VERSION')) ? 'created' : 'in-process';
}

/**
 * Makes a pooled connection whose query timed out leave the pool instead of being reused.
 *
 * After pg's query_timeout fires, the query is still in flight on that connection: anything queued
 * behind it (a transaction's ROLLBACK, the next request's query) would wait for an answer that may
 * never come, and a client released without an error (drizzle's transactions do that) would go
 * back to the pool in that state. So the connection is closed at once; queued queries fail fast
 * ("Client was closed", "Connection terminated").
 *
 * A connection that ends while checked out is then released with an error, which makes the pool
 * drop it. Without that it would be lost to the pool for good when nobody releases it: drizzle's
 * transaction() releases its client only when BEGIN succeeded, so a BEGIN that times out used to
 * leak one pool slot each time, until the pool was empty and the instance never recovered. The
 * release that the holder may still make later is then a no-op instead of pg-pool's "Release
 * called on client which has already been released" (thrown from drizzle's finally, it would
 * replace the real error).
 */
function guardPooledClient(client: import('pg').PoolClient): void {
  // the socket may now close while the client is checked out, when the pool has no error listener
  // on it: without one of our own that 'error' event would crash the process
  client.on('error', () => {});

  // pg-pool gives the client a fresh release function at each checkout
  let pending: ((err?: Error | boolean) => void) | undefined;
  const release = (err?: Error | boolean) => {
    const fn = pending;
    pending = undefined;
    fn?.(err);
  };
  Object.defineProperty(client, 'release', {
    configurable: true,
    get: () => release,
    set: (fn: (err?: Error | boolean) => void) => {
      pending = fn;
    },
  });
  client.once('end', () => release(new Error('the database connection ended while checked out')));

  const check = (err: unknown) => {
    if (err instanceof Error && err.message === QUERY_READ_TIMEOUT) void client.end().catch(() => {});
  };
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const guarded = (...args: unknown[]): unknown => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, res: unknown) => {
        check(err);
        return (callback as (e: unknown, r: unknown) => unknown)(err, res);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) {
      return result.catch((err: unknown) => {
        check(err);
        throw err;
      });
    }
    return result;
  };
  client.query = guarded as typeof client.query;
}

/** `p`, or a rejection after `ms` (a late rejection of `p` is swallowed, not left unhandled). */
function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
