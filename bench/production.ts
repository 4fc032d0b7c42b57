/**
 * The shop floor at scale (issue 22): one ZIP of 500 approved cards' print files and job tickets.
 *  - POST /api/admin/production/export of 500 orders (one designed card each), streamed to disk:
 *    under 60 s on the machine's cores (2 in the reference runs);
 *  - the server's RSS, sampled every 100 ms while it streams: under 600 MB;
 *  - GET /p/{id} under autocannon while the ZIP is made: p99 within 2x its idle p99 and throughput
 *    at least 60% of idle (the isolation bar, bench/isolation.ts); idle is the mean of a run before
 *    the ZIP and one after it, and the ZIP is downloaded by its own process (curl), not by the
 *    load generator's thread.
 * The built server (dist/, `npm run build` first) runs as its own process on a seeded data dir.
 * Run alone: `npx tsx bench/production.ts` (--write merges the bars into bench/report.json and
 * re-renders report.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { runSeeds } from '../src/server/seeds';
import { users } from '../src/server/db/schema/index';
import { signedInAgent } from '../tests/helpers/factories';

const CARDS = Number(process.env.BENCH_PRODUCTION_CARDS ?? 500);
const LOAD_S = Number(process.env.BENCH_PRODUCTION_LOAD_SECONDS ?? 8);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'bench-production-1';
interface Bar {
  db?: string;
  what: string;
  bar: string;
  figure: string;
  status: 'pass' | 'fail' | 'n/a';
}

/** Seeds the data dir: an admin, a public profile, and CARDS approved orders (copies of one real designed card). */
async function seed(dataDir: string): Promise<{ email: string; profileId: string; orderIds: number[] }> {
  const database = await openDatabase({ dataDir });
  try {
    await runMigrations(database);
    const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'optional', PUBLIC_URL: 'https://cards.bench.test' });
    const app = await buildApp({ config, database, serveWeb: false });
    await app.ready();
    await runSeeds(app.ctx);
    try {
      const staff = await signedInAgent(app, { password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Bench', lastName: 'Floor' });
      await database.db.update(users).set({ role: 'admin' }).where(sql`${users.id} = ${staff.user.id}`);
      const profile = await staff.agent.post('/api/profile', { fullName: 'Floor Bench', jobTitle: 'Bench', email: 'floor@example.com', profileTemplate: 'modern', links: [] });
      if (profile.statusCode !== 201) throw new Error(`profile: ${profile.statusCode} ${profile.body.slice(0, 200)}`);
      const submitted = await staff.agent.post('/api/cards/submit-for-review', {
        templateId: 17,
        cardType: 'color',
        customerProfile: { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', companyName: 'US Navy', email: 'grace@example.com', phoneNumber: '+1 212 555 0100' },
        shippingAddress: { name: 'Grace Hopper', line1: '1 Bench Street', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' },
      });
      if (submitted.statusCode !== 201) throw new Error(`design: ${submitted.statusCode} ${submitted.body.slice(0, 200)}`);
      const { orderId, cardId } = submitted.json() as { orderId: number; cardId: number };
      const approved = await staff.agent.put(`/api/admin/business-cards/${cardId}/review`, { status: 'approved', reviewNotes: '' });
      if (approved.statusCode !== 200) throw new Error(`approve: ${approved.statusCode} ${approved.body.slice(0, 200)}`);
      // CARDS - 1 more orders, each with its own copy of the card (approved) and its own code
      await database.db.execute(sql`
        with made as (
          insert into orders (user_id, status, customer_name, email, quantity, card_type, card_style, delivery_option, unit_price_cents, delivery_fee_cents, total_cents, price_snapshot, status_token, source)
          select user_id, 'processing', customer_name || ' ' || g, email, quantity, card_type, card_style, delivery_option, unit_price_cents, delivery_fee_cents, total_cents, price_snapshot, md5(random()::text || g) || md5(g::text), 'design'
            from orders, generate_series(2, ${CARDS}::int) g where id = ${orderId}
          returning id
        )
        insert into cards (user_id, profile_id, template_id, card_type, customer_profile, customizations, front_image_url, back_image_url, qr_code_url, status, order_id, reviewed_at)
        select c.user_id, c.profile_id, c.template_id, c.card_type, c.customer_profile, c.customizations, c.front_image_url, c.back_image_url, c.qr_code_url, 'approved', made.id, now()
          from cards c, made where c.id = ${cardId}`);
      await database.db.execute(sql`update orders o set card_id = c.id from cards c where c.order_id = o.id and o.card_id is null`);
      await database.db.execute(sql`
        insert into card_codes (code, order_id, label)
        select upper(substr(md5(o.id::text || random()::text), 1, 8)), o.id, 'Order #' || o.id from orders o
         where not exists (select 1 from card_codes k where k.order_id = o.id)`);
      const rows = (await database.db.execute(sql`select id from orders order by id`)) as unknown as { rows: Array<{ id: number }> };
      return { email: staff.user.email, profileId: (profile.json() as { id: string }).id, orderIds: rows.rows.map((r) => Number(r.id)) };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

async function startServer(dataDir: string) {
  if (!fs.existsSync(path.join(root, 'dist/server/worker.js'))) throw new Error('run npm run build first');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = spawn(process.execPath, [path.join(root, 'dist/server/server.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'optional', DATA_DIR: dataDir, PORT: String(port), ...(process.env.PGLITE_THREAD ? { PGLITE_THREAD: process.env.PGLITE_THREAD } : {}), ...(process.env.WORKER_NICE ? { WORKER_NICE: process.env.WORKER_NICE } : {}) },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) break;
    } catch {}
    if (Date.now() > until || proc.exitCode !== null) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, proc, stop: () => new Promise<void>((r) => (proc.exitCode !== null ? r() : (proc.once('exit', () => r()), proc.kill('SIGTERM')))) };
}

function load(url: string, durationS: number): Promise<{ requestsPerSec: number; p99: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, duration: durationS, headers: { 'accept-encoding': 'gzip' } }, (err: Error | null, r: any) => {
      if (err) return reject(err);
      resolve({ requestsPerSec: Math.round(r.requests.average), p99: r.latency.p99, non2xx: r.non2xx });
    });
  });
}

export async function run(): Promise<{ bars: Bar[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-production-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const { email, profileId, orderIds } = await seed(dataDir);
    server = await startServer(dataDir);
    const { base, proc } = server;
    const json = { 'content-type': 'application/json', origin: base };
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const rssMb = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024);

    // /p/{id} idle (after a warm-up)
    const page = `${base}/p/${profileId}`;
    await load(page, 2);
    const idleBefore = await load(page, LOAD_S);

    // the ZIP, streamed to disk, RSS sampled every 100 ms, /p/{id} under load while it runs
    const file = path.join(dataDir, 'export.zip');
    const rssBefore = rssMb();
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssMb());
      } catch {}
    }, 100);
    const t0 = performance.now();
    // the ZIP is downloaded by its own process (curl), as a staff member's browser would: the load
    // generator's thread must not also be the thread that receives 24 MB of ZIP
    const zipDone = new Promise<number>((resolve, reject) => {
      const curl = spawn('curl', ['-sS', '-o', file, '-w', '%{http_code}', '-X', 'POST', '-H', 'content-type: application/json', '-H', `origin: ${base}`, '-H', `cookie: ${cookie}`, '--data', JSON.stringify({ orderIds }), `${base}/api/admin/production/export`]);
      let status = '';
      curl.stdout.on('data', (d) => (status += String(d)));
      curl.on('error', reject);
      curl.on('exit', (code) => (code === 0 && status === '200' ? resolve(performance.now() - t0) : reject(new Error(`export: curl exit ${code}, HTTP ${status}`))));
    });
    // the load runs while the ZIP is being made (started after a second so rendering is under way)
    await new Promise((r) => setTimeout(r, 1000));
    const loaded = await load(page, LOAD_S);
    const zipMs = await zipDone;
    clearInterval(sampler);
    const loadedDuringZip = performance.now() - t0 >= 1000 + LOAD_S * 1000 * 0.9 && zipMs >= 1000 + LOAD_S * 1000 * 0.9;
    // idle again after the ZIP: on a shared two-core machine one idle figure drifts by up to 2x
    // between runs; the baseline is the mean of the idle runs on both sides of the loaded one
    const idleAfter = await load(page, LOAD_S);
    const idle = {
      requestsPerSec: Math.round((idleBefore.requestsPerSec + idleAfter.requestsPerSec) / 2),
      p99: Math.max(1, (idleBefore.p99 + idleAfter.p99) / 2),
    };

    const listing = spawnSync('unzip', ['-Z1', file]).stdout.toString().trim().split('\n');
    const printPdfs = listing.filter((n) => n.endsWith('.pdf') && !n.includes('job-ticket')).length;
    const tickets = listing.filter((n) => n.includes('job-ticket')).length;
    const sizeMb = (fs.statSync(file).size / 1024 / 1024).toFixed(1);
    const cores = os.availableParallelism?.() ?? os.cpus().length;
    const p99Ratio = Math.round((loaded.p99 / Math.max(1, idle.p99)) * 100) / 100;
    const throughputRatio = Math.round((loaded.requestsPerSec / Math.max(1, idle.requestsPerSec)) * 1000) / 1000;
    return {
      bars: [
        {
          db: 'pglite',
          what: `Production: ZIP of ${CARDS} cards' print files and job tickets (POST /api/admin/production/export, streamed to disk)`,
          bar: '< 60 s on 2 cores',
          figure: `${(zipMs / 1000).toFixed(1)} s on ${cores} cores; ${listing.length} entries (${printPdfs} print PDFs, ${tickets} job tickets), ${sizeMb} MB`,
          status: zipMs < 60_000 && printPdfs === CARDS && tickets === CARDS ? 'pass' : 'fail',
        },
        {
          db: 'pglite',
          what: 'Production: server RSS while the ZIP streams (sampled every 100 ms)',
          bar: '< 600 MB',
          figure: `peak ${peakRss} MB (${rssBefore} MB before the ZIP: the server, its embedded database and its worker threads)`,
          status: peakRss < 600 ? 'pass' : 'fail',
        },
        {
          db: 'pglite',
          what: 'Production: GET /p/{id} under autocannon (50 connections) while the ZIP is made',
          bar: 'p99 <= 2x idle, throughput >= 60% of idle',
          figure: `p99 ${loaded.p99} ms vs idle ${idle.p99} ms (${p99Ratio}x; ${idleBefore.p99} and ${idleAfter.p99} ms); ${loaded.requestsPerSec} vs ${idle.requestsPerSec} req/s (${Math.round(throughputRatio * 100)}%; idle ${idleBefore.requestsPerSec} before the ZIP, ${idleAfter.requestsPerSec} after)${loadedDuringZip ? '' : '; the ZIP ended before the load did'}${loaded.non2xx ? `; ${loaded.non2xx} non-2xx` : ''}`,
          status: loaded.p99 <= 2 * Math.max(1, idle.p99) && throughputRatio >= 0.6 && loaded.non2xx === 0 ? 'pass' : 'fail',
        },
      ],
    };
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  run()
    .then(({ bars }) => {
      for (const b of bars) console.log(`${b.status.toUpperCase()} [${b.db}] ${b.what}: ${b.figure} (bar ${b.bar})`);
      if (process.argv.includes('--write')) {
        const file = path.join(root, 'bench/report.json');
        const report = JSON.parse(fs.readFileSync(file, 'utf8'));
        report.bars = [...(report.bars as Bar[]).filter((b) => !b.what.startsWith('Production:')), ...bars];
        report.features = { ...(report.features ?? {}), production: { bars, measuredAt: new Date().toISOString() } };
        fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
        spawnSync('npx', ['tsx', 'bench/run.ts', '--report-only'], { cwd: root, stdio: 'inherit' });
      }
      process.exit(0);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
