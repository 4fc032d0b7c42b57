import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';

/**
 * Runs a raw SQL query and gives its rows, typed by the caller. PGlite and node-postgres both
 * answer `{ rows }`; this is the one place that knows it.
 */
export async function queryRows<T extends Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The first row of a raw query, or undefined. */
export async function queryRow<T extends Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T | undefined> {
  return (await queryRows<T>(db, query))[0];
}
