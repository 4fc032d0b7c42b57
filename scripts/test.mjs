// npm test: every test (unit, API integration, browser), then one closing line
// "N passed, N failed" (+ skipped) that CI reads. Extra arguments go to Vitest (one run, as given).
//
// With no arguments the browser project runs in a second Vitest process beside the unit/API
// projects (decision 18-04): the browser files run one at a time and wait on Chromium most of the
// time (about 0.7 of a core), so beside the API files they finish in the time the API files take
// instead of after them. Its output is held back and printed whole after the API run's, so the
// log reads as two runs one after the other.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const extra = process.argv.slice(2);

const dbs = ['PGlite (embedded)'];
if (process.env.TEST_DATABASE_URL) dbs.push(`PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host})`);
console.log(`Databases under test: ${dbs.join(' and ')}`);

/** One Vitest run; resolves with its exit status. `hold` keeps its output until `release()`. */
function run(name, args, { hold = false } = {}) {
  const report = path.join(tmp, `vitest-report-${name}.json`);
  fs.rmSync(report, { force: true });
  const child = spawn(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    stdio: ['ignore', hold ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'],
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test' },
  });
  let held = hold ? [] : null;
  if (hold) {
    const keep = (stream) => (chunk) => (held ? held.push([stream, chunk]) : stream.write(chunk));
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
  }
  const done = new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  return {
    report,
    done,
    release() {
      if (!held) return;
      for (const [stream, chunk] of held) stream.write(chunk);
      held = null;
    },
  };
}

const runs = [];
if (extra.length) {
  runs.push(run('all', extra));
} else {
  const api = run('api', ['--project', 'pglite', ...(process.env.TEST_DATABASE_URL ? ['--project', 'postgres'] : [])]);
  const browser = run('browser', ['--project', 'browser'], { hold: true });
  runs.push(api, browser);
  await api.done;
  console.log('\nBrowser tests (run beside the tests above):\n');
  browser.release();
}
const codes = await Promise.all(runs.map((r) => r.done));

let passed = 0;
let failed = 0;
let skipped = 0;
const byProject = {};
for (const [i, r] of runs.entries()) {
  try {
    const j = JSON.parse(fs.readFileSync(r.report, 'utf8'));
    for (const file of j.testResults ?? []) {
      const project = file.name && /\.e2e\.ts$/.test(file.name) ? 'browser' : 'unit/api';
      byProject[project] ??= { passed: 0, failed: 0 };
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'passed') {
          passed++;
          byProject[project].passed++;
        } else if (t.status === 'failed') {
          failed++;
          byProject[project].failed++;
        } else skipped++;
      }
      // a file that failed to load counts as a failure even with no test results
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') {
        failed++;
        byProject[project].failed++;
      }
    }
  } catch {
    if (codes[i] !== 0) failed = Math.max(failed, 1);
  }
}
for (const [k, v] of Object.entries(byProject)) console.log(`  ${k}: ${v.passed} passed, ${v.failed} failed`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(codes.find((c) => c !== 0) ?? (failed ? 1 : 0));
