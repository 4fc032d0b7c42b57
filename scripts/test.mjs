// npm test: every test, in three parts that share the supported Node.js lines (decision 38-03):
//
//   1. the unit and API suites on PGlite (the `pglite` project) on Node.js 24;
//   2. the unit and API suites on PostgreSQL (the `postgres` project, with the unit files that use no
//      database) on Node.js 22, when TEST_DATABASE_URL is set; without it, the `pglite` project again;
//   3. on this machine's Node.js (20 on our machines and CI): the solo files (hostile content, faults,
//      lanes), the browser files (the whole app, served by this Node.js, in Chromium), the web
//      component tests and the static checks.
//
// Node.js 22 and 24 are the official builds from the npm registry (scripts/node-matrix.mjs), fetched on
// first use. A part whose Node.js cannot be had (offline) runs on this Node.js instead, and the summary
// says so. TEST_NODE_MATRIX=off runs every part on this Node.js. The parts run one after the other,
// each with both cores; then one closing line "N passed, N failed" (+ skipped) that CI reads.
// Extra arguments go to one Vitest run on this Node.js (`npm test -- <files or options>`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_LINES, countReport, ensureNode, runOnLine, stopRuns } from './node-matrix.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });

const pg = process.env.TEST_DATABASE_URL;
const dbs = ['PGlite (embedded)'];
if (pg) dbs.push(`PostgreSQL (${new URL(pg).host})`);
console.log(`Databases under test: ${dbs.join(' and ')}`);

const chosen = process.argv.slice(2);
const whole = chosen.length === 0;

// A whole run starts the type checker, the linter and knip at the lowest CPU priority beside the
// tests; tests/build/static-checks.test.ts, in the last part, reads their results (decision 36-06).
// A run of chosen files or projects leaves them to that test file, if chosen.
const staticReport = path.join(root, '.tmp', 'static-checks.json');
fs.rmSync(staticReport, { force: true });
const staticChecks = whole ? spawn(process.execPath, [path.join(root, 'scripts/static-checks.mjs'), staticReport], { cwd: root, stdio: 'ignore', detached: true }) : undefined;

// A whole run also builds the client the browser part needs at the lowest priority now, beside the
// first parts, and the browser part waits for it (it no longer builds it on its own critical path).
const webBuild = whole
  ? new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(root, 'scripts/web-build-for-tests.mjs'), '--nice'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('error', () => resolve());
      child.on('close', () => resolve());
    })
  : Promise.resolve();

const matrixOff = /^(off|0|false|no)$/i.test(process.env.TEST_NODE_MATRIX ?? '');
const [line22, line24] = [NODE_LINES.find((l) => l.major === 22), NODE_LINES.find((l) => l.major === 24)];
const parts = whole
  ? [
      { name: 'unit/api on PGlite', line: line24, args: ['--project', 'pglite'], report: 'vitest-report-pglite.json' },
      pg
        ? { name: 'unit/api on PostgreSQL', line: line22, args: ['--project', 'postgres'], env: { TEST_POSTGRES_WITH_UNIT: '1' }, report: 'vitest-report-postgres.json' }
        : { name: 'unit/api on PGlite', line: line22, args: ['--project', 'pglite'], report: 'vitest-report-pglite-2.json' },
      {
        name: 'solo, browser, web, static',
        line: null,
        args: ['--project', 'pglite-solo', '--project', 'browser', '--project', 'web', '--project', 'static'],
        env: staticChecks ? { STATIC_CHECKS_REPORT: staticReport } : {},
        report: 'vitest-report.json',
      },
    ]
  : [{ name: 'chosen', line: null, args: chosen, report: 'vitest-report.json' }];

// interrupted (Ctrl-C, CI's cancel): the runs are process groups of their own; stop them too
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopRuns();
    process.exit(130);
  });
}

/** Vitest on this Node.js, output on this terminal. */
function runHere(args, reportFile, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...args], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    child.on('error', (e) => resolve({ status: null, error: `Vitest did not start: ${e.message}` }));
    // ended by a signal: a failed run
    child.on('close', (status, killedBy) => resolve({ status: status ?? (killedBy ? 1 : null) }));
  });
}

// the other lines' binaries, fetched now (seconds once npm's cache holds them)
const binaries = new Map();
if (whole && !matrixOff) {
  for (const line of new Set(parts.map((p) => p.line).filter(Boolean))) {
    binaries.set(
      line.version,
      ensureNode(root, line.version).then(
        () => null,
        (e) => e.message,
      ),
    );
  }
}

const results = [];
for (const part of parts) {
  const reportFile = path.join(root, '.tmp', part.report);
  fs.rmSync(reportFile, { force: true });
  const started = Date.now();
  let onLine = part.line && !matrixOff ? part.line : null;
  let note;
  if (onLine) {
    const fetchError = await binaries.get(onLine.version);
    if (fetchError) {
      note = `Node.js ${onLine.version} could not be fetched from the npm registry (${fetchError.split('\n')[0]}): ran on ${process.version}`;
      onLine = null;
    }
  }
  // the browser files' client: the background build ends first (a failed one is built again, and
  // reported, by the browser part's own setup)
  if (part.args.includes('browser')) await webBuild;
  const on = onLine ? `Node.js ${onLine.version}` : `Node.js ${process.version.slice(1)}`;
  if (whole) console.log(`\n=== ${part.name} on ${on} ===\n`);
  const r = onLine
    ? await runOnLine(root, onLine, part.args, { report: reportFile, env: { ...process.env, ...part.env }, inherit: true })
    : await runHere(part.args, reportFile, part.env);
  results.push({ part, on, note, r, reportFile, secs: Math.round((Date.now() - started) / 1000) });
}

// normally finished long before; after an interrupted or failed run, stop the checks (their own process group)
if (staticChecks) {
  try {
    process.kill(-staticChecks.pid, 'SIGTERM');
  } catch {
    // already ended
  }
}

// Counts per part and in all: a file that failed to load counts as a failure, and so does a Vitest
// that exited non-zero without a failed test (an unhandled error) or gave no results.
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const { part, on, note, r, reportFile, secs } of results) {
  let c;
  try {
    c = countReport(reportFile);
  } catch {
    c = undefined;
  }
  const counts = c ?? { passed: 0, failed: 0, skipped: 0 };
  let why = '';
  if (r.error || !c) {
    counts.failed++;
    why = r.error ?? `no results (Vitest exit ${r.status})`;
  } else if (r.status !== 0 && c.failed === 0) {
    counts.failed++;
    why = `Vitest exited ${r.status}`;
  }
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  if (whole) lines.push(`  ${part.name} on ${on}: ${counts.passed} passed, ${counts.failed} failed in ${secs} s${why ? ` (${why})` : ''}${note ? ` (${note})` : ''}`);
}
if (whole) {
  console.log('');
  for (const l of lines) console.log(l);
  if (matrixOff) console.log('  (TEST_NODE_MATRIX=off: every part ran on this Node.js)');
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
