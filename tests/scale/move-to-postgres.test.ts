import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Db } from '#server/db/client';
import { runMigrations } from '#server/db/migrate';
import { LOCK_FILE } from '#server/db/data-dir-lock';
import { createScratchDatabase, pgAnswers, type ScratchDatabase } from '#tests/helpers/pg';
import { startS3Standin, type S3Standin } from '#tests/helpers/s3-standin';
import { formatMoveReport, MoveRefused, runMove } from '#server/features/backups/move';
import { listTables, STATE_TABLE } from '#server/features/backups/copy-database';
import type { Progress } from '#server/features/backups/progress';
import { BACKUP_FORMAT, tarDataDir, writeBackupFile } from '#server/features/backups/archive';
import { fileManifest } from '#server/features/backups/copy-files';
import { runRestore } from '#server/features/backups/restore';

/**
 * `npm run move` (issue 38, decision 38-02): a seeded embedded data dir (users, profiles, orders,
 * visits, files) moved to a fresh PostgreSQL database and the local S3 stand-in; every table's
 * rows and every sequence arrive, every file's SHA-256 matches, a second run (after an
 * interruption or by mistake) finishes without copying twice, and a target holding data or a
 * running server is refused with nothing written. Runs in the pglite project when a PostgreSQL
 * server answers (TEST_DATABASE_URL or the local default).
 */
const inPostgresProject = process.env.TEST_DB_KIND === 'postgres';
const pgUp = !inPostgresProject && (await pgAnswers());

/** users with profiles, orders with their history, visits: the bench's shapes at a small scale */
async function seed(db: Db) {
  await db.execute(sql`insert into users (username, email, password_hash) select 'move_user_' || g, 'move' || g || '@example.com', 'x' from generate_series(1, 40) g`);
  await db.execute(sql`insert into profiles (id, user_id, full_name, email) select 'bench' || g, u.id, 'Alex ' || g, 'alex' || g || '@example.com'
    from generate_series(1, 40) g join users u on u.username = 'move_user_' || g`);
  await db.execute(sql`
    insert into orders (status, customer_name, email, phone, company_name, position, quantity, card_type, card_style,
                        delivery_option, unit_price_cents, delivery_fee_cents, total_cents, price_snapshot, status_token, source, created_at)
    select 'pending', 'Customer ' || g, 'customer' || g || '@example.com', '+1 212 555 0100', 'Company', 'Manager', 100, 'standard', 'Matte',
           'standard', 400, 0, 40000, jsonb_build_object('n', g, 'note', 'a "quoted" value'), md5('order-' || g) || md5('token-' || g), 'order-form', now() - g * interval '1 hour'
    from generate_series(1, 300) g`);
  await db.execute(sql`insert into order_status_history (order_id, from_status, to_status, changed_by_label) select id, null, 'pending', 'system' from orders`);
  await db.execute(sql`insert into visits (profile_id, created_at, user_agent, device, source)
    select 'bench' || (1 + g % 40), now() - g * interval '1 minute', 'Mozilla/5.0', 'Mobile', 'qr' from generate_series(1, 2000) g`);
}

