import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import http from 'node:http';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { hashPassword } from '#server/features/auth/auth.service';

/**
 * The hostile-content storm (issue 32), shared by tests/security/hostile-storm.test.ts and
 * bench/hostile.ts: the built server in its own process, accounts seeded before it starts, every
 * SVG entry point signed out and signed in, probes of /api/health and QR PNGs on a thread of their
 * own (the attackers' work on this thread does not skew them), CPU and RSS of the server's process
 * tree read from /proc, and SIGTERM timed. Loopback only; every loop is bounded in count and time.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The built server. HOSTILE_SERVER_JS points the storm at another build (e.g. the previous commit's,
 * unpacked and built elsewhere) to show that the tests fail without the fix.
 */
export const SERVER_JS = process.env.HOSTILE_SERVER_JS ?? path.join(root, 'dist', 'server', 'server.js');
const serverRoot = path.resolve(path.dirname(SERVER_JS), '../..');
export const STORM_PASSWORD = 'storm-password-1';
const TICK_HZ = 100; // CLK_TCK on Linux
const PAGE = 4096;

// ---------------------------------------------------------------- accounts and server

export interface StormAccounts {
  user: { email: string; password: string };
  admin: { email: string; password: string };
}

/** A user and an admin (verified address) written before the server starts. */
export async function seedStormAccounts(database: Database): Promise<StormAccounts> {
  const hash = await hashPassword(STORM_PASSWORD);
  const tag = crypto.randomBytes(4).toString('hex');
  const user = { email: `storm-user-${tag}@example.com`, password: STORM_PASSWORD };
  const admin = { email: `storm-admin-${tag}@example.com`, password: STORM_PASSWORD };
  await database.db.execute(sql`
    insert into users (username, email, password_hash, first_name, last_name, role, email_verified_at)
    values (${`storm_user_${tag}`}, ${user.email}, ${hash}, 'Storm', 'User', 'user', now()),
           (${`storm_admin_${tag}`}, ${admin.email}, ${hash}, 'Storm', 'Admin', 'admin', now())`);
  return { user, admin };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

export interface StormServer {
  base: string;
  pid: number;
  proc: ChildProcess;
  readonly exited: boolean;
  /** the server's own output (JSON log lines and anything else), last 400 lines */
  output: string[];
  /** sends the signal, waits up to `timeoutMs`, then SIGKILL; answers how long the exit took */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ ms: number; code: number | string; killed: boolean }>;
}

/** glibc's allocator settings of this process (MALLOC_*), passed on to the server it starts: to compare memory with and without them. */
function mallocEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('MALLOC_') && e[1] !== undefined));
}

