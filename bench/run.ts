/**
 * npm run bench: builds, starts the real server on a fresh data dir filled with realistic data,
 * measures it against the bars of the engineering guide (section 5) and writes bench/report.md
 * and bench/report.json. With DATABASE_URL set, the load part runs again on PostgreSQL (in a new
 * scratch database on that server, dropped afterwards).
 *
 * Then every feature bench beside this file (bench/<feature>.ts exporting `run()`) runs and its
 * figures go in the report as they come.
 *
 * Options: --duration=<seconds per load run> (default 10), --no-lighthouse, --lighthouse-runs=<n>
 * (default 3: the median of n runs is reported, each run's score listed), --no-features (the
 * feature sections and their bars of the last report are kept, with their dates),
 * --keep (keep data dirs), --report-only (re-render report.md from report.json),
 * --only=<feature>[,<feature>...] (run only those feature benches, e.g. --only=hostile,static-delivery,
 * and merge their figures and bars into the existing report: the rest of it stays as it was, with
 * its own date; the report says which sections were measured when)
 * Loopback only; every load run is bounded in time and connections.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { BENCH_PASSWORD, BENCH_SIZES, seedBenchData } from './seed-data';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'bench', '.work');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`));
const DURATION = Number(arg('duration')?.split('=')[1] ?? 10);
const LIGHTHOUSE = !arg('no-lighthouse');
const LIGHTHOUSE_RUNS = Math.max(1, Number(arg('lighthouse-runs')?.split('=')[1] ?? 3));
const KEEP = !!arg('keep');
const FEATURES = !arg('no-features');
const ONLY = arg('only=')?.split('=')[1]?.split(',').map((x) => x.trim()).filter(Boolean) ?? null;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const MOBILE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const runId = crypto.randomBytes(4).toString('hex');

type Status = 'pass' | 'fail' | 'n/a';
interface Bar {
  what: string;
  bar: string;
  figure: string;
  status: Status;
  db?: string;
  /** the feature bench that answered it (absent: the main run) */
  feature?: string;
}
interface LoadResult {
  name: string;
  path: string;
  connections: number;
  available: boolean;
  rps?: number;
  p50?: number;
  p99?: number;
  ok2xx?: number;
  non2xx?: number;
  errors?: number;
}
interface DbRun {
  database: 'pglite' | 'postgres';
  startMs?: number;
  idleRssMb?: number;
  rssAfterLoadMb?: number;
  loads: LoadResult[];
  renderMedianMs?: number | null;
  renderSamples?: number[];
  ordersAcked?: number;
  /** acknowledged orders found in the database afterwards */
  ordersStored?: number;
  /** orders stored with the run's keys, acknowledged or still in flight when the run ended */
  ordersWithKey?: number;
  ackedOrderIds?: number[];
  visitsExpected?: number;
  visitsStored?: number;
  seedMs?: number;
}

