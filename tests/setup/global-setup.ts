import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';

/**
 * Builds a migrated PGlite data dir once per run and dumps it; each test file then loads a copy
 * (about 1 s instead of about 4 s for a fresh one). The dump is keyed by the migrations' content.
 */
export default async function setup() {
  const root = path.resolve(__dirname, '../..');
  const dir = path.join(root, '.tmp');
  fs.mkdirSync(dir, { recursive: true });
  const migrations = fs
    .readdirSync(path.join(root, 'drizzle'))
    .filter((f) => f.endsWith('.sql'))
    .map((f) => fs.readFileSync(path.join(root, 'drizzle', f), 'utf8'))
    .join('\n');
  const { createHash } = await import('node:crypto');
  const key = createHash('sha256').update(migrations).digest('hex').slice(0, 16);
  // a plain tar, not gzip: every test file's database loads it, and unpacking a gzip dump took
  // about 30% longer a load (decision 36-06)
  const file = path.join(dir, `pglite-template-${key}.tar`);
  if (!fs.existsSync(file)) {
    const lock = file + '.lock';
    // two projects may run this at once: the first writes, the other waits for the file
    let owner = false;
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      owner = true;
    } catch {}
    if (owner) {
      try {
        const db = await openDatabase({ memory: true });
        await runMigrations(db);
        const dump: Blob = await (db.raw as any).dumpDataDir('none');
        fs.writeFileSync(file + '.part', Buffer.from(await dump.arrayBuffer()));
        fs.renameSync(file + '.part', file);
        await db.close();
      } finally {
        fs.rmSync(lock, { force: true });
      }
    } else {
      const until = Date.now() + 120_000;
      while (!fs.existsSync(file) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      if (!fs.existsSync(file)) throw new Error('PGlite template dump was not created');
    }
  }
  process.env.PGLITE_TEMPLATE = file;
  // the same for PostgreSQL: one migrated template database per run's migrations, which each test
  // file's database copies (CREATE DATABASE ... TEMPLATE, about 1 s) instead of creating an empty one
  // and migrating it (about 3-4 s on a busy machine); decision 36-06
  if (process.env.TEST_DATABASE_URL && !process.env.PG_TEMPLATE_DB) {
    const template = await postgresTemplate(process.env.TEST_DATABASE_URL, `mc_tmpl_${key}`).catch(() => undefined);
    if (template) process.env.PG_TEMPLATE_DB = template;
  }
  // tests measure behaviour, not speed: heavy work keeps a milder priority (nice 10) so render
  // tests are not starved by the suite's own parallel files on a 2-core CI machine
  process.env.WORKER_NICE ??= '10';
  return () => {};
}

/**
 * The migrated template database `name` on the server at `base`, made when missing: built under a
 * name of its own and renamed when complete, so a test file never copies a half-migrated one (two
 * runs at once: the second rename fails and that copy is dropped). Kept for later runs with the
 * same migrations. Undefined (rejects) when the server does not answer: each file then migrates its own.
 */
async function postgresTemplate(base: string, name: string): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  const urlOf = (db: string) => {
    const u = new URL(base);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = await openDatabase({ databaseUrl: base, poolSize: 1 });
  const pool = admin.raw as import('pg').Pool;
  try {
    const found = await pool.query('select 1 from pg_database where datname = $1', [name]);
    if (!found.rowCount) {
      const building = `${name}_b${randomBytes(4).toString('hex')}`;
      await pool.query(`create database ${building}`);
      const db = await openDatabase({ databaseUrl: urlOf(building), poolSize: 1 });
      try {
        await runMigrations(db);
      } finally {
        await db.close();
      }
      try {
        await pool.query(`alter database ${building} rename to ${name}`);
      } catch {
        await pool.query(`drop database if exists ${building} with (force)`);
      }
    }
    return name;
  } finally {
    await admin.close();
  }
}