export async function startStormServer(env: Record<string, string>, readyTimeoutMs = 90_000): Promise<StormServer> {
  if (!fs.existsSync(SERVER_JS)) throw new Error('dist/server/server.js is missing: build the server first');
  const port = await freePort();
  const proc = spawn(process.execPath, [SERVER_JS], {
    cwd: serverRoot,
    // the storm's admin signs in with a password (staff two-factor is issue 39's, tested on its own):
    // without it the template entry points would answer 403 and go untested
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', STAFF_TWO_FACTOR: 'optional', ...mallocEnv(), ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (d: Buffer) => {
    output.push(...d.toString().split('\n').filter(Boolean));
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let exited = false;
  let exitCode: number | string = -1;
  const exit = new Promise<void>((resolve) =>
    proc.once('exit', (code, signal) => {
      exited = true;
      exitCode = code ?? signal ?? -1;
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const server: StormServer = {
    base,
    pid: proc.pid!,
    proc,
    output,
    get exited() {
      return exited;
    },
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (exited) return { ms: 0, code: exitCode, killed: false };
      const t0 = performance.now();
      proc.kill(signal);
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        proc.kill('SIGKILL');
      }, timeoutMs);
      await exit;
      clearTimeout(timer);
      // a child the server left behind would keep burning: none may outlive it
      return { ms: Math.round(performance.now() - t0), code: exitCode, killed };
    },
  };
  const until = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited) throw new Error(`server exited at start-up: ${output.slice(-20).join('\n')}`);
    try {
      const r = await request(base, { method: 'GET', path: '/api/health', timeoutMs: 2000 });
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > until) {
      await server.stop('SIGKILL');
      throw new Error(`server not ready after ${readyTimeoutMs} ms: ${output.slice(-20).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}

// ---------------------------------------------------------------- HTTP

export interface Answer {
  status: number;
  ms: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One request on loopback, bounded by `timeoutMs` (rejects with the socket error or 'timeout'). */
export function request(base: string, opts: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; timeoutMs: number }): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + opts.path,
      { method: opts.method, agent, headers: { ...(opts.body ? { 'content-length': String(opts.body.length) } : {}), ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.setTimeout(opts.timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

export async function signIn(base: string, who: { email: string; password: string }): Promise<string> {
  const body = Buffer.from(JSON.stringify({ email: who.email, password: who.password }));
  const r = await request(base, { method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json', origin: base }, body, timeoutMs: 30_000 });
  if (r.status !== 200) throw new Error(`sign-in of ${who.email}: ${r.status} ${r.body.toString().slice(0, 200)}`);
  const sid = ([] as string[]).concat(r.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  return sid.join('; ');
}

function multipart(field: string, data: Buffer, filename: string, contentType: string) {
  const boundary = `----storm${crypto.randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------- the SVG entry points

export interface EntryPoint {
  name: string;
  who: 'signed out' | 'user' | 'admin';
  /** true when the route is expected to refuse SVG by type (415) rather than check it */
  svgRefusedByType?: boolean;
}

/**
 * Every route that takes SVG bytes from a caller (found by grepping the routes for uploads and
 * SVG text): the order form's artwork (signed out and in), the profile logo and banner logo (the
 * team brand and the card designer use these stored logos by URL), the profile photo and the AI
 * background removal (both refuse SVG by its bytes), and the staff template save and its preview.
 */
export const ENTRY_POINTS: EntryPoint[] = [
  { name: 'POST /api/upload/artwork', who: 'signed out' },
  { name: 'POST /api/upload/artwork', who: 'user' },
  { name: 'POST /api/upload/logo', who: 'user' },
  { name: 'POST /api/upload/banner-logo', who: 'user' },
  { name: 'POST /api/upload/profile-image', who: 'user', svgRefusedByType: true },
  { name: 'POST /api/photoroom/remove-background', who: 'user', svgRefusedByType: true },
  { name: 'POST /api/svg-files/preview', who: 'admin' },
  { name: 'POST /api/svg-files', who: 'admin' },
];

const FIELDS: Record<string, string> = {
  '/api/upload/artwork': 'artwork',
  '/api/upload/logo': 'logoImage',
  '/api/upload/banner-logo': 'bannerLogoImage',
  '/api/upload/profile-image': 'profileImage',
  '/api/photoroom/remove-background': 'image',
};

export interface Cookies {
  user: string;
  admin: string;
}

/** Sends one SVG to one entry point; the answer or the transport error, never a throw. */
export async function sendSvg(base: string, entry: EntryPoint, svg: Buffer, cookies: Cookies, timeoutMs: number): Promise<{ status: number; ms: number; retryAfter?: string; message?: string; error?: string }> {
  const p = entry.name.split(' ')[1];
  const cookie = entry.who === 'user' ? cookies.user : entry.who === 'admin' ? cookies.admin : '';
  let body: Buffer;
  let contentType: string;
  if (FIELDS[p]) ({ body, contentType } = multipart(FIELDS[p], svg, 'hostile.svg', 'image/svg+xml'));
  else {
    body = Buffer.from(JSON.stringify({ templateId: 17, folder: 'simple', updates: { front: svg.toString('utf8') }, ...(p === '/api/svg-files' ? { notes: 'storm' } : {}) }));
    contentType = 'application/json';
  }
  const t0 = performance.now();
  try {
    const r = await request(base, { method: 'POST', path: p, headers: { 'content-type': contentType, origin: base, ...(cookie ? { cookie } : {}) }, body, timeoutMs });
    let message: string | undefined;
    try {
      message = String(JSON.parse(r.body.toString('utf8')).message ?? '').slice(0, 160);
    } catch {}
    const ra = r.headers['retry-after'];
    return { status: r.status, ms: r.ms, ...(ra ? { retryAfter: String(ra) } : {}), ...(message ? { message } : {}) };
  } catch (e) {
    return { status: 0, ms: performance.now() - t0, error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}

/**
 * One small valid SVG through the signed-out and the signed-in logo path and one QR PNG, each
 * awaited: the workers and sandbox children start (a cold first task took ~5 s on a busy machine).
 */
export async function warmUp(base: string, cookies: Cookies): Promise<void> {
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#123"/></svg>');
  await sendSvg(base, ENTRY_POINTS[0], svg, cookies, 60_000);
  await sendSvg(base, ENTRY_POINTS.find((e) => e.name === 'POST /api/upload/logo')!, svg, cookies, 60_000);
  await request(base, { method: 'GET', path: '/api/qrcode?format=png&size=300&data=warm', timeoutMs: 60_000 }).catch(() => undefined);
}

// ---------------------------------------------------------------- /proc: CPU and RSS of the process tree

function readStat(pid: number): { ppid: number; ticks: number; rssPages: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, rss 24
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), rssPages: Number(f[21]) };
  } catch {
    return null;
  }
}

/** The server and every descendant: pid -> CPU ticks and RSS pages. */
export function treeSample(rootPid: number): Map<number, { ticks: number; rssPages: number }> {
  const all = new Map<number, { ppid: number; ticks: number; rssPages: number }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (st) all.set(Number(name), st);
  }
  const out = new Map<number, { ticks: number; rssPages: number }>();
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    const st = all.get(pid);
    if (!st || out.has(pid)) continue;
    out.set(pid, { ticks: st.ticks, rssPages: st.rssPages });
    for (const [child, c] of all) if (c.ppid === pid) stack.push(child);
  }
  return out;
}

export const treeRssMb = (rootPid: number) => Math.round(([...treeSample(rootPid).values()].reduce((n, s) => n + s.rssPages, 0) * PAGE) / 1048576);

/** Cores used by the tree between two samples `ms` apart (a process born meanwhile counts whole). */
function coresBetween(a: Map<number, { ticks: number }>, b: Map<number, { ticks: number }>, ms: number): number {
  let ticks = 0;
  for (const [pid, s] of b) ticks += Math.max(0, s.ticks - (a.get(pid)?.ticks ?? 0));
  return ticks / TICK_HZ / (ms / 1000);
}

/**
 * Peak tree RSS while running; `stop()` answers it, `atPeak()` the processes at that moment
 * (MB each: `server`, then each child by pid). Sampled every 250 ms.
 */
export function watchRss(rootPid: number): { stop(): number; atPeak(): Record<string, number> } {
  let peak = 0;
  let atPeak: Record<string, number> = {};
  const tick = () => {
    try {
      const sample = treeSample(rootPid);
      const mb = (pages: number) => Math.round((pages * PAGE) / 1048576);
      const total = mb([...sample.values()].reduce((n, x) => n + x.rssPages, 0));
      if (total > peak) {
        peak = total;
        atPeak = Object.fromEntries([...sample].map(([pid, x]) => [pid === rootPid ? 'server' : `child ${pid}`, mb(x.rssPages)]));
      }
    } catch {}
  };
  tick();
  const t = setInterval(tick, 250);
  return {
    stop() {
      clearInterval(t);
      tick();
      return peak;
    },
    atPeak: () => atPeak,
  };
}

/**
 * How long after `since` (a performance.now() time) the tree's CPU stayed under `cores` for a
 * whole 500 ms window: the end of the first such window, in ms after `since`. Looks at most
 * `maxMs`; null when it never got quiet. Also answers the CPU of every window seen.
 */
export async function timeToQuiet(rootPid: number, since: number, opts: { cores?: number; maxMs?: number; windowMs?: number } = {}): Promise<{ quietAfterMs: number | null; windows: number[] }> {
  const cores = opts.cores ?? 0.1;
  const windowMs = opts.windowMs ?? 500;
  // at least two windows, however long ago `since` was
  const until = Math.max(since + (opts.maxMs ?? 10_000), performance.now() + 2 * windowMs + 50);
  const windows: number[] = [];
  let a = treeSample(rootPid);
  let ta = performance.now();
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, windowMs));
    const b = treeSample(rootPid);
    const tb = performance.now();
    const c = coresBetween(a, b, tb - ta);
    windows.push(Math.round(c * 100) / 100);
    if (c < cores) return { quietAfterMs: Math.round(tb - since), windows };
    a = b;
    ta = tb;
  }
  return { quietAfterMs: null, windows };
}

