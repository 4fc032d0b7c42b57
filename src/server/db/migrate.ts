import path from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Database } from './client';
import { projectRoot } from '#server/infra/paths';

const LOCK_KEY = 7_351_001; // advisory lock id for migrations

/**
 * Applies the committed SQL migrations. On PostgreSQL a session advisory lock makes this safe
 * when several instances start together: one migrates, the others wait and then find nothing to do.
 */
export async function runMigrations(database: Database): Promise<void> {
  const migrationsFolder = path.join(projectRoot(), 'drizzle');
  if (database.kind === 'pglite') {
    await migratePglite(database.db as any, { migrationsFolder });
    return;
  }
  const pool = database.raw as import('pg').Pool;
  const { default: pg } = await import('pg');
  // A connection of its own, without the pool's query_timeout and statement_timeout
  // (DB_QUERY_TIMEOUT_MS): waiting for the lock while another instance migrates, or one long
  // migration (an index on a big table), must not be cut off. Keepalive and the connect timeout stay.
  // (openDatabase gives the credentials in connectionString: pg-pool hides a separate `password`
  // option from spreading.)
  const client = new pg.Client({ ...pool.options, query_timeout: undefined, statement_timeout: undefined });
  client.on('error', () => {}); // a dropped connection fails the query in progress instead of crashing
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  } finally {
    await client.end().catch(() => {});
  }
}
