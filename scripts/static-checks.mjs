// The static checks of npm test (tests/build/static-checks.test.ts): the type checker, the linter and
// knip. `node scripts/static-checks.mjs <report.json>` runs them at the lowest CPU priority, two at a
// time, and writes each one's exit status and output to the report as it finishes. npm test
// (scripts/test.mjs) starts it beside Vitest, so the checks use the cores the other tests leave idle
// (mostly while browser pages load) instead of taking a test worker for minutes; the test file, run
// last, reads their results (decision 36-06).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each check: a Node script of an installed package and its arguments, run from the repo root. */
export const STATIC_CHECKS = {
  tsc: ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'],
  eslint: ['node_modules/eslint/bin/eslint.js', '.'],
  knip: ['node_modules/knip/bin/knip.js', '--no-progress', '--no-config-hints'],
};

/** Runs one check; resolves to its exit status and its output (stdout, then stderr, trimmed). */
export function runCheck(root, name, { timeoutMs = 240_000 } = {}) {
  const [script, ...args] = STATIC_CHECKS[name];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('error', (e) => resolve({ status: null, output: String(e) }));
    child.on('close', (status) => resolve({ status, output: `${out}${err}`.trim() }));
  });
}

async function main(report) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    // nice 19: the tests' own processes keep their share of the cores; the checks' children inherit it
    os.setPriority(19);
  } catch {
    // not allowed here: the checks run at normal priority
  }
  const results = { pid: process.pid, checks: {} };
  const write = () => {
    fs.writeFileSync(`${report}.part`, JSON.stringify(results));
    fs.renameSync(`${report}.part`, report);
  };
  write();
  const queue = Object.keys(STATIC_CHECKS);
  const lane = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const started = Date.now();
      // at nice 19 a check may wait long for a core while the tests run; 30 min bounds a hung one
      results.checks[name] = { ...(await runCheck(root, name, { timeoutMs: 1_800_000 })), ms: Date.now() - started };
      write();
    }
  };
  await Promise.all([lane(), lane()]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(path.resolve(process.argv[2] ?? '.tmp/static-checks.json'));
}
