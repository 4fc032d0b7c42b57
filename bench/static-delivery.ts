/**
 * Issue 38 item 6, "Static delivery" in the guide's bars (decision 38-01). Method: three processes on
 * loopback, measured in one run: a bare Fastify answering "hello" (its own process: the machine's
 * ceiling for one Node.js process), the built server (dist/server/server.js, its own process,
 * embedded database) and the load generator (bench/load-generator.mjs, its own process; decision 38-05).
 * A fourth load, for reading the figures and without a bar: the bare Fastify sending the CSS
 * asset's brotli bytes from memory (what any Node.js server sending those bytes can reach here).
 * Each target gets 50 connections for BENCH_STATIC_SECONDS (default 4) after a 2 s warm-up, with a
 * browser's `accept-encoding: gzip, deflate, br`; the loads run in turn, BENCH_STATIC_ROUNDS
 * times (default 6), each round in another order. A ratio is the median of the rounds' ratios,
 * each against the hello of its own round: on a shared machine the hello alone moved 2x between
 * two rounds a minute apart, so a ratio of means over the whole run measured the machine's moods
 * (decision 38-05, addendum). Rates and latencies are the medians over the rounds. Beside the rates, the serving process's CPU time (every thread, from /proc) per answer,
 * which the machine's other work hardly moves. Bars: the built CSS asset >= 60% of the bare answer's requests per second, `GET /p/{id}`
 * >= 45%, and the prerendered home page's HTML arrives compressed (brotli or gzip).
 * Run alone: `npx tsx bench/static-delivery.ts [--write]` (needs `npm run build`; `--write` merges the
 * bars into bench/report.json and renders bench/report.md again).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BENCH_PASSWORD } from './seed-data';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION_S = Number(process.env.BENCH_STATIC_SECONDS ?? 4);
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_STATIC_ROUNDS ?? 6)) || 1);
const CONNECTIONS = 50;
const BROWSER_ENCODINGS = 'gzip, deflate, br';
const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const GENERATOR = path.join(root, 'bench/load-generator.mjs');

interface Bar {
  what: string;
  bar: string;
  figure: string;
  status: 'pass' | 'fail' | 'n/a';
}
interface Load {
  /** the serving process's CPU (every thread) per answer: a figure the machine's other work hardly moves */
  cpuMicrosPerRequest?: number;
  total?: number;
  requestsPerSec: number;
  /** the load generator's own CPU per answer */
  generatorCpuMicrosPerRequest?: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * The load generator in a process of its own (bench/load-generator.mjs): one request in flight per
 * connection, the body's bytes counted, not decoded. autocannon (the other benches' generator)
 * appends every body to a JavaScript string, which made it, not the server, the bottleneck of a
 * 10 KB answer (decision 38-05); its CPU per answer is reported beside the server's.
 */
function load(url: string, duration = DURATION_S): Promise<Load> {
  const opts = { url, connections: CONNECTIONS, seconds: duration, headers: { 'user-agent': PHONE_UA, 'accept-encoding': BROWSER_ENCODINGS } };
  const proc = spawn(process.execPath, [GENERATOR, JSON.stringify(opts)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise<Load>((resolve, reject) =>
    proc.once('error', reject).once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`load generator exited (${code})`);
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Load);
      } catch (e) {
        reject(e as Error);
      }
    }),
  );
}

/**
 * A bare Fastify answering "hello" on its own process, from the project's own fastify; and, as a
 * reference (no bar), the same bytes as the CSS asset's brotli copy from memory: the ceiling of any
 * Node.js server sending that many bytes on this machine.
 */
const HELLO_SERVER = `
import fs from 'node:fs';
import Fastify from 'fastify';
const app = Fastify({ logger: false });
const same = fs.readFileSync(process.env.SAME_BYTES_FILE);
app.get('/', async () => 'hello');
app.get('/same-bytes', (req, reply) => reply.header('content-encoding', 'br').type('text/css; charset=utf-8').send(same));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write('port=' + app.server.address().port + '\\n');
`;