const log = (...a: unknown[]) => console.log('[bench]', ...a);
const gz = (b: Buffer | string) => zlib.gzipSync(b, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

function send(method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

// ---------------------------------------------------------------- build and server process

async function build() {
  const { buildIsStale } = await import(pathToFileURL(path.join(root, 'scripts/stale.mjs')).href);
  const manifest = path.join(root, 'dist/web/.vite/manifest.json');
  if (!buildIsStale(root) && fs.existsSync(manifest)) {
    log('build is up to date');
    return;
  }
  log('building (vite + esbuild)...');
  const { buildAll } = await import(pathToFileURL(path.join(root, 'scripts/build.mjs')).href);
  await buildAll({ quiet: true });
}

interface Server {
  url: string;
  proc: ChildProcess;
  startMs: number;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>, logName: string): Promise<Server> {
  const port = await freePort();
  const out = fs.openSync(path.join(work, `${logName}.log`), 'a');
  const started = performance.now();
  const proc = spawn(process.execPath, [path.join(root, 'dist/server/server.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...(process.env.PGLITE_THREAD ? { PGLITE_THREAD: process.env.PGLITE_THREAD } : {}), ...env, PORT: String(port) },
    stdio: ['ignore', out, out],
  });
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  proc.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited at start-up; see bench/.work/${logName}.log`);
    try {
      if ((await get(`${url}/api/health`)).status === 200) break;
    } catch {}
    if (performance.now() - started > 120_000) throw new Error('server did not start within 120 s');
    await new Promise((r) => setTimeout(r, 25));
  }
  const startMs = performance.now() - started;
  return {
    url,
    proc,
    startMs,
    async stop() {
      if (exited) return;
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(t);
      fs.closeSync(out);
    },
  };
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

// ---------------------------------------------------------------- load

async function load(
  base: string,
  name: string,
  opts: {
    path: string;
    connections: number;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    paths?: string[];
    uniqueKey?: string;
    /** called with every 2xx answer's body (e.g. to collect acknowledged order ids) */
    onOk?: (body: string) => void;
  },
): Promise<LoadResult> {
  const probe =
    opts.method === 'POST'
      ? await send('POST', base + opts.path, JSON.parse(opts.body ?? '{}'), { 'idempotency-key': `probe-${runId}-${name}` })
      : await get(base + (opts.paths?.[0] ?? opts.path), { ...opts.headers, 'user-agent': 'bench-probe-bot/1.0' });
  if (probe.status === 404) {
    log(`${name}: not available yet (404)`);
    return { name, path: opts.path, connections: opts.connections, available: false };
  }
  let n = 0;
  const result = await autocannon({
    url: base,
    connections: opts.connections,
    duration: DURATION,
    requests: [
      {
        method: (opts.method ?? 'GET') as 'GET',
        path: opts.path,
        headers: opts.headers,
        body: opts.body,
        setupRequest: (req: any) => {
          const i = n++;
          if (opts.paths) req.path = opts.paths[i % opts.paths.length];
          if (opts.uniqueKey) req.headers = { ...req.headers, 'idempotency-key': `${opts.uniqueKey}-${i}` };
          return req;
        },
        ...(opts.onOk
          ? {
              onResponse: (status: number, body: string) => {
                if (status >= 200 && status < 300) opts.onOk!(body);
              },
            }
          : {}),
      },
    ],
  });
  const r: LoadResult = {
    name,
    path: opts.path,
    connections: opts.connections,
    available: true,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  log(`${name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, 2xx ${r.ok2xx}, other ${r.non2xx}, errors ${r.errors}`);
  return r;
}

const ORDER_BODY = JSON.stringify({
  customerName: 'Bench Customer',
  email: 'bench.customer@example.com',
  phone: '+1 212 555 0100',
  companyName: 'Bench Co',
  position: 'Buyer',
  quantity: 250,
  cardType: 'color',
  cardStyle: 'Brushed',
  deliveryOption: 'standard',
  specialRequests: '',
  shippingAddress: { name: 'Bench Customer', line1: '1 Bench Street', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' },
});

async function signIn(base: string): Promise<string | null> {
  const res = await send('POST', `${base}/api/auth/login`, { email: 'bench1@example.com', password: BENCH_PASSWORD });
  if (res.status !== 200) return null;
  const c = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((x) => x.startsWith('sid='));
  return c ? c.split(';')[0] : null;
}

async function cardRenders(base: string, cookie: string | null): Promise<{ median: number | null; samples: number[] }> {
  if (!cookie) return { median: null, samples: [] };
  const samples: number[] = [];
  for (let i = 0; i < 16; i++) {
    const t0 = performance.now();
    const res = await send('POST', `${base}/api/generate-card`, { format: 'jpeg' }, { cookie });
    const ms = performance.now() - t0;
    if (res.status === 404) return { median: null, samples: [] };
    if (res.status !== 200) throw new Error(`card render answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
    if (i > 0) samples.push(Math.round(ms)); // the first render warms the font cache
  }
  return { median: median(samples), samples };
}

async function runLoads(base: string, pid: number, run: DbRun, profileIds: string[]) {
  await new Promise((r) => setTimeout(r, 3000));
  run.idleRssMb = Math.round(rssMb(pid));
  log(`idle RSS ${run.idleRssMb} MB`);
  // warm up the hot paths once
  // (a bot's User-Agent: warm-up views are not visits)
  for (const p of ['/api/health', '/api/templates', `/p/${profileIds[0]}`]) await get(base + p, { 'user-agent': 'bench-warmup-bot/1.0' }).catch(() => undefined);

  const pages = profileIds.slice(0, 200).map((id) => `/p/${id}`);
  run.loads.push(await load(base, 'GET /api/health', { path: '/api/health', connections: 50 }));
  run.loads.push(await load(base, 'GET /p/{id}', { path: pages[0], paths: pages, connections: 50, headers: { 'user-agent': MOBILE_UA, 'accept-encoding': 'gzip' } }));
  run.loads.push(await load(base, 'GET /api/templates', { path: '/api/templates', connections: 50, headers: { 'accept-encoding': 'gzip' } }));
  run.loads.push(await load(base, 'GET /api/template-thumbnail/17/front', { path: '/api/template-thumbnail/17/front', connections: 20 }));
  const orderKey = `bench-${runId}-${run.database}`;
  run.ackedOrderIds = [];
  const acked = run.ackedOrderIds;
  run.loads.push(
    await load(base, 'POST /api/order', {
      path: '/api/order',
      method: 'POST',
      body: ORDER_BODY,
      headers: { 'content-type': 'application/json' },
      connections: 20,
      uniqueKey: orderKey,
      onOk: (body) => acked.push(Number(JSON.parse(body).id)),
    }),
  );
  run.ordersAcked = acked.length;
  run.visitsExpected = BENCH_SIZES.visits + (run.loads.find((l) => l.name === 'GET /p/{id}')?.ok2xx ?? 0);

  const cookie = await signIn(base);
  const r = await cardRenders(base, cookie);
  run.renderMedianMs = r.median;
  run.renderSamples = r.samples;
  log(r.median === null ? 'card render: not available yet' : `card render front+back JPEG: median ${r.median} ms (${r.samples.join(', ')})`);
  run.rssAfterLoadMb = Math.round(rssMb(pid));
}

async function countStored(database: Database, database_kind: string, run: DbRun) {
  const key = `bench-${runId}-${database_kind}-%`;
  const o = await database.db.execute(sql`select id from orders where idempotency_key like ${key}`);
  const stored = new Set((o as unknown as { rows: Array<{ id: number }> }).rows.map((r) => Number(r.id)));
  run.ordersWithKey = stored.size;
  run.ordersStored = (run.ackedOrderIds ?? []).filter((id) => stored.has(id)).length;
  delete run.ackedOrderIds;
  const v = await database.db.execute(sql`select count(*)::int as n from visits`);
  run.visitsStored = Number((v as unknown as { rows: Array<{ n: number }> }).rows[0].n);
  log(`orders acknowledged ${run.ordersAcked}, of them stored ${run.ordersStored} (with the run's keys: ${run.ordersWithKey}); visits expected ${run.visitsExpected}, stored ${run.visitsStored}`);
}

// ---------------------------------------------------------------- page weight, SPA, Lighthouse

async function pageWeight(base: string, id: string) {
  const res = await get(`${base}/p/${id}`, { 'accept-encoding': 'gzip' });
  if (res.status !== 200) return null;
  const htmlGzip = res.headers['content-encoding'] === 'gzip' ? res.body.length : gz(res.body);
  const html = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.body).toString('utf8') : res.body.toString('utf8');
  let cssGzip = 0;
  const sheets = [...html.matchAll(/<link[^>]+rel="?stylesheet"?[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]).filter(Boolean) as string[];
  for (const href of sheets) {
    const css = await get(new URL(href, base).toString(), { 'accept-encoding': 'gzip' });
    cssGzip += css.headers['content-encoding'] === 'gzip' ? css.body.length : gz(css.body);
  }
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc=/g)].length;
  const readable = html.includes('Alex Bench 1') && /<h1|<h2/.test(html);
  const vcardHref = /href="[^"]*\/api\/vcard\/[^"]+"/.test(html);
  const vcard = vcardHref ? await get(`${base}/api/vcard/${id}`) : null;
  const contactSaveable = !!vcard && vcard.status === 200 && /text\/(x-)?vcard/.test(String(vcard.headers['content-type'])) && vcard.body.toString().includes('BEGIN:VCARD');
  return { htmlGzip, cssGzip, sheets: sheets.length, scripts, readable, contactSaveable };
}

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function spaJs() {
  const dir = path.join(root, 'dist/web');
  const mf = path.join(dir, '.vite/manifest.json');
  if (!fs.existsSync(mf)) return null;
  const manifest = JSON.parse(fs.readFileSync(mf, 'utf8')) as Record<string, ManifestChunk>;
  const size = (file: string) => gz(fs.readFileSync(path.join(dir, file)));
  const closure = (key: string, seen = new Set<string>()) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) closure(i, seen);
    return seen;
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) return null;
  // every page loads the entry and the application chunk it imports (src/web/boot.tsx)
  const entry = closure(entryKey);
  const bootKey = Object.keys(manifest).find((k) => manifest[k].isDynamicEntry && (manifest[k].src === 'boot.tsx' || manifest[k].name === 'boot'));
  if (bootKey) closure(bootKey, entry);
  const entryBytes = [...entry].reduce((n, k) => n + size(manifest[k].file), 0);
  const routes: Array<{ route: string; lazy: boolean; ownGzip: number; firstLoadGzip: number }> = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!/(^|\/)routes\/[^/]+\.tsx$/.test(chunk.src ?? key)) continue;
    const own = [...closure(key)].filter((k) => !entry.has(k));
    const ownGzip = own.reduce((n, k) => n + size(manifest[k].file), 0);
    routes.push({ route: path.basename(chunk.src ?? key, '.tsx'), lazy: !!chunk.isDynamicEntry && !entry.has(key), ownGzip, firstLoadGzip: entryBytes + ownGzip });
  }
  routes.sort((a, b) => a.route.localeCompare(b.route));
  const home = routes.find((r) => r.route === 'home');
  return { entryGzip: entryBytes, homeFirstLoadGzip: home ? home.firstLoadGzip : entryBytes, routes, notLazy: routes.filter((r) => !r.lazy).map((r) => r.route) };
}

