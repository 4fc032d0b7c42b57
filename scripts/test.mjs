// npm test: every test (unit, API integration, browser) in one Vitest run, then the unit and API
// suites (the `pglite` project) on the other supported Node.js lines (decision 38-03), then one
// closing line "N passed, N failed" (+ skipped) that CI reads. Extra arguments go to Vitest (and then
// only the machine's Node.js runs them).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { NODE_LINES, countReport, ensureNode, runOnLine, stopRuns } from './node-matrix.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = path.join(root, '.tmp', 'vitest-report.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
fs.rmSync(report, { force: true });

const dbs = ['PGlite (embedded)'];
if (process.env.TEST_DATABASE_URL) dbs.push(`PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host})`);
console.log(`Databases under test: ${dbs.join(' and ')}`);

// A whole run (no arguments) starts the type checker, the linter and knip at the lowest CPU priority
// beside Vitest; tests/build/static-checks.test.ts, in the last project, reads their results
// (decision 36-06). A run of chosen files or projects leaves them to that test file, if chosen.
const staticReport = path.join(root, '.tmp', 'static-checks.json');
fs.rmSync(staticReport, { force: true });
const staticChecks =
  process.argv.length > 2
    ? undefined
    : spawn(process.execPath, [path.join(root, 'scripts/static-checks.mjs'), staticReport], { cwd: root, stdio: 'ignore', detached: true });

// The other Node.js lines (22 and 24; the machine runs 20) run the `pglite` project too, on a whole
// run only (TEST_NODE_MATRIX=off leaves them out, e.g. offline). Their binaries come from the npm
// registry (scripts/node-matrix.mjs), fetched now, beside the tests. The runs start when the browser
// files start (the phase reporter's signal; never beside the solo files' CPU bars), at nice 19, one
// test worker each, with the browser project's timeouts (a test there may wait for a core): the
// browser files keep their cores, the matrix takes what they leave, then both cores once they end.
// off unless asked for (TEST_NODE_MATRIX=on): beside the browser files they doubled the run's time
// on 2 cores and starved its browser tests (stop 42); `node scripts/node-matrix.mjs` runs them alone
const matrixOff = !/^(on|1|true|yes)$/i.test(process.env.TEST_NODE_MATRIX ?? '');
const lines = process.argv.length > 2 || matrixOff ? [] : NODE_LINES;
const signal = path.join(root, '.tmp', 'vitest-phase-signal');
fs.rmSync(signal, { force: true });
const matrixRuns = lines.map((line) => {
  const log = path.join(root, '.tmp', `node${line.major}.log`);
  const lineReport = path.join(root, '.tmp', `vitest-report-node${line.major}.json`);
  fs.rmSync(lineReport, { force: true });
  const fetched = ensureNode(root, line.version).then(
    () => undefined,
    (e) => e,
  );
  let start;
  const started = new Promise((resolve) => (start = resolve));
  const done = started.then(async () => {
    const t0 = Date.now();
    const fetchError = await fetched;
    if (fetchError) fs.writeFileSync(log, `${fetchError.message}\n`);
    const r = fetchError
      ? { status: null, fetchFailed: true, error: `could not get Node.js ${line.version} from the npm registry: ${fetchError.message}` }
      : await runOnLine(root, line, ['--project', 'pglite', '--maxWorkers=1', '--testTimeout=120000', '--hookTimeout=180000'], {
          log,
          report: lineReport,
          nice: 19,
        });
    return { line, log, report: lineReport, ...r, secs: Math.round((Date.now() - t0) / 1000) };
  });
  return { start, done };
});
const startMatrix = () => matrixRuns.forEach((m) => m.start());
// interrupted (Ctrl-C, CI's cancel): the matrix runs are process groups of their own; stop them too
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopRuns();
    process.exit(130);
  });
}
const watch = matrixRuns.length
  ? setInterval(() => {
      if (fs.existsSync(signal)) {
        clearInterval(watch);
        startMatrix();
      }
    }, 1000)
  : undefined;

