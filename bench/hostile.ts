/**
 * Hostile-content storm (issue 32; guide section 5, "Hostile-content storm") on the built server
 * (dist/server/server.js, its own process), on the embedded database and, with DATABASE_URL set,
 * on PostgreSQL (a scratch database on that server, dropped afterwards):
 *
 * - a seeded corpus (tests/helpers/hostile-svg.ts; BENCH_HOSTILE_COUNT, default 2,000; the seed
 *   is printed, HOSTILE_SEED replays it) of hostile SVGs from every attack class, 250 bytes to just
 *   over the 1 MB cap. Each goes to the signed-out artwork upload and to one of the signed-in
 *   entry points in turn (artwork, logo, banner logo, profile photo, AI background removal, the
 *   staff template preview and save), BENCH_HOSTILE_CONCURRENCY (default 4) at a time, while one
 *   client polls GET /api/health and another fetches QR PNGs (both on a thread of their own).
 *   Bars: health p99 <= 50 ms and QR PNG p99 <= 200 ms during the storm; every answer within the
 *   task deadline + 1 s; no 5xx (429/503 with Retry-After counted, 503 not the majority); the
 *   server's process tree back under 0.1 core within 2 s of the last answer; tree RSS <= idle +
 *   300 MB.
 * - Done-when: one ~1 MB SVG of every class, signed out, each answered in < 1 s, health p99 <= 50 ms
 *   meanwhile.
 * - SIGTERM sent mid-storm (heavy classes, 6 at a time): the process exits within 10 s.
 *
 * Run alone: `npx tsx bench/hostile.ts [--write]` (--write merges the bars into bench/report.json
 * and re-renders report.md); `npm run bench` runs it with the other feature benches.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { ATTACK_CLASSES, corpusSeed, hostileSvg, hostileSvgOf, SVG_CAP_BYTES } from '../tests/helpers/hostile-svg';
// @ts-expect-error: a plain .mjs script without type declarations
import { ALLOCATOR_ENV, wantsAllocatorEnv } from '../scripts/allocator-env.mjs';
import {
  ENTRY_POINTS,
  quantile,
  runStorm,
  seedStormAccounts,
  sendSvg,
  signIn,
  startProbes,
  startStormServer,
  statusCounts,
  timeToQuiet,
  treeRssMb,
  warmUp,
  watchRss,
  type StormAccounts,
  type StormJob,
  type StormResult,
} from '../tests/helpers/hostile-storm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COUNT = Math.max(1, Number(process.env.BENCH_HOSTILE_COUNT ?? 2000));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_HOSTILE_CONCURRENCY ?? 4));
/** the answer deadline the server works to (its task deadline); every answer within it + 1 s */
const DEADLINE_MS = Number(process.env.WORKER_TASK_TIMEOUT_MS ?? 5000);
/** the whole storm on one database stops here, whatever is left (bounded in time) */
const STORM_MAX_MS = Number(process.env.BENCH_HOSTILE_MAX_SECONDS ?? 600) * 1000;
const log = (...a: unknown[]) => console.error('[hostile]', ...a);

type Db = 'pglite' | 'postgres';
interface Bar {
  db: Db;
  what: string;
  bar: string;
  figure: string;
  status: 'pass' | 'fail';
}

async function ensureBuilt() {
  if (process.env.HOSTILE_SERVER_JS) return; // another build, given (tests/helpers/hostile-storm.ts)
  const { buildIsStale } = (await import(pathToFileURL(path.join(root, 'scripts/stale.mjs')).href)) as { buildIsStale(root: string, stamp?: string, dirs?: string[]): boolean };
  const stamp = path.join(root, 'dist', '.server-stamp');
  if (fs.existsSync(path.join(root, 'dist/server/server.js')) && !buildIsStale(root, stamp, ['src/server', 'src/shared', 'drizzle'])) return;
  log('building the server...');
  const started = Date.now();
  const { buildServer } = (await import(pathToFileURL(path.join(root, 'scripts/build.mjs')).href)) as { buildServer(): Promise<void> };
  await buildServer();
  fs.writeFileSync(stamp, String(started));
}

