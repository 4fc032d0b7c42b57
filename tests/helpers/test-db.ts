import fs from 'node:fs';
import crypto from 'node:crypto';
import { openDatabase, type Database } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';

/**
 * A fresh, migrated database for one test file: a PGlite copy of the template dump, or, in the
 * "postgres" project (TEST_DATABASE_URL set), a new database on that server, dropped afterwards.
 */
export async function createTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  if (process.env.TEST_DB_KIND === 'postgres' && process.env.TEST_DATABASE_URL) {
    const base = process.env.TEST_DATABASE_URL;
    const name = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = await openDatabase({ databaseUrl: base, poolSize: 1 });
    // a copy of the run's migrated template (tests/setup/global-setup.ts) when there is one; the
    // migrations below then find nothing left to do
    const template = process.env.PG_TEMPLATE_DB;
    const created = template
      ? await (admin.raw as import('pg').Pool).query(`create database ${name} template ${template}`).then(() => true, () => false)
      : false;
    if (!created) await (admin.raw as import('pg').Pool).query(`create database ${name}`);
    await admin.close();
    const url = new URL(base);
    url.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    await runMigrations(db);
    return Object.assign(db, {
      async drop() {
        await db.close().catch(() => {});
        const a = await openDatabase({ databaseUrl: base, poolSize: 1 });
        await (a.raw as import('pg').Pool).query(`drop database if exists ${name} with (force)`).catch(() => {});
        await a.close();
      },
    });
  }
  const file = process.env.PGLITE_TEMPLATE;
  // TEST_PGLITE_THREAD=1 runs every test file's database on its own thread, as the server does
  const ownThread = process.env.TEST_PGLITE_THREAD === '1';
  let db: Database;
  if (file && fs.existsSync(file)) {
    const blob = new Blob([fs.readFileSync(file)]);
    db = await openDatabase({ memory: true, loadDataDir: blob, ownThread });
  } else {
    db = await openDatabase({ memory: true, ownThread });
    await runMigrations(db);
  }
  return Object.assign(db, {
    async drop() {
      await db.close().catch(() => {});
    },
  });
}