const quiet: Progress = { update() {}, done() {}, line() {} };
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe.runIf(pgUp)('move: embedded database and files to PostgreSQL and a bucket', () => {
  let dataDir: string;
  let target: ScratchDatabase;
  let s3: S3Standin;
  const files = new Map<string, Buffer>();
  const sourceCounts: Record<string, number> = {};
  let orderSeq = '';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-move-'));
    const db = await openDatabase({ dataDir });
    await runMigrations(db);
    await seed(db.db);
    // a row with awkward values: json, quotes, unicode, a null
    await db.db.execute(sql`update profiles set full_name = ${'Café "quoted" \\ back\nline 日本'} where id = 'bench1'`);
    for (let i = 0; i < 25; i++) {
      const key = `uploads/2026/${crypto.randomBytes(6).toString('hex')}.${i % 2 ? 'png' : 'webp'}`;
      const data = crypto.randomBytes(200 + i * 37);
      files.set(key, data);
      fs.mkdirSync(path.dirname(path.join(dataDir, 'files', key)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'files', key), data);
    }
    const pgl = db.raw as { query<T>(q: string): Promise<{ rows: T[] }> };
    for (const t of await listTables(pgl as never)) sourceCounts[t] = Number((await pgl.query<{ n: string }>(`select count(*)::text as n from "${t}"`)).rows[0].n);
    orderSeq = (await pgl.query<{ v: string }>(`select last_value::text as v from orders_id_seq`)).rows[0].v;
    await db.close();
    [target, s3] = await Promise.all([createScratchDatabase('mcmove'), startS3Standin()]);
  }, 120_000);

  afterAll(async () => {
    await target?.drop();
    await s3?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const bucket = () => ({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });

  it('refuses while a server holds the data dir, writing nothing', async () => {
    // a live process that is not this one: the parent of the test worker
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), `${process.ppid}\n`);
    try {
      await expect(runMove({ dataDir, databaseUrl: target.url, progress: quiet })).rejects.toThrow(/server is running/);
    } finally {
      fs.rmSync(path.join(dataDir, LOCK_FILE), { force: true });
    }
    expect(await target.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).toEqual([{ n: 0 }]);
  });

  it('copies every table, sequence and file, and the counts and checksums match', async () => {
    expect(sourceCounts.orders).toBeGreaterThanOrEqual(300);
    expect(sourceCounts.visits).toBe(2000);
    const report = await runMove({ dataDir, databaseUrl: target.url, bucket: bucket(), progress: quiet });
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
    for (const [table, n] of Object.entries(sourceCounts)) {
      const [row] = await target.query<{ n: number }>(`select count(*)::int as n from "${table}"`);
      expect({ table, n: row.n }).toEqual({ table, n });
    }
    expect(report.tables.map((t) => t.table).sort()).toEqual(Object.keys(sourceCounts).sort());
    // sequences continue where the embedded database left off: a new order gets the next id
    const [seq] = await target.query<{ v: string }>(`select last_value::text as v from orders_id_seq`);
    expect(seq.v).toBe(orderSeq);
    // the values themselves, not just the counts
    const [bio] = await target.query<{ bio: string }>(`select full_name as bio from profiles where id = 'bench1'`);
    expect(bio.bio).toBe('Café "quoted" \\ back\nline 日本');
    // every file, byte for byte
    const objects = s3.objects();
    expect(objects.size).toBe(files.size);
    for (const [key, data] of files) expect(sha(objects.get(key)!.data)).toBe(sha(data));
    expect(report.files).toMatchObject({ files: 25, uploaded: 25, skipped: 0, mismatches: [] });
    // the bookkeeping table is gone once everything matched
    expect(await target.query(`select to_regclass('public.${STATE_TABLE}') as t`)).toEqual([{ t: null }]);
    const text = formatMoveReport(report);
    expect(text).toContain('every count matches');
    expect(text).toContain('every SHA-256 checksum matches');
  }, 120_000);

  it('refuses a target that holds data unless --force, then fills it again', async () => {
    await expect(runMove({ dataDir, databaseUrl: target.url, progress: quiet })).rejects.toBeInstanceOf(MoveRefused);
    const report = await runMove({ dataDir, databaseUrl: target.url, bucket: bucket(), force: true, progress: quiet });
    expect(report.ok).toBe(true);
    // files already in the bucket with the same checksum are not sent again
    expect(report.files).toMatchObject({ uploaded: 0, skipped: 25 });
    const [row] = await target.query<{ n: number }>(`select count(*)::int as n from visits`);
    expect(row.n).toBe(2000);
  }, 120_000);

  it('finishes an interrupted move: copied tables are kept, the rest copied, nothing twice', async () => {
    // an interrupted run: the state table records some tables as done, the others are empty
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    try {
      await c.query(`create table ${STATE_TABLE} (table_name text primary key, row_count bigint not null, copied_at timestamptz not null default now())`);
      await c.query(`insert into ${STATE_TABLE} (table_name, row_count) values ('users', $1), ('profiles', $2)`, [sourceCounts.users, sourceCounts.profiles]);
      await c.query(`set session_replication_role = replica`);
      await c.query(`delete from visits`);
      await c.query(`delete from orders`);
    } finally {
      await c.end();
    }
    s3.objects().delete([...files.keys()][0]);
    const report = await runMove({ dataDir, databaseUrl: target.url, bucket: bucket(), progress: quiet });
    expect(report.mismatches).toEqual([]);
    expect(report.tables.find((t) => t.table === 'users')?.copied).toBe(false);
    expect(report.tables.find((t) => t.table === 'visits')?.copied).toBe(true);
    expect(report.files).toMatchObject({ uploaded: 1, skipped: 24 });
    for (const t of ['users', 'profiles', 'orders', 'visits']) {
      const [row] = await target.query<{ n: number }>(`select count(*)::int as n from "${t}"`);
      expect({ t, n: row.n }).toEqual({ t, n: sourceCounts[t] });
    }
  }, 120_000);

  it('npm run restore -- FILE --to-database: a backup of the data dir lands in another PostgreSQL database with every row and file', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-move-backup-'));
    const second = await createScratchDatabase('mcrestore');
    try {
      const gz = path.join(work, 'db.tar.gz');
      await tarDataDir(path.join(dataDir, 'pglite'), gz);
      const file = path.join(work, 'backup-20261127-000000-000.tar');
      const files = await fileManifest(path.join(dataDir, 'files'));
      await writeBackupFile(file, { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), database: 'pglite', databaseBytes: fs.statSync(gz).size, filesIncluded: true, files }, gz, path.join(dataDir, 'files'));
      const report = await runRestore({ file, dataDir: path.join(work, 'unused'), databaseUrl: second.url, bucket: bucket(), progress: quiet });
      expect(report.files).toMatchObject({ listed: 25, restored: 25, missing: [], mismatches: [] });
      expect(report.move?.ok).toBe(true);
      for (const t of ['users', 'orders', 'visits']) {
        const [row] = await second.query<{ n: number }>(`select count(*)::int as n from "${t}"`);
        expect({ t, n: row.n }).toEqual({ t, n: sourceCounts[t] });
      }
    } finally {
      await second.drop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});
