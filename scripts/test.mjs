// npm test: every test (unit, API integration, browser) in one Vitest run, then one closing line
// "N passed, N failed" (+ skipped) that CI reads. Extra arguments go to Vitest.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const r = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test', ...(staticChecks ? { STATIC_CHECKS_REPORT: staticReport } : {}) } },
);
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
for (const [k, v] of Object.entries(byProject)) console.log(`  ${k}: ${v.passed} passed, ${v.failed} failed`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(r.status ?? (failed ? 1 : 0));