async function startHello(sameBytesFile: string) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', HELLO_SERVER], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SAME_BYTES_FILE: sameBytesFile } });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port=(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`hello server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, pid: proc.pid!, stop: () => stop(proc) };
}

/**
 * The build as it is now, in a folder of its own (dist copied, everything else linked): the server
 * measured is the one built, even if a build starts beside the bench meanwhile (a build empties
 * dist/web first and writes the compressed copies last).
 */
function snapshotBuild(into: string) {
  const complete = () => {
    const css = path.join(root, 'dist/web/assets', builtCss());
    const home = path.join(root, 'dist/web/prerender/home.html');
    return [css, home].every((f) => fs.existsSync(`${f}.br`) && fs.statSync(`${f}.br`).mtimeMs >= fs.statSync(f).mtimeMs);
  };
  if (!fs.existsSync(path.join(root, 'dist/server/server.js')) || !fs.existsSync(path.join(root, 'dist/web/prerender/home.html'))) throw new Error('run npm run build first');
  if (!complete()) throw new Error('dist/web has no compressed copies: run npm run build (or a build is running)');
  for (const entry of fs.readdirSync(root)) {
    if (entry !== 'dist' && entry !== 'data' && !entry.startsWith('.')) fs.symlinkSync(path.join(root, entry), path.join(into, entry));
  }
  fs.cpSync(path.join(root, 'dist/server'), path.join(into, 'dist/server'), { recursive: true });
  fs.cpSync(path.join(root, 'dist/web'), path.join(into, 'dist/web'), { recursive: true });
  return into;
}

async function startServer(dataDir: string, buildRoot: string) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = spawn(process.execPath, [path.join(buildRoot, 'dist/server/server.js')], {
    cwd: buildRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', DATA_DIR: dataDir, PORT: String(port) },
    // errors (a start-up failure) show on the bench's own stderr
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 300_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) break;
    } catch {}
    if (Date.now() > until || proc.exitCode !== null) throw new Error(`server did not start (exit code ${proc.exitCode})`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, pid: proc.pid!, stop: () => stop(proc) };
}

function stop(proc: ChildProcess) {
  return new Promise<void>((r) => (proc.exitCode !== null ? r() : (proc.once('exit', () => r()), proc.kill('SIGTERM'))));
}

/** The largest built stylesheet (the one every page loads). */
function builtCss(from = root) {
  const dir = path.join(from, 'dist/web/assets');
  const css = fs.readdirSync(dir).filter((f) => f.endsWith('.css'));
  if (!css.length) throw new Error('no CSS asset in dist/web/assets');
  return css.sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0];
}

/** Raw bytes and headers as they arrive (fetch would decode the body). */
async function rawGet(url: string, acceptEncoding: string) {
  const http = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }>((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding, 'user-agent': 'bench-static-delivery/1.0' } }, (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      })
      .on('error', reject);
  });
}

/** CPU time (user + system, every thread) a process has used, in microseconds (Linux /proc). */
function cpuMicros(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) "
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

/**
 * Waits (at most 60 s) until the server's own start-up work is done (its worker threads load their
 * modules after it listens): a second in which it used under a tenth of a core. The loads measure
 * the steady state, not the start-up.
 */
async function settled(pid: number) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const before = cpuMicros(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMicros(pid) - before < 100_000) return;
  }
}