const r = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      ...(matrixRuns.length ? [`--reporter=${path.join(root, 'scripts/vitest-phase-reporter.mjs')}`] : []),
      `--outputFile.json=${report}`,
      ...process.argv.slice(2),
    ],
    {
      stdio: 'inherit',
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        ...(staticChecks ? { STATIC_CHECKS_REPORT: staticReport } : {}),
        ...(matrixRuns.length ? { NODE_MATRIX_SIGNAL: signal } : {}),
      },
    },
  );
  child.on('error', (e) => resolve({ status: 1, error: e }));
  // ended by a signal: a failed run
  child.on('close', (status, killedBy) => resolve({ status: status ?? (killedBy ? 1 : null) }));
});
// no signal (the run ended early): the other lines run now, on their own
clearInterval(watch);
startMatrix();
// normally finished long before; after an interrupted or failed run, stop the checks (their own process group)
if (staticChecks) {
  try {
    process.kill(-staticChecks.pid, 'SIGTERM');
  } catch {
    // already ended
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const byProject = {};
try {
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  for (const file of j.testResults ?? []) {
    const project = file.name && /\.e2e\.ts$/.test(file.name) ? 'browser' : 'unit/api';
    for (const t of file.assertionResults ?? []) {
      byProject[project] ??= { passed: 0, failed: 0 };
      if (t.status === 'passed') {
        passed++;
        byProject[project].passed++;
      } else if (t.status === 'failed') {
        failed++;
        byProject[project].failed++;
      } else skipped++;
    }
    // a file that failed to load counts as a failure even with no test results
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') failed++;
  }
} catch {
  if (r.status !== 0) failed = Math.max(failed, 1);
}

// The other Node.js lines: their failures are shown here (their full output is in .tmp/node<N>.log),
// and count in the closing line; a line that could not run at all counts as one failure.
let matrixFailed = false;
if (matrixRuns.length) console.log(`\nUnit and API suites on Node.js ${lines.map((l) => l.version).join(' and ')} (after the browser files started)...`);
for (const m of await Promise.all(matrixRuns.map((x) => x.done))) {
  const name = `unit/api on Node.js ${m.line.version}`;
  let c;
  try {
    c = countReport(m.report);
  } catch {
    c = undefined;
  }
  if (m.error || !c || m.status !== 0) matrixFailed = true;
  if (c) {
    passed += c.passed;
    failed += c.failed;
    skipped += c.skipped;
    byProject[name] = { passed: c.passed, failed: c.failed };
  }
  if (m.error || !c) {
    failed++;
    byProject[name] = { passed: c?.passed ?? 0, failed: (c?.failed ?? 0) + 1, note: m.error ?? `no results (exit ${m.status})` };
  } else if (m.status !== 0 && c.failed === 0) {
    // Vitest failed without a failed test (an unhandled error, a file that did not load)
    failed++;
    byProject[name].failed++;
    byProject[name].note = `Vitest exited ${m.status}`;
  }
  if (m.fetchFailed) console.log(`\n--- Node.js ${m.line.version}: not run: ${m.error} ---`);
  else if (m.error || !c || m.status !== 0) {
    console.log(`\n--- Node.js ${m.line.version}: ${m.error ?? 'failed'} (full output: ${path.relative(root, m.log)}) ---`);
    const out = fs.existsSync(m.log) ? fs.readFileSync(m.log, 'utf8') : '';
    const at = out.search(/⎯+ (Failed Tests|Failed Suites|Unhandled Errors?)/);
    console.log((at >= 0 ? out.slice(at) : out.split('\n').slice(-80).join('\n')).slice(0, 200_000));
  } else console.log(`Node.js ${m.line.version}: ${c.passed} passed in ${m.secs} s`);
}
if (matrixOff) console.log('Node.js lines other than this one: not run (TEST_NODE_MATRIX=on runs them; node scripts/node-matrix.mjs runs them alone)');

for (const [k, v] of Object.entries(byProject)) console.log(`  ${k}: ${v.passed} passed, ${v.failed} failed${v.note ? ` (${v.note})` : ''}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(r.status || (matrixFailed ? 1 : 0) || (failed ? 1 : 0));
