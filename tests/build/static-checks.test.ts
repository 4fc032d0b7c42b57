import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { runCheck as runCheckMjs } from '../../scripts/static-checks.mjs';

/**
 * The type checker and the linter run inside npm test, so a type error in a test file or a script
 * (which Vitest's transpile-only runs would not notice) turns CI red instead of slipping through.
 * knip finds dead code: unused files, exports and dependencies (knip.json; docs/architecture.md).
 *
 * npm test starts the three checks at the lowest CPU priority beside Vitest (scripts/static-checks.mjs,
 * STATIC_CHECKS_REPORT names their report) and this file, in its own project that runs last, reads
 * their results: they use the cores the other tests leave idle instead of a test worker (decision
 * 36-06). Run on its own (no report), each test runs its check itself, as before.
 */
type CheckName = 'tsc' | 'eslint' | 'knip';
type Result = { status: number | null; output: string };
const runCheck = runCheckMjs as (root: string, name: CheckName) => Promise<Result>;
const root = path.resolve(__dirname, '../..');
const report = process.env.STATIC_CHECKS_REPORT;

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The check's result: from the run npm test started (waiting for it if it is still going), or run now. */
async function result(name: CheckName): Promise<Result> {
  if (!report) return runCheck(root, name);
  for (;;) {
    const r = fs.existsSync(report) ? (JSON.parse(fs.readFileSync(report, 'utf8')) as { pid?: number; checks: Partial<Record<CheckName, Result>> }) : undefined;
    const done = r?.checks[name];
    if (done) return done;
    if (!alive(r?.pid)) {
      // read again: the runner may have written its last result and ended since the first read
      const last = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')).checks?.[name] : undefined;
      if (last) return last;
      throw new Error(`the static checks' runner (scripts/static-checks.mjs) ended without a result for ${name}; report ${report}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe('static checks', () => {
  // generous: with npm test the checks ran at nice 19 and may still be finishing when this file starts
  it('TypeScript: tsc --noEmit reports no errors', { timeout: 1_200_000 }, async () => {
    const r = await result('tsc');
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('ESLint reports no problems', { timeout: 1_200_000 }, async () => {
    const r = await result('eslint');
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('knip finds no unused files, exports or dependencies', { timeout: 1_200_000 }, async () => {
    const r = await result('knip');
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });
});