/** The corpus as storm jobs: each SVG to the signed-out artwork upload, then to one signed-in entry point in turn. */
function* corpusJobs(seed: number, count: number): Generator<StormJob> {
  const signedOut = ENTRY_POINTS.filter((e) => e.who === 'signed out');
  const signedIn = ENTRY_POINTS.filter((e) => e.who !== 'signed out');
  for (let i = 0; i < count; i++) {
    const h = hostileSvg(seed, i);
    yield { entry: signedOut[i % signedOut.length], cls: h.cls, variant: h.variant, index: i, svg: h.svg };
    yield { entry: signedIn[i % signedIn.length], cls: h.cls, variant: h.variant, index: i, svg: h.svg };
  }
}

/** The heavy part of the corpus (filters, fan-out, deep nesting, big files) for the SIGTERM phase. */
function* heavyJobs(seed: number): Generator<StormJob> {
  const heavy = new Set(['scaled-filter', 'nested-transform', 'use-fanout', 'pattern-fanout', 'deep-nesting', 'attr-name-run', 'embedded-image']);
  const signedIn = ENTRY_POINTS.filter((e) => !e.svgRefusedByType);
  let n = 0;
  for (let i = 0; i < 5000 && n < 60; i++) {
    const h = hostileSvg(seed ^ 0x51ed, i);
    if (!heavy.has(h.cls)) continue;
    yield { entry: signedIn[n++ % signedIn.length], cls: h.cls, variant: h.variant, index: i, svg: h.svg };
  }
}

