/**
 * Moving and backing up (issue 38, decision 38-02).
 *
 * 1. An online backup under `/p/{id}` load: the real server on a seeded embedded data dir, steady
 *    profile-page requests, staff's POST /api/admin/backups in the middle. Bar: the p99 of
 *    `/p/{id}` answers that started during the backup is at most twice the p99 of an idle window
 *    of the same length just before.
 * 2. `npm run move` of the same data dir (100,000 orders, 1,000,000 visits, 10,000 files) to a
 *    fresh PostgreSQL database and the S3 stand-in. Bar: under 5 minutes, every row count and
 *    file checksum matching.
 *
 * Run alone: `npx tsx bench/move.ts` (BENCH_MOVE_SCALE=0.01 for a quick look at 1/100 of the
 * volumes), or from `npm run bench`. Needs a PostgreSQL server at TEST_DATABASE_URL (or the local
 * default) for part 2; without one that bar is n/a.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { runMove } from '../src/server/features/backups/move';
import { createProgress } from '../src/server/features/backups/progress';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { startS3Standin } from '../tests/helpers/s3-standin';
import { createScratchDatabase, pgAnswers } from '../tests/helpers/pg';
import { BENCH_PASSWORD, seedBenchData } from './seed-data';

interface Bar {
  db?: string;
  what: string;
  bar: string;
  figure: string;
  status: 'pass' | 'fail' | 'n/a';
}

const SCALE = Number(process.env.BENCH_MOVE_SCALE ?? 1);
const SIZES = { profiles: 1000, orders: Math.round(100_000 * SCALE), visits: Math.round(1_000_000 * SCALE), files: Math.round(10_000 * SCALE) };
const LOAD_CONNECTIONS = 8;
const log = (...a: unknown[]) => console.log('[bench move]', ...a);
const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(0.99 * s.length))] * 10) / 10 : NaN;
};

function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)', 'accept-encoding': 'gzip' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The built server (built first when missing or stale) on `dataDir`, on a free loopback port. */
async function startServer(dataDir: string) {
  const { buildIsStale } = (await import(pathToFileURL(path.join(root, 'scripts/stale.mjs')).href)) as { buildIsStale(root: string, stamp?: string, dirs?: string[]): boolean };
  const serverJs = path.join(root, 'dist/server/server.js');
  if (!fs.existsSync(serverJs) || buildIsStale(root, path.join(root, 'dist', '.server-stamp'), ['src/server', 'src/shared', 'drizzle'])) {
    log('building the server...');
    const { buildServer } = (await import(pathToFileURL(path.join(root, 'scripts/build.mjs')).href)) as { buildServer(): Promise<void> };
    const started = Date.now();
    await buildServer();
    fs.writeFileSync(path.join(root, 'dist', '.server-stamp'), String(started));
  }
  const net = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
  const proc = spawn(process.execPath, [serverJs], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, RATE_LIMITS: 'off', LOG_LEVEL: process.env.BENCH_MOVE_LOG ?? 'warn', STAFF_TWO_FACTOR: 'optional' },
    stdio: ['ignore', process.env.BENCH_MOVE_LOG ? 'inherit' : 'ignore', 'inherit'],
  });
  let exited = false;
  const exit = new Promise((r) => proc.once('exit', () => ((exited = true), r(null))));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 180_000;
  for (;;) {
    if (exited) throw new Error('the server exited at start-up');
    const agent = new http.Agent();
    if ((await get(agent, `${url}/api/health`)) === 200) break;
    if (Date.now() > until) throw new Error('the server did not start within 180 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (exited) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(t);
    },
  };
}

async function seed(dataDir: string): Promise<number> {
  const started = performance.now();
  const database = await openDatabase({ dataDir });
  try {
    await runMigrations(database);
    await seedBenchData(database.db, { profiles: SIZES.profiles, orders: SIZES.orders, visits: SIZES.visits });
    // bench1 is staff for the backup request
    await database.db.execute(sql`update users set role = 'admin', email_verified_at = now() where email = 'bench1@example.com'`);
  } finally {
    await database.close();
  }
  const files = path.join(dataDir, 'files', 'uploads', '2026');
  fs.mkdirSync(files, { recursive: true });
  for (let i = 0; i < SIZES.files; i++) fs.writeFileSync(path.join(files, `${crypto.randomBytes(8).toString('hex')}.webp`), crypto.randomBytes(2048 + (i % 16) * 1024));
  return (performance.now() - started) / 1000;
}

