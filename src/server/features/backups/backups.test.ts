import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { startS3Standin } from '#tests/helpers/s3-standin';
import { runRestore } from './restore';
import { MoveRefused } from './move';
import type { Progress } from './progress';

/**
 * Online backups (issue 38, decision 38-02): staff write one while the app serves, list them with
 * size and time, and `npm run restore` brings one back into a fresh DATA_DIR with every order and
 * file. On PostgreSQL the route says where backups come from instead (409).
 */
const quiet: Progress = { update() {}, done() {}, line() {} };
const onPostgres = process.env.TEST_DB_KIND === 'postgres';

let t: TestApp;
let admin: Agent;
const restoreDirs: string[] = [];

beforeAll(async () => {
  // staff's second factor (issue 39) is not what this file tests
  t = await createTestApp({ env: { RATE_LIMITS: 'off', BACKUP_KEEP: '2', STAFF_TWO_FACTOR: 'optional' } });
  admin = (await adminAgent(t.app)).agent;
});
afterAll(async () => {
  await t.close();
  for (const d of restoreDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe.runIf(!onPostgres)('backups of the embedded database', () => {
  it('staff write a backup while serving; it lists with size and time; a restore finds every order and file', async () => {
    const orderIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await new Agent(t.app).post('/api/order', orderInput());
      expect(res.statusCode).toBe(201);
      orderIds.push(res.json().id);
    }
    const stored = crypto.randomBytes(3000);
    fs.mkdirSync(path.join(t.dataDir, 'files/uploads/2026'), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'files/uploads/2026/abc123.png'), stored);

    const made = await admin.post('/api/admin/backups', {});
    expect(made.statusCode).toBe(201);
    const { backup } = made.json();
    expect(backup).toMatchObject({ files: 1, trigger: 'staff', inBucket: false });
    expect(backup.sizeBytes).toBeGreaterThan(1000);
    expect(backup.name).toMatch(/^backup-\d{8}-\d{6}-\d{3}\.tar$/);

    const list = await admin.get('/api/admin/backups');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ available: true, running: false, keep: 2, everyHours: 0 });
    expect(list.json().backups[0]).toMatchObject({ name: backup.name, sizeBytes: backup.sizeBytes, createdAt: backup.createdAt });

    // an order acknowledged after the backup is not in it; the ones before are
    const after = await new Agent(t.app).post('/api/order', orderInput());
    expect(after.statusCode).toBe(201);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-restore-test-'));
    restoreDirs.push(dir);
    const file = path.join(t.dataDir, 'backups', backup.name);
    const report = await runRestore({ file, dataDir: dir, progress: quiet });
    expect(report.files).toMatchObject({ listed: 1, restored: 1, missing: [], mismatches: [] });
    expect(fs.readFileSync(path.join(dir, 'files/uploads/2026/abc123.png')).equals(stored)).toBe(true);
    const db = await PGlite.create({ dataDir: path.join(dir, 'pglite') });
    try {
      const { rows } = await db.query<{ id: number }>('select id from orders order by id');
      const ids = rows.map((r) => Number(r.id));
      for (const id of orderIds) expect(ids).toContain(id);
      expect(ids).not.toContain(after.json().id);
    } finally {
      await db.close();
    }

    // a restore never writes over a database
    await expect(runRestore({ file, dataDir: dir, progress: quiet })).rejects.toBeInstanceOf(MoveRefused);
  }, 120_000);

  it('keeps the newest BACKUP_KEEP backups', async () => {
    for (let i = 0; i < 2; i++) expect((await admin.post('/api/admin/backups', {})).statusCode).toBe(201);
    const list = (await admin.get('/api/admin/backups')).json();
    expect(list.backups).toHaveLength(2);
    expect(fs.readdirSync(path.join(t.dataDir, 'backups')).filter((n) => n.endsWith('.tar'))).toHaveLength(2);
  }, 120_000);

  it('a user is refused (403) and nothing is written; bad input is a 400', async () => {
    const { agent } = await signedInAgent(t.app);
    const before = fs.readdirSync(path.join(t.dataDir, 'backups')).length;
    expect((await agent.post('/api/admin/backups', {})).statusCode).toBe(403);
    expect((await agent.get('/api/admin/backups')).statusCode).toBe(403);
    expect((await admin.post('/api/admin/backups', { where: '/etc' })).statusCode).toBe(400);
    expect(fs.readdirSync(path.join(t.dataDir, 'backups')).length).toBe(before);
  });
});

describe.runIf(!onPostgres)('backups with files in a bucket', () => {
  it('are also put in the bucket under backups/, listed as such, and pruned there too', async () => {
    const s3 = await startS3Standin();
    const b = await createTestApp({ env: { RATE_LIMITS: 'off', BACKUP_KEEP: '1', STAFF_TWO_FACTOR: 'optional', ...s3.env() } });
    try {
      const staff = (await adminAgent(b.app)).agent;
      const first = await staff.post('/api/admin/backups', {});
      expect(first.statusCode).toBe(201);
      // files live in the bucket: listed, not copied into the backup
      expect(first.json().backup).toMatchObject({ inBucket: true, files: 0 });
      const key = (name: string) => `backups/${name}`;
      expect(s3.objects().has(key(first.json().backup.name))).toBe(true);
      const second = await staff.post('/api/admin/backups', {});
      expect(second.statusCode).toBe(201);
      expect(s3.objects().has(key(second.json().backup.name))).toBe(true);
      expect(s3.objects().has(key(first.json().backup.name))).toBe(false);
      expect((await staff.get('/api/admin/backups')).json().backups).toHaveLength(1);
    } finally {
      await b.close();
      await s3.close();
    }
  }, 120_000);
});

describe.runIf(onPostgres)('backups on PostgreSQL', () => {
  it('answer 409 with where backups come from', async () => {
    const res = await admin.post('/api/admin/backups', {});
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/pg_dump/);
    expect((await admin.get('/api/admin/backups')).json()).toMatchObject({ available: false, backups: [] });
  });
});
