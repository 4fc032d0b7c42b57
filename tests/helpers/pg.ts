import crypto from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the scale and fault suites use (TEST_DATABASE_URL or the local default). */
export const PG_BASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Does a PostgreSQL server answer at `url` (within 2 s)? */
export async function pgAnswers(url = PG_BASE_URL): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export interface ScratchDatabase {
  name: string;
  url: string;
  /** one query on the scratch database through a short-lived client */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A new empty database on that server (not migrated), dropped with drop(). */
export async function createScratchDatabase(prefix = 'mc'): Promise<ScratchDatabase> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_BASE_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(PG_BASE_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    name,
    url,
    async query(text, params) {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      await c.connect();
      try {
        return (await c.query(text, params as unknown[])).rows;
      } finally {
        await c.end().catch(() => undefined);
      }
    },
    async drop() {
      const a = new pg.Client({ connectionString: PG_BASE_URL, connectionTimeoutMillis: 3000 });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await a.end().catch(() => undefined);
    },
  };
}