/** /p/{id} latencies by start time while `during` runs, and for an idle window of the same length before. */
async function backupUnderLoad(dataDir: string): Promise<{ bars: Bar[]; figures: Record<string, unknown> }> {
  const server = await startServer(dataDir);
  try {
    const login = await post(`${server.url}/api/auth/login`, { email: 'bench1@example.com', password: BENCH_PASSWORD });
    const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    if (login.status !== 200) throw new Error(`staff sign-in answered ${login.status}: ${login.body.slice(0, 200)}`);
    const samples: Array<{ at: number; ms: number; status: number }> = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: LOAD_CONNECTIONS });
    let stop = false;
    const lane = async (n: number) => {
      for (let i = n; !stop; i += LOAD_CONNECTIONS) {
        const at = performance.now();
        const status = await get(agent, `${server.url}/p/bench${1 + (i % 200)}`);
        samples.push({ at, ms: performance.now() - at, status });
      }
    };
    const lanes = Promise.all(Array.from({ length: LOAD_CONNECTIONS }, (_, n) => lane(n)));
    // 5 s of warm-up (not counted), 10 s of steady load as the idle reference, then the backup
    await new Promise((r) => setTimeout(r, 5000));
    const idleStart = performance.now();
    await new Promise((r) => setTimeout(r, 10_000));
    const backupStart = performance.now();
    const res = await post(`${server.url}/api/admin/backups`, {}, { cookie });
    const backupEnd = performance.now();
    stop = true;
    await lanes;
    agent.destroy();
    if (res.status !== 201) throw new Error(`backup answered ${res.status}: ${res.body.slice(0, 200)}`);
    const backup = JSON.parse(res.body).backup as { sizeBytes: number; pauseMs: number; durationMs: number };
    // for comparison, what the pause was before decision 38-06: one full copy of the data dir (taken
    // here without the lock, the database idle but for the page load, so a lower bound)
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-fullcopy-'));
    const c0 = performance.now();
    fs.cpSync(path.join(dataDir, 'pglite'), scratch, { recursive: true });
    const fullCopyMs = Math.round(performance.now() - c0);
    fs.rmSync(scratch, { recursive: true, force: true });
    const idle = samples.filter((s) => s.at >= idleStart && s.at < backupStart).map((s) => s.ms);
    const during = samples.filter((s) => s.at >= backupStart && s.at < backupEnd).map((s) => s.ms);
    const errors = samples.filter((s) => s.status !== 200).length;
    const idleP99 = p99(idle);
    const duringP99 = p99(during);
    log(`backup ${(backup.sizeBytes / 1024 / 1024).toFixed(1)} MB in ${backup.durationMs} ms (database pause ${backup.pauseMs} ms); /p/{id} p99 idle ${idleP99} ms, during ${duringP99} ms (${during.length} requests), non-200 ${errors}`);
    const ok = duringP99 <= 2 * idleP99 && errors === 0;
    return {
      figures: { backup, fullCopyMs, idleP99, duringP99, requestsDuring: during.length, errors },
      bars: [
        {
          db: 'pglite',
          what: `/p/{id} p99 during an online backup (${SIZES.orders} orders, ${SIZES.visits} visits, ${SIZES.files} files; ${LOAD_CONNECTIONS} connections)`,
          bar: '<= 2x idle p99, no errors',
          figure: `${duringP99} ms vs idle ${idleP99} ms (backup ${(backup.sizeBytes / 1024 / 1024).toFixed(0)} MB in ${(backup.durationMs / 1000).toFixed(1)} s, database pause ${backup.pauseMs} ms; a full copy of the data dir takes ${fullCopyMs} ms)`,
          status: ok ? 'pass' : 'fail',
        },
      ],
    };
  } finally {
    await server.stop();
  }
}

async function move(dataDir: string): Promise<{ bars: Bar[]; figures: Record<string, unknown> }> {
  const what = `npm run move: ${SIZES.orders} orders, ${SIZES.visits} visits, ${SIZES.files} files to PostgreSQL and the bucket`;
  if (!(await pgAnswers())) return { bars: [{ what, bar: '< 5 min, every count and checksum matches', figure: 'no PostgreSQL server', status: 'n/a' }], figures: {} };
  const [target, s3] = await Promise.all([createScratchDatabase('mcbenchmove'), startS3Standin()]);
  try {
    const report = await runMove({
      dataDir,
      databaseUrl: target.url,
      bucket: { endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      progress: createProgress(process.stdout),
    });
    const rows = report.tables.reduce((n, t) => n + t.source, 0);
    log(`moved ${rows} rows and ${report.files?.files} files in ${report.seconds.toFixed(1)} s; mismatches: ${report.mismatches.length}`);
    return {
      figures: { seconds: Math.round(report.seconds * 10) / 10, rows, files: report.files?.files, bytes: report.files?.bytes, mismatches: report.mismatches.slice(0, 10) },
      bars: [{ db: 'postgres', what, bar: '< 5 min, every count and checksum matches', figure: `${report.seconds.toFixed(1)} s, ${rows} rows, ${report.files?.files} files, ${report.mismatches.length ? `${report.mismatches.length} MISMATCHES` : 'all match'}`, status: report.ok && report.seconds < 300 ? 'pass' : 'fail' }],
    };
  } finally {
    await target.drop();
    await s3.close();
  }
}

export async function run(): Promise<{ bars: Bar[]; sizes: typeof SIZES; seedSeconds: number; backup: Record<string, unknown>; move: Record<string, unknown> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-move-'));
  try {
    log(`seeding ${JSON.stringify(SIZES)}...`);
    const seedSeconds = await seed(dataDir);
    log(`seeded in ${seedSeconds.toFixed(1)} s`);
    const b = await backupUnderLoad(dataDir);
    // BENCH_MOVE_PARTS=backup: the backup part alone (no PostgreSQL needed)
    const m = process.env.BENCH_MOVE_PARTS === 'backup' ? { figures: {}, bars: [] } : await move(dataDir);
    return { bars: [...b.bars, ...m.bars], sizes: SIZES, seedSeconds: Math.round(seedSeconds), backup: b.figures, move: m.figures };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run().then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