async function lighthouseScores(urls: Record<string, string>) {
  if (!LIGHTHOUSE) return null;
  if (!fs.existsSync(CHROME)) {
    log(`Lighthouse skipped: no Chromium at ${CHROME}`);
    return null;
  }
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  // Lighthouse's own advice for variable machines: several runs, the median. Each run gets a
  // fresh browser so no cache carries over.
  const out: Record<string, { performance: number; accessibility: number; runs: number[] }> = {};
  for (const [name, url] of Object.entries(urls)) {
    const perf: number[] = [];
    const a11y: number[] = [];
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      const chrome = await chromeLauncher.launch({
        chromePath: CHROME,
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      try {
        const r = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
        const c = r!.lhr.categories;
        perf.push(Math.round((c.performance.score ?? 0) * 100));
        a11y.push(Math.round((c.accessibility.score ?? 0) * 100));
      } finally {
        await chrome.kill();
      }
    }
    out[name] = { performance: median(perf), accessibility: median(a11y), runs: perf };
    log(`Lighthouse ${name}: performance ${out[name].performance} (runs ${perf.join(', ')}), accessibility ${out[name].accessibility}`);
  }
  return out;
}

// ---------------------------------------------------------------- runs

async function embeddedRun(): Promise<{ run: DbRun; weight: Awaited<ReturnType<typeof pageWeight>>; lh: Awaited<ReturnType<typeof lighthouseScores>> }> {
  const dataDir = path.join(work, `pglite-${runId}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const run: DbRun = { database: 'pglite', loads: [] };
  const t0 = performance.now();
  const database = await openDatabase({ dataDir });
  await runMigrations(database);
  const { profileIds } = await seedBenchData(database.db);
  await database.close();
  run.seedMs = Math.round(performance.now() - t0);
  log(`embedded data dir ready with ${BENCH_SIZES.profiles} profiles, ${BENCH_SIZES.orders} orders, ${BENCH_SIZES.visits} visits (${run.seedMs} ms)`);

  const server = await startServer({ DATA_DIR: dataDir }, `server-pglite-${runId}`);
  run.startMs = Math.round(server.startMs);
  log(`start to first 200 on an existing data dir: ${run.startMs} ms`);
  let weight: Awaited<ReturnType<typeof pageWeight>>;
  let lh: Awaited<ReturnType<typeof lighthouseScores>>;
  try {
    await runLoads(server.url, server.proc.pid!, run, profileIds);
    weight = await pageWeight(server.url, profileIds[0]);
    lh = await lighthouseScores({ home: `${server.url}/`, profile: `${server.url}/p/${profileIds[0]}` });
  } finally {
    await server.stop();
  }
  const after = await openDatabase({ dataDir });
  await countStored(after, 'pglite', run);
  await after.close();
  if (!KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  return { run, weight, lh };
}

async function postgresRun(url: string): Promise<DbRun> {
  const run: DbRun = { database: 'postgres', loads: [] };
  const name = `bench_${runId}`;
  const admin = await openDatabase({ databaseUrl: url, poolSize: 1 });
  await (admin.raw as import('pg').Pool).query(`create database ${name}`);
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  try {
    const t0 = performance.now();
    const database = await openDatabase({ databaseUrl: dbUrl, poolSize: 2 });
    await runMigrations(database);
    const { profileIds } = await seedBenchData(database.db);
    await database.close();
    run.seedMs = Math.round(performance.now() - t0);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-'));
    const server = await startServer({ DATABASE_URL: dbUrl, DATA_DIR: dataDir }, `server-postgres-${runId}`);
    run.startMs = Math.round(server.startMs);
    log(`PostgreSQL: start to first 200 ${run.startMs} ms`);
    try {
      await runLoads(server.url, server.proc.pid!, run, profileIds);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const after = await openDatabase({ databaseUrl: dbUrl, poolSize: 1 });
    await countStored(after, 'postgres', run);
    await after.close();
  } finally {
    const a = await openDatabase({ databaseUrl: url, poolSize: 1 });
    await (a.raw as import('pg').Pool).query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await a.close();
  }
  return run;
}

// ---------------------------------------------------------------- bars and report

function barsFor(run: DbRun, db: string): Bar[] {
  const l = (n: string) => run.loads.find((x) => x.name === n);
  const health = l('GET /api/health');
  const page = l('GET /p/{id}');
  const order = l('POST /api/order');
  const bars: Bar[] = [];
  if (health?.available && page?.available) {
    const ratio = (page.rps ?? 0) / Math.max(1, health.rps ?? 0);
    bars.push({ db, what: 'GET /p/{id} throughput vs GET /api/health (50 connections)', bar: '>= 40%', figure: `${Math.round(ratio * 100)}% (${page.rps} vs ${health.rps} req/s)`, status: ratio >= 0.4 ? 'pass' : 'fail' });
    bars.push({ db, what: 'GET /p/{id} p99 latency (50 connections)', bar: '<= 50 ms', figure: `${page.p99} ms`, status: (page.p99 ?? Infinity) <= 50 ? 'pass' : 'fail' });
    // views answered while autocannon was stopping are stored but not counted as served (about
    // one per connection); a doubled batch would add thousands
    const slack = page.connections * 2;
    const visitsOk = (run.visitsStored ?? 0) >= (run.visitsExpected ?? 0) && (run.visitsStored ?? 0) <= (run.visitsExpected ?? 0) + slack;
    bars.push({
      db,
      what: 'GET /p/{id}: every view recorded as a visit, none twice',
      bar: `served <= stored <= served + ${slack} in flight`,
      figure: `${run.visitsStored} stored, ${run.visitsExpected} served`,
      status: visitsOk ? 'pass' : 'fail',
    });
  } else bars.push({ db, what: 'GET /p/{id} vs GET /api/health', bar: '>= 40%, p99 <= 50 ms', figure: 'not available yet', status: 'n/a' });
  if (order?.available) {
    bars.push({ db, what: 'POST /api/order p99 latency (20 connections)', bar: '<= 250 ms', figure: `${order.p99} ms (${order.rps} req/s)`, status: (order.p99 ?? Infinity) <= 250 ? 'pass' : 'fail' });
    bars.push({
      db,
      what: 'POST /api/order: every acknowledged order stored',
      bar: 'all',
      figure: `${run.ordersStored} of ${run.ordersAcked} acknowledged (${run.ordersWithKey} stored in all)`,
      status: run.ordersStored === run.ordersAcked && (run.ordersAcked ?? 0) > 0 ? 'pass' : 'fail',
    });
  } else bars.push({ db, what: 'POST /api/order', bar: 'p99 <= 250 ms', figure: 'not available yet', status: 'n/a' });
  bars.push(
    run.renderMedianMs == null
      ? { db, what: 'Card render, front + back JPEG', bar: 'median <= 100 ms', figure: 'not available yet', status: 'n/a' }
      : { db, what: 'Card render, front + back JPEG (POST /api/generate-card)', bar: 'median <= 100 ms', figure: `${run.renderMedianMs} ms`, status: run.renderMedianMs <= 100 ? 'pass' : 'fail' },
  );
  if (db === 'pglite') {
    bars.push({ db, what: 'Server at idle: RSS on the embedded database', bar: '<= 400 MB', figure: `${run.idleRssMb} MB (after load: ${run.rssAfterLoadMb} MB)`, status: (run.idleRssMb ?? Infinity) <= 400 ? 'pass' : 'fail' });
    bars.push({ db, what: 'Start to first 200 on an existing data dir', bar: '<= 3 s', figure: `${((run.startMs ?? 0) / 1000).toFixed(2)} s`, status: (run.startMs ?? Infinity) <= 3000 ? 'pass' : 'fail' });
  } else {
    bars.push({ db, what: 'Start to first 200 (PostgreSQL)', bar: 'reported', figure: `${((run.startMs ?? 0) / 1000).toFixed(2)} s, idle RSS ${run.idleRssMb} MB`, status: 'n/a' });
  }
  return bars;
}

function staticBars(weight: Awaited<ReturnType<typeof pageWeight>>, spa: ReturnType<typeof spaJs>, lh: Awaited<ReturnType<typeof lighthouseScores>>): Bar[] {
  const bars: Bar[] = [];
  if (weight) {
    const total = weight.htmlGzip + weight.cssGzip;
    bars.push({ what: 'Public profile page weight (HTML + CSS, gzip)', bar: '<= 30 KB', figure: `${kb(total)} (HTML ${kb(weight.htmlGzip)}, CSS ${kb(weight.cssGzip)} in ${weight.sheets} file(s))`, status: total <= 30 * 1024 ? 'pass' : 'fail' });
    bars.push({
      what: 'Public profile readable and contact-saveable with JavaScript off',
      bar: 'yes',
      figure: `readable: ${weight.readable ? 'yes' : 'no'}, contact file link works: ${weight.contactSaveable ? 'yes' : 'no'}, scripts: ${weight.scripts}`,
      status: weight.readable && weight.contactSaveable ? 'pass' : 'fail',
    });
  } else bars.push({ what: 'Public profile page weight', bar: '<= 30 KB', figure: 'not available yet', status: 'n/a' });
  if (spa) {
    bars.push({ what: 'SPA first load (home): JavaScript, gzip', bar: '<= 200 KB', figure: kb(spa.homeFirstLoadGzip), status: spa.homeFirstLoadGzip <= 200 * 1024 ? 'pass' : 'fail' });
    bars.push({ what: 'Every other route lazy', bar: 'all lazy', figure: spa.notLazy.length ? `not lazy: ${spa.notLazy.join(', ')}` : `${spa.routes.length} route chunks, all lazy`, status: spa.notLazy.length ? 'fail' : 'pass' });
  } else bars.push({ what: 'SPA first load (home)', bar: '<= 200 KB gzip JS', figure: 'no build manifest', status: 'n/a' });
  if (lh) {
    const p = lh.profile;
    const h = lh.home;
    const runs = (r: { runs?: number[] }) => (r.runs && r.runs.length > 1 ? ` (median of ${r.runs.join(', ')})` : '');
    if (p) bars.push({ what: 'Lighthouse mobile /p/{id} performance', bar: '>= 95', figure: `${p.performance}${runs(p)}`, status: p.performance >= 95 ? 'pass' : 'fail' });
    if (h) bars.push({ what: 'Lighthouse mobile home performance', bar: '>= 90', figure: `${h.performance}${runs(h)}`, status: h.performance >= 90 ? 'pass' : 'fail' });
    const a = Math.min(p?.accessibility ?? 100, h?.accessibility ?? 100);
    bars.push({ what: 'Lighthouse accessibility (home and /p/{id})', bar: '>= 95', figure: `home ${h?.accessibility}, /p/{id} ${p?.accessibility}`, status: a >= 95 ? 'pass' : 'fail' });
  } else bars.push({ what: 'Lighthouse (mobile)', bar: '/p >= 95, home >= 90, a11y >= 95', figure: LIGHTHOUSE ? 'no Chromium' : 'skipped (--no-lighthouse)', status: 'n/a' });
  return bars;
}

function markdown(report: any): string {
  const lines: string[] = [];
  lines.push('# Benchmark report', '');
  lines.push(`Latest run: ${report.finishedAt} (${report.machine.cpus} cores, Node ${report.machine.node}, load average at start ${report.machine.loadAvg}). Loopback, ${report.durationSeconds ?? DURATION} s per load run.`);
  const sections = Object.entries((report.sections ?? {}) as Record<string, { measuredAt: string; loadAvgAtStart: string }>);
  const kept = sections.find(([n]) => n === 'features');
  if (kept) lines.push(`This run measured the main sections only (\`--no-features\`); the feature sections are from the run of ${kept[1].measuredAt} (load average ${kept[1].loadAvgAtStart}), unless named below.`);
  const again = sections.filter(([n]) => n !== 'features');
  if (again.length) lines.push(`Feature sections measured on their own (\`npm run bench -- --only=...\`): ${again.map(([n, x]) => `${n} at ${x.measuredAt} (load average ${x.loadAvgAtStart})`).join('; ')}.`);
  lines.push(`Data: ${BENCH_SIZES.profiles} profiles, ${BENCH_SIZES.orders} orders, ${BENCH_SIZES.visits} visits, inserted in bulk SQL. Produced by \`npm run bench\`; figures from one run (machines are shared and noisy: compare ratios).`, '');
  lines.push('## Bars (engineering guide, section 5)', '', '| Database | What | Bar | Figure | Result |', '| --- | --- | --- | --- | --- |');
  for (const b of report.bars as Bar[]) lines.push(`| ${b.db ?? '-'} | ${b.what} | ${b.bar} | ${b.figure} | ${b.status === 'pass' ? 'PASS' : b.status === 'fail' ? '**FAIL**' : 'n/a'} |`);
  for (const run of report.runs as DbRun[]) {
    lines.push('', `## Load on ${run.database === 'pglite' ? 'the embedded database (PGlite)' : 'PostgreSQL'}`, '');
    lines.push(`Start to first 200: ${run.startMs} ms; RSS idle ${run.idleRssMb} MB, after load ${run.rssAfterLoadMb} MB; data load ${run.seedMs} ms.`, '');
    lines.push('| Endpoint | Connections | req/s | p50 ms | p99 ms | 2xx | other | errors |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const l of run.loads) lines.push(l.available ? `| ${l.name} | ${l.connections} | ${l.rps} | ${l.p50} | ${l.p99} | ${l.ok2xx} | ${l.non2xx} | ${l.errors} |` : `| ${l.name} | ${l.connections} | not available yet | | | | | |`);
    if (run.renderSamples?.length) lines.push('', `Card render (front + back JPEG, one request each, after a warm-up): median ${run.renderMedianMs} ms; samples ${run.renderSamples.join(', ')} ms.`);
  }
  if (report.spa) {
    lines.push('', '## SPA JavaScript per route (gzip)', '', `Shared by every page (entry and application chunk): ${kb(report.spa.entryGzip)}.`, '', '| Route file | Lazy | Own chunks | First load with entry |', '| --- | --- | --- | --- |');
    for (const r of report.spa.routes) lines.push(`| ${r.route} | ${r.lazy ? 'yes' : '**no**'} | ${kb(r.ownGzip)} | ${kb(r.firstLoadGzip)} |`);
  }
  if (report.features && Object.keys(report.features).length) {
    lines.push('', '## Feature benches (bench/<feature>.ts, in-process, as each reports)', '');
    for (const [name, value] of Object.entries(report.features)) lines.push(`- **${name}**: \`${JSON.stringify(value).slice(0, 900)}\``);
  }
  if (report.notes?.length) lines.push('', '## Notes', '', ...report.notes.map((n: string) => `- ${n}`));
  return lines.join('\n') + '\n';
}

async function main() {
  if (arg('report-only')) {
    // re-render bench/report.md from bench/report.json (e.g. after editing its notes)
    const saved = JSON.parse(fs.readFileSync(path.join(root, 'bench/report.json'), 'utf8'));
    fs.writeFileSync(path.join(root, 'bench/report.md'), markdown(saved));
    return;
  }
  fs.mkdirSync(work, { recursive: true });
  if (ONLY) return onlyFeatures(ONLY);
  const startedAt = new Date().toISOString();
  const machine = { cpus: os.cpus().length, node: process.version, loadAvg: os.loadavg().map((x) => x.toFixed(1)).join(' ') };
  await build();
  const spa = spaJs();
  const { run: embedded, weight, lh } = await embeddedRun();
  const runs: DbRun[] = [embedded];
  const bars = [...barsFor(embedded, 'pglite'), ...staticBars(weight, spa, lh)];
  if (process.env.DATABASE_URL) {
    log('DATABASE_URL is set: the load part again on PostgreSQL');
    const pg = await postgresRun(process.env.DATABASE_URL);
    runs.push(pg);
    bars.push(...barsFor(pg, 'postgres'));
  }
  const features: Record<string, unknown> = {};
  if (FEATURES) {
    for (const file of fs.readdirSync(path.join(root, 'bench')).filter((f) => /^[a-z0-9-]+\.ts$/.test(f) && !['run.ts', 'seed-data.ts'].includes(f)).sort()) {
      const name = file.replace(/\.ts$/, '');
      try {
        const mod = (await import(pathToFileURL(path.join(root, 'bench', file)).href)) as { run?: () => Promise<unknown> };
        if (typeof mod.run !== 'function') continue;
        log(`feature bench ${name}...`);
        features[name] = await mod.run();
      } catch (err) {
        features[name] = { error: String((err as Error)?.message ?? err).slice(0, 300) };
        log(`feature bench ${name} failed: ${(err as Error)?.message}`);
      }
    }
  }
  // a feature bench may answer bars of its own (bench/team.ts): they join the table
  for (const [name, f] of Object.entries(features)) if (f && Array.isArray((f as { bars?: unknown }).bars)) bars.push(...(f as { bars: Bar[] }).bars.map((b) => ({ ...b, feature: name })));
  const previous = fs.existsSync(path.join(root, 'bench/report.json')) ? JSON.parse(fs.readFileSync(path.join(root, 'bench/report.json'), 'utf8')) : null;
  const notes: string[] = previous?.notes ?? [];
  // --no-features: the feature sections of the last report stay (with their own dates), their bars too
  let sections: Record<string, unknown> | undefined;
  if (!FEATURES && previous) {
    Object.assign(features, previous.features ?? {});
    const fresh = new Set(bars.map((b) => `${b.db ?? ''}|${b.what}`));
    bars.push(...((previous.bars ?? []) as Bar[]).filter((b) => !fresh.has(`${b.db ?? ''}|${b.what}`)));
    sections = { ...(previous.sections ?? {}), features: { measuredAt: previous.finishedAt, loadAvgAtStart: previous.machine?.loadAvg ?? '?' } };
  }
  const report = { startedAt, finishedAt: new Date().toISOString(), machine, durationSeconds: DURATION, sizes: BENCH_SIZES, bars, runs, spa, lighthouse: lh, pageWeight: weight, features, notes, ...(sections ? { sections } : {}) };
  fs.writeFileSync(path.join(root, 'bench/report.json'), JSON.stringify(report, null, 2) + '\n');
  fs.writeFileSync(path.join(root, 'bench/report.md'), markdown(report));

  console.log('\nBars (engineering guide, section 5):');
  for (const b of bars) console.log(`  ${b.status === 'pass' ? 'PASS' : b.status === 'fail' ? 'FAIL' : 'n/a '}  ${b.db ? `[${b.db}] ` : ''}${b.what}: ${b.figure} (bar ${b.bar})`);
  const failed = bars.filter((b) => b.status === 'fail').length;
  console.log(`\n${bars.filter((b) => b.status === 'pass').length} passed, ${failed} failed, ${bars.filter((b) => b.status === 'n/a').length} not available; report in bench/report.md`);
}

/** --only: the named feature benches, merged into the existing report (their bars replace their earlier ones). */
async function onlyFeatures(names: string[]) {
  const file = path.join(root, 'bench/report.json');
  if (!fs.existsSync(file)) throw new Error('--only needs an existing bench/report.json (run the whole bench once)');
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  await build();
  const loadAvg = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  for (const name of names) {
    if (!fs.existsSync(path.join(root, 'bench', `${name}.ts`))) throw new Error(`no bench/${name}.ts`);
    const mod = (await import(pathToFileURL(path.join(root, 'bench', `${name}.ts`)).href)) as { run?: () => Promise<unknown> };
    if (typeof mod.run !== 'function') throw new Error(`bench/${name}.ts exports no run()`);
    log(`feature bench ${name}...`);
    let value: unknown;
    try {
      value = await mod.run();
    } catch (err) {
      value = { error: String((err as Error)?.message ?? err).slice(0, 300) };
      log(`feature bench ${name} failed: ${(err as Error)?.message}`);
    }
    report.features = { ...(report.features ?? {}), [name]: value };
    const fresh = value && Array.isArray((value as { bars?: unknown }).bars) ? (value as { bars: Bar[] }).bars.map((b) => ({ ...b, feature: name })) : [];
    // the bars this feature answered last time go (older reports did not name the feature: match by the bars' text)
    const freshKeys = new Set(fresh.map((b) => `${b.db ?? ''}|${b.what}`));
    report.bars = (report.bars as Bar[]).filter((b) => b.feature !== name && !freshKeys.has(`${b.db ?? ''}|${b.what}`)).concat(fresh);
    report.sections = { ...(report.sections ?? {}), [name]: { measuredAt: new Date().toISOString(), loadAvgAtStart: loadAvg } };
  }
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  fs.writeFileSync(path.join(root, 'bench/report.md'), markdown(report));
  const bars = (report.bars as Bar[]).filter((b) => b.feature && names.includes(b.feature));
  for (const b of bars) console.log(`  ${b.status === 'pass' ? 'PASS' : b.status === 'fail' ? 'FAIL' : 'n/a '}  ${b.db ? `[${b.db}] ` : ''}${b.what}: ${b.figure} (bar ${b.bar})`);
  console.log(`\n${bars.filter((b) => b.status === 'pass').length} passed, ${bars.filter((b) => b.status === 'fail').length} failed (sections ${names.join(', ')}); report in bench/report.md`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