async function prepare(db: Db, databaseUrl: string | undefined): Promise<{ env: Record<string, string>; accounts: StormAccounts; cleanup(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-hostile-'));
  if (db === 'pglite') {
    const database = await openDatabase({ dataDir });
    await runMigrations(database);
    const accounts = await seedStormAccounts(database);
    await database.close();
    return { env: { DATA_DIR: dataDir }, accounts, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `hostile_${crypto.randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 1 });
  await (admin.raw as import('pg').Pool).query(`create database ${name}`);
  await admin.close();
  const u = new URL(databaseUrl!);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 2 });
  await runMigrations(database);
  const accounts = await seedStormAccounts(database);
  await database.close();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: u.toString() },
    accounts,
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const a = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 1 });
      await (a.raw as import('pg').Pool).query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await a.close();
    },
  };
}

function summarize(results: StormResult[]) {
  const byClass: Record<string, { n: number; p99Ms: number; maxMs: number; statuses: Record<string, number> }> = {};
  for (const cls of new Set(results.map((r) => r.cls))) {
    const rs = results.filter((r) => r.cls === cls);
    byClass[cls] = { n: rs.length, p99Ms: quantile(rs.map((r) => r.ms), 0.99), maxMs: Math.round(Math.max(...rs.map((r) => r.ms))), statuses: statusCounts(rs) };
  }
  // one message of each status, as the caller reads it
  const messages: Record<string, string> = {};
  for (const r of results) if (r.status && !(r.status in messages)) messages[r.status] = r.message ?? '';
  const byEntry: Record<string, { n: number; p99Ms: number; statuses: Record<string, number> }> = {};
  for (const key of new Set(results.map((r) => `${r.entry} (${r.who})`))) {
    const rs = results.filter((r) => `${r.entry} (${r.who})` === key);
    byEntry[key] = { n: rs.length, p99Ms: quantile(rs.map((r) => r.ms), 0.99), statuses: statusCounts(rs) };
  }
  return { messages, byClass, byEntry };
}

async function runOn(db: Db, databaseUrl: string | undefined, seed: number) {
  const prep = await prepare(db, databaseUrl);
  // the server as `npm start` runs it: with glibc's allocator settings (scripts/allocator-env.mjs,
  // decision 32-10), unless this run's environment chose its own
  const allocator = wantsAllocatorEnv() ? ALLOCATOR_ENV : {};
  const server = await startStormServer({ ...allocator, ...prep.env, RATE_LIMITS: 'off', WORKER_TASK_TIMEOUT_MS: String(DEADLINE_MS), ...(process.env.PGLITE_THREAD ? { PGLITE_THREAD: process.env.PGLITE_THREAD } : {}) });
  const out: Record<string, unknown> = { database: db, seed, corpus: COUNT, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS, loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 10) / 10) };
  try {
    const cookies = { user: await signIn(server.base, prep.accounts.user), admin: await signIn(server.base, prep.accounts.admin) };
    // warm: the first QR PNG and uploads start the workers (the cold start is reported apart)
    const cold = await sendSvg(server.base, ENTRY_POINTS[0], Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'), cookies, 60_000);
    out.coldFirstUploadMs = Math.round(cold.ms);
    await warmUp(server.base, cookies);
    const warm = startProbes(server.base);
    await new Promise((r) => setTimeout(r, 1000));
    await warm.stop();
    await new Promise((r) => setTimeout(r, 2000));
    const idleRssMb = treeRssMb(server.pid);
    out.idleRssMb = idleRssMb;
    const idleSample = watchRss(server.pid);
    idleSample.stop();
    out.rssIdleByProcessMb = idleSample.atPeak();
    log(`${db}: idle tree RSS ${idleRssMb} MB (${JSON.stringify(out.rssIdleByProcessMb)}); seed ${seed}`);

    // ---- Done-when: a ~1 MB SVG of every class, signed out, one at a time ----
    const oneMb: Array<{ cls: string; variant: string; bytes: number; status: number; ms: number; message?: string; error?: string }> = [];
    {
      const probes = startProbes(server.base);
      for (const cls of ATTACK_CLASSES) {
        const h = hostileSvgOf(cls, seed, SVG_CAP_BYTES - 4096);
        const a = await sendSvg(server.base, ENTRY_POINTS[0], h.svg, cookies, DEADLINE_MS + 5000);
        oneMb.push({ cls, variant: h.variant, bytes: h.svg.length, status: a.status, ms: Math.round(a.ms), ...(a.message ? { message: a.message } : {}), ...(a.error ? { error: a.error } : {}) });
        log(`${db}: 1 MB ${cls} (${h.variant}): ${a.status || a.error} in ${Math.round(a.ms)} ms`);
      }
      const p = await probes.stop();
      out.oneMegabyte = { answers: oneMb, healthP99Ms: quantile(p.health.ms, 0.99), healthMaxMs: Math.round(Math.max(...p.health.ms)) };
    }
    const quietAfterOneMb = await timeToQuiet(server.pid, performance.now(), { maxMs: 20_000 });

    // ---- the storm ----
    const rss = watchRss(server.pid);
    const probes = startProbes(server.base);
    const t0 = performance.now();
    let done = 0;
    const storm = await runStorm(server.base, corpusJobs(seed, COUNT), cookies, {
      concurrency: CONCURRENCY,
      timeoutMs: DEADLINE_MS + 10_000,
      maxMs: STORM_MAX_MS,
      onResult: () => {
        if (++done % 500 === 0) log(`${db}: ${done} answers in ${Math.round((performance.now() - t0) / 1000)} s`);
      },
    });
    const stormSeconds = Math.round((performance.now() - t0) / 100) / 10;
    const p = await probes.stop();
    const quiet = await timeToQuiet(server.pid, storm.lastAnswerAt, { maxMs: 15_000 });
    const peakRssMb = rss.stop();
    out.rssAtPeakMb = rss.atPeak();
    // a server that died in the storm answers nothing after it: every later bar fails
    const died = server.exited;
    if (died) out.serverDied = { lastOutput: server.output.slice(-8) };
    const results = storm.results;
    const statuses = statusCounts(results);
    // a 503 with Retry-After is flood control (counted apart); any other 5xx fails the bar
    const fiveXx = results.filter((r) => r.status >= 500 && !(r.status === 503 && r.retryAfter));
    const lateOrLost = results.filter((r) => r.status === 0 || r.ms > DEADLINE_MS + 1000);
    const floodControl = results.filter((r) => r.status === 429 || r.status === 503);
    const s503 = results.filter((r) => r.status === 503).length;
    const withoutRetryAfter = floodControl.filter((r) => !r.retryAfter).length;
    out.storm = {
      answers: results.length,
      stoppedEarly: storm.stoppedEarly,
      seconds: stormSeconds,
      statuses,
      answerP50Ms: quantile(results.map((r) => r.ms), 0.5),
      answerP99Ms: quantile(results.map((r) => r.ms), 0.99),
      answerMaxMs: Math.round(Math.max(...results.map((r) => r.ms))),
      late: lateOrLost.slice(0, 10).map((r) => ({ cls: r.cls, variant: r.variant, index: r.index, entry: `${r.entry} (${r.who})`, bytes: r.bytes, status: r.status, ms: Math.round(r.ms), error: r.error })),
      lateCount: lateOrLost.length,
      fiveXx: fiveXx.slice(0, 10).map((r) => ({ cls: r.cls, index: r.index, entry: `${r.entry} (${r.who})`, status: r.status, message: r.message })),
      floodControl: floodControl.length,
      withoutRetryAfter,
      health: { requests: p.health.ms.length, p50Ms: quantile(p.health.ms, 0.5), p99Ms: quantile(p.health.ms, 0.99), maxMs: Math.round(Math.max(...p.health.ms)), statuses: p.health.statuses },
      qrPng: { requests: p.qr.ms.length, p50Ms: quantile(p.qr.ms, 0.5), p99Ms: quantile(p.qr.ms, 0.99), maxMs: Math.round(Math.max(...p.qr.ms)), statuses: p.qr.statuses },
      cpuQuietAfterMs: quiet.quietAfterMs,
      cpuWindowsCores: quiet.windows,
      quietAfterOneMegabyteMs: quietAfterOneMb.quietAfterMs,
      peakRssMb,
      ...summarize(results),
    };
    log(`${db}: storm ${results.length} answers in ${stormSeconds} s; ${JSON.stringify(statuses)}; health p99 ${quantile(p.health.ms, 0.99)} ms; QR p99 ${quantile(p.qr.ms, 0.99)} ms; quiet after ${quiet.quietAfterMs} ms; peak RSS ${peakRssMb} MB (${JSON.stringify(rss.atPeak())})`);

    // ---- SIGTERM mid-storm ----
    const term = (async () => {
      if (died) return { ms: NaN, code: 'died', killed: false };
      await new Promise((r) => setTimeout(r, 1500));
      return server.stop('SIGTERM', 15_000);
    })();
    const late = await runStorm(server.base, heavyJobs(seed), cookies, { concurrency: 6, timeoutMs: 20_000, maxMs: 20_000 });
    const stopped = died ? { ms: NaN, code: 'died during the storm', killed: false } : await term;
    out.sigterm = { exitMs: stopped.ms, code: stopped.code, killedAfter15s: stopped.killed, answersBeforeExit: late.results.filter((r) => r.status).length };
    log(`${db}: SIGTERM mid-storm: exit in ${stopped.ms} ms (code ${stopped.code}${stopped.killed ? ', SIGKILLed' : ''})`);

    const bars: Bar[] = [];
    const bar = (what: string, barText: string, figure: string, ok: boolean) => bars.push({ db, what: `Hostile: ${what}`, bar: barText, figure, status: ok ? 'pass' : 'fail' });
    const st = out.storm as { health: { p99Ms: number; maxMs: number }; qrPng: { p99Ms: number; maxMs: number } };
    const corpusNote = `${COUNT.toLocaleString('en-US')} SVGs x 2 entry points, seed ${seed}${storm.stoppedEarly ? `, STOPPED at ${STORM_MAX_MS / 1000} s after ${results.length} answers` : ''}`;
    bar('GET /api/health p99 during the storm', '<= 50 ms', `${st.health.p99Ms} ms (max ${st.health.maxMs} ms, ${p.health.ms.length} requests; ${corpusNote})`, st.health.p99Ms <= 50 && !storm.stoppedEarly);
    bar('QR PNG p99 during the storm', '<= 200 ms', `${st.qrPng.p99Ms} ms (max ${st.qrPng.maxMs} ms, ${p.qr.ms.length} requests)`, st.qrPng.p99Ms <= 200 && !storm.stoppedEarly);
    bar(
      'every storm answer within the deadline + 1 s; no 5xx',
      `<= ${DEADLINE_MS + 1000} ms; 0 5xx; 503 not the majority`,
      `${results.length} answers in ${stormSeconds} s: ${JSON.stringify(statuses)}; max ${Math.round(Math.max(...results.map((r) => r.ms)))} ms, ${lateOrLost.length} late or lost; ${floodControl.length} 429/503 (${withoutRetryAfter} without Retry-After)`,
      !storm.stoppedEarly && lateOrLost.length === 0 && fiveXx.length === 0 && withoutRetryAfter === 0 && s503 * 2 < results.length,
    );
    bar('server process tree CPU after the last answer', '< 0.1 core within 2 s', quiet.quietAfterMs === null ? `still busy after 15 s (windows ${quiet.windows.slice(-6).join(', ')} cores)` : `${quiet.quietAfterMs} ms (windows ${quiet.windows.join(', ')} cores)`, !died && quiet.quietAfterMs !== null && quiet.quietAfterMs <= 2000);
    bar('server process tree RSS during the storm', `<= idle + 300 MB (${idleRssMb + 300} MB)`, `peak ${peakRssMb} MB (idle ${idleRssMb} MB)${died ? '; the server DIED in the storm' : ''}`, !died && peakRssMb <= idleRssMb + 300);
    bar('SIGTERM sent mid-storm', 'exits < 10 s', died ? `the server died in the storm (${server.output.slice(-1)[0]?.slice(0, 120) ?? 'no output'})` : `${stopped.ms} ms${stopped.killed ? ' (did not exit: SIGKILLed after 15 s)' : ''}`, !died && !stopped.killed && stopped.ms < 10_000);
    const om = out.oneMegabyte as { healthP99Ms: number };
    const slowest = oneMb.reduce((a, b) => (b.ms > a.ms || !b.status ? b : a), oneMb[0]);
    bar(
      'a ~1 MB SVG of every class, signed out: answered < 1 s, health unaffected',
      '< 1 s each (stored or 4xx); health p99 <= 50 ms',
      `slowest ${slowest.cls} (${slowest.variant}) ${slowest.status || slowest.error} in ${slowest.ms} ms; over 1 s: ${oneMb.filter((a) => a.ms >= 1000 || !a.status).length}; statuses ${JSON.stringify(statusCounts(oneMb))}; health p99 ${om.healthP99Ms} ms`,
      oneMb.every((a) => a.ms < 1000 && a.status >= 200 && a.status < 500) && om.healthP99Ms <= 50,
    );
    return { out, bars };
  } finally {
    await server.stop('SIGKILL');
    await prep.cleanup();
  }
}

export async function run() {
  await ensureBuilt();
  const seed = corpusSeed();
  log(`corpus seed ${seed} (replay with HOSTILE_SEED=${seed})`);
  const out: Record<string, unknown> = { seed };
  const bars: Bar[] = [];
  const targets: Array<{ db: Db; url?: string }> = [{ db: 'pglite' }];
  if (process.env.DATABASE_URL) targets.push({ db: 'postgres', url: process.env.DATABASE_URL });
  for (const { db, url } of targets) {
    const r = await runOn(db, url, seed);
    out[db] = r.out;
    bars.push(...r.bars);
  }
  return { ...out, bars };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run()
    .then((r) => {
      console.log(JSON.stringify(r, null, 2));
      for (const b of r.bars) console.log(`${b.status.toUpperCase()} [${b.db}] ${b.what}: ${b.figure} (bar ${b.bar})`);
      if (process.argv.includes('--write')) {
        const file = path.join(root, 'bench', 'report.json');
        const report = JSON.parse(fs.readFileSync(file, 'utf8'));
        // only this section's bars are replaced
        report.bars = [...(report.bars as Bar[]).filter((b) => !b.what.startsWith('Hostile:')), ...r.bars];
        report.features = { ...(report.features ?? {}), hostile: { ...r, measuredAt: new Date().toISOString() } };
        fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
        spawnSync('npx', ['tsx', 'bench/run.ts', '--report-only'], { cwd: root, stdio: 'inherit' });
      }
      process.exit(0);
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