// ---------------------------------------------------------------- probes on their own thread

const PROBES = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
let on = true;
parentPort.once('message', () => { on = false; });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function get(agent, path) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get(workerData.base + path, { agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode }));
      res.on('error', () => resolve({ ms: performance.now() - t0, status: 0 }));
    });
    req.setTimeout(workerData.timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ ms: performance.now() - t0, status: 0 }));
  });
}
async function loop(pathOf, gapMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ms = [], statuses = {};
  const until = Date.now() + workerData.maxMs;
  for (let i = 0; on && Date.now() < until; i++) {
    const r = await get(agent, pathOf(i));
    ms.push(r.ms);
    statuses[r.status] = (statuses[r.status] || 0) + 1;
    await sleep(gapMs);
  }
  agent.destroy();
  return { ms, statuses };
}
Promise.all([
  loop(() => '/api/health', workerData.healthGapMs),
  loop((i) => '/api/qrcode?format=png&size=300&data=' + encodeURIComponent('https://cards.example.com/p/storm' + workerData.tag + '-' + i), workerData.qrGapMs),
]).then(([health, qr]) => parentPort.postMessage({ health, qr }));
`;

export interface ProbeSeries {
  ms: number[];
  statuses: Record<string, number>;
}

/** Polls /api/health (every ~20 ms) and fetches QR PNGs (every ~50 ms, new data each) until stopped. */
export function startProbes(base: string, opts: { healthGapMs?: number; qrGapMs?: number; maxMs?: number } = {}): { stop(): Promise<{ health: ProbeSeries; qr: ProbeSeries }> } {
  const worker = new Worker(PROBES, {
    eval: true,
    workerData: { base, healthGapMs: opts.healthGapMs ?? 20, qrGapMs: opts.qrGapMs ?? 50, maxMs: opts.maxMs ?? 15 * 60_000, timeoutMs: 30_000, tag: crypto.randomBytes(3).toString('hex') },
  });
  const done = new Promise<{ health: ProbeSeries; qr: ProbeSeries }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await done;
      await worker.terminate();
      return r;
    },
  };
}

// ---------------------------------------------------------------- the storm

export interface StormJob {
  entry: EntryPoint;
  cls: string;
  variant: string;
  index: number;
  svg: Buffer;
}

export interface StormResult extends Omit<StormJob, 'svg' | 'entry'> {
  entry: string;
  who: EntryPoint['who'];
  bytes: number;
  status: number;
  ms: number;
  retryAfter?: string;
  message?: string;
  error?: string;
}

/**
 * Sends the jobs, `concurrency` at a time, each bounded by `timeoutMs`. `jobs` is pulled lazily
 * (the corpus is made as it goes, not held whole in memory). Stops early at `maxMs`.
 */
export async function runStorm(base: string, jobs: Iterable<StormJob>, cookies: Cookies, opts: { concurrency: number; timeoutMs: number; maxMs: number; onResult?: (r: StormResult) => void }): Promise<{ results: StormResult[]; lastAnswerAt: number; stoppedEarly: boolean }> {
  const it = jobs[Symbol.iterator]();
  const results: StormResult[] = [];
  const until = performance.now() + opts.maxMs;
  let stoppedEarly = false;
  let lastAnswerAt = performance.now();
  const client = async () => {
    for (;;) {
      const n = it.next();
      if (n.done) return;
      if (performance.now() > until) {
        // jobs were left unsent
        stoppedEarly = true;
        return;
      }
      const job = n.value;
      const a = await sendSvg(base, job.entry, job.svg, cookies, opts.timeoutMs);
      lastAnswerAt = performance.now();
      const r: StormResult = { entry: job.entry.name, who: job.entry.who, cls: job.cls, variant: job.variant, index: job.index, bytes: job.svg.length, ...a };
      results.push(r);
      opts.onResult?.(r);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  return { results, lastAnswerAt, stoppedEarly };
}

export const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * q) - 1)] * 10) / 10;
};

/** Counts of answers by status (and transport errors by code). */
export function statusCounts(results: Array<{ status: number; error?: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = r.status ? String(r.status) : `error:${r.error}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

export function tmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
