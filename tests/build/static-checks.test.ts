import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The type checker and the linter run inside npm test, so a type error in a test file or a script
 * (which Vitest's transpile-only runs would not notice) turns CI red instead of slipping through.
 * knip finds dead code: unused files, exports and dependencies (knip.json; docs/architecture.md).
 */
const root = path.resolve(__dirname, '../..');
function run(script: string, args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

describe('static checks', () => {
  it('TypeScript: tsc --noEmit reports no errors', { timeout: 250_000 }, () => {
    const r = run('node_modules/typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.json']);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('ESLint reports no problems', { timeout: 250_000 }, () => {
    const r = run('node_modules/eslint/bin/eslint.js', ['.']);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('knip finds no unused files, exports or dependencies', { timeout: 250_000 }, () => {
    const r = run('node_modules/knip/bin/knip.js', ['--no-progress', '--no-config-hints']);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });
});