const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export async function run() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-static-'));
  const buildRoot = snapshotBuild(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-static-build-')));
  const css = builtCss(buildRoot);
  const hello = await startHello(path.join(buildRoot, 'dist/web/assets', `${css}.br`));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer(dataDir, buildRoot);
    const { base } = server;
    const json = { 'content-type': 'application/json', origin: base };
    const u = `static${Date.now()}`;
    const reg = await fetch(`${base}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ username: u, email: `${u}@example.com`, password: BENCH_PASSWORD, confirmPassword: BENCH_PASSWORD, firstName: 'Static', lastName: 'Delivery' }) });
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const created = await fetch(`${base}/api/profile`, { method: 'POST', headers: { ...json, cookie }, body: JSON.stringify({ fullName: 'Static Delivery', jobTitle: 'Bench', email: 'static@example.com', profileTemplate: 'modern', links: [] }) });
    if (created.status !== 201) throw new Error(`profile: ${created.status} ${await created.text()}`);
    const id = ((await created.json()) as { id: string }).id;

    await settled(server.pid);
    const targets = { hello: `${hello.base}/`, sameBytes: `${hello.base}/same-bytes`, css: `${base}/assets/${css}`, page: `${base}/p/${id}` };
    const pids = { hello: hello.pid, sameBytes: hello.pid, css: server.pid, page: server.pid };
    const measured = async (k: keyof typeof targets) => {
      const before = cpuMicros(pids[k]);
      const r = await load(targets[k]);
      return { ...r, cpuMicrosPerRequest: Math.round((cpuMicros(pids[k]) - before) / Math.max(1, r.total ?? 0)) };
    };

    // the home page as a browser gets it, and as a client that accepts no coding gets it
    const homeCompressed = await rawGet(`${base}/`, BROWSER_ENCODINGS);
    const homeIdentity = await rawGet(`${base}/`, 'identity');
    const cssCompressed = await rawGet(targets.css, BROWSER_ENCODINGS);
    const home = {
      status: homeCompressed.status,
      contentEncoding: homeCompressed.headers['content-encoding'] ?? 'identity',
      bytes: homeCompressed.bytes,
      identityBytes: homeIdentity.bytes,
    };

    for (const url of Object.values(targets)) await load(url, 2);
    const rounds: Record<keyof typeof targets, Load[]> = { hello: [], sameBytes: [], css: [], page: [] };
    const keys = Object.keys(targets) as (keyof typeof targets)[];
    for (let i = 0; i < ROUNDS; i++) {
      // each round starts one target later: no target always follows the same one
      for (let j = 0; j < keys.length; j++) {
        const k = keys[(i + j) % keys.length];
        rounds[k].push(await measured(k));
      }
    }
    const figure = (k: keyof typeof targets) => ({
      requestsPerSec: Math.round(median(rounds[k].map((r) => r.requestsPerSec))),
      p50: Math.round(median(rounds[k].map((r) => r.p50))),
      p99: Math.round(median(rounds[k].map((r) => r.p99))),
      non2xx: rounds[k].reduce((a, r) => a + r.non2xx, 0),
      errors: rounds[k].reduce((a, r) => a + r.errors, 0),
      cpuMicrosPerRequest: mean(rounds[k].map((r) => r.cpuMicrosPerRequest ?? 0)),
      generatorCpuMicrosPerRequest: mean(rounds[k].map((r) => r.generatorCpuMicrosPerRequest ?? 0)),
      rounds: rounds[k].map((r) => r.requestsPerSec),
    });
    const helloF = figure('hello');
    const sameF = figure('sameBytes');
    const cssF = figure('css');
    const pageF = figure('page');
    /** the median over the rounds of a target's rate against the same round's hello */
    const pairedRatio = (k: keyof typeof targets) => median(rounds[k].map((r, i) => r.requestsPerSec / Math.max(1, rounds.hello[i].requestsPerSec)));
    const roundsPct = (k: keyof typeof targets) => rounds[k].map((r, i) => `${Math.round((r.requestsPerSec / Math.max(1, rounds.hello[i].requestsPerSec)) * 100)}`).join('/');
    const [cssRatio, pageRatio, sameRatio] = [pairedRatio('css'), pairedRatio('page'), pairedRatio('sameBytes')];
    const pct = (r: number) => `${Math.round(r * 100)}%`;
    const clean = (f: { non2xx: number; errors: number }) => f.non2xx === 0 && f.errors === 0;
    const homeIsCompressed = home.status === 200 && ['br', 'gzip'].includes(String(home.contentEncoding)) && home.bytes < home.identityBytes;
    const bars: Bar[] = [
      {
        what: `Static delivery: built CSS asset (${css}, ${cssCompressed.headers['content-encoding'] ?? 'identity'}) vs bare Fastify hello, own processes, 50 connections`,
        bar: '>= 60%',
        figure: `${pct(cssRatio)} (median of ${ROUNDS} rounds: ${roundsPct('css')}%; ${cssF.requestsPerSec} vs ${helloF.requestsPerSec} req/s; p50 ${cssF.p50} ms, p99 ${cssF.p99} ms; server CPU ${cssF.cpuMicrosPerRequest} vs ${helloF.cpuMicrosPerRequest} µs an answer)`,
        status: cssRatio >= 0.6 && clean(cssF) ? 'pass' : 'fail',
      },
      {
        what: 'Static delivery: GET /p/{id} vs bare Fastify hello, own processes, 50 connections',
        bar: '>= 45%',
        figure: `${pct(pageRatio)} (median of ${ROUNDS} rounds: ${roundsPct('page')}%; ${pageF.requestsPerSec} vs ${helloF.requestsPerSec} req/s; p50 ${pageF.p50} ms, p99 ${pageF.p99} ms; server CPU ${pageF.cpuMicrosPerRequest} vs ${helloF.cpuMicrosPerRequest} µs an answer)`,
        status: pageRatio >= 0.45 && clean(pageF) ? 'pass' : 'fail',
      },
      {
        what: 'Static delivery: prerendered home page HTML arrives compressed',
        bar: 'brotli or gzip',
        figure: `${home.contentEncoding}, ${home.bytes} bytes (${home.identityBytes} uncompressed)`,
        status: homeIsCompressed ? 'pass' : 'fail',
      },
    ];
    return {
      method: `bare Fastify hello (and the same bytes as the CSS asset, reference), the built server (a copy of dist) and the load generator (bench/load-generator.mjs) in their own processes; ${CONNECTIONS} connections, ${DURATION_S} s a load, ${ROUNDS} rounds in turn (each round in another order), ratios the median of the rounds' ratios against their own round's hello, rates and latencies medians; accept-encoding "${BROWSER_ENCODINGS}"; server CPU per answer from /proc/<pid>/stat`,
      measuredAt: new Date().toISOString(),
      cpus: os.cpus().length,
      loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
      node: process.version,
      hello: helloF,
      /** reference, no bar: a bare Fastify sending the CSS asset's brotli bytes from memory */
      bareSameBytes: { ...sameF, percentOfHello: Math.round(sameRatio * 100) },
      cssAsset: { file: css, contentEncoding: cssCompressed.headers['content-encoding'] ?? 'identity', bytes: cssCompressed.bytes, ...cssF, percentOfHello: Math.round(cssRatio * 100) },
      profilePage: { ...pageF, percentOfHello: Math.round(pageRatio * 100) },
      home,
      bars,
    };
  } finally {
    await server?.stop();
    await hello.stop();
    // a busy machine may still be flushing the server's files: retried, and never the run's result
    for (const dir of [dataDir, buildRoot]) {
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (e) {
        console.error(`could not remove ${dir}: ${(e as Error).message}`);
      }
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run()
    .then((r) => {
      console.log(JSON.stringify(r, null, 2));
      for (const b of r.bars) console.log(`${b.status.toUpperCase()} ${b.what}: ${b.figure} (bar ${b.bar})`);
      if (process.argv.includes('--write')) {
        const file = path.join(root, 'bench/report.json');
        const report = JSON.parse(fs.readFileSync(file, 'utf8'));
        report.bars = [...(report.bars as Bar[]).filter((b) => !b.what.startsWith('Static delivery:')), ...r.bars];
        report.features = { ...(report.features ?? {}), 'static-delivery': r };
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
