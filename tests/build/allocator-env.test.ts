import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { ALLOCATOR_ENV, wantsAllocatorEnv } from '../../scripts/allocator-env.mjs';

/**
 * `npm start` runs the server with glibc's allocator settings (decision 32-10): without them the
 * server's resident memory grew by 100+ MB more in the hostile storm. The start script runs itself
 * again with them; an operator's own value of any of them wins.
 */
describe('npm start: the allocator settings', () => {
  it('are wanted on Linux unless the operator set one', () => {
    expect(wantsAllocatorEnv({}, 'linux')).toBe(true);
    expect(wantsAllocatorEnv({ MALLOC_ARENA_MAX: '4' }, 'linux')).toBe(false);
    expect(wantsAllocatorEnv({}, 'darwin')).toBe(false);
  });

  it.runIf(process.platform === 'linux')('the server process runs with them, and a signal to npm start reaches it', { timeout: 60_000 }, async () => {
    // a stand-in for the built server: start.mjs's own logic, run from a copy of the scripts folder
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-env-'));
    const scripts = path.join(dir, 'scripts');
    fs.mkdirSync(scripts);
    fs.mkdirSync(path.join(dir, 'dist/server'), { recursive: true });
    for (const f of ['start.mjs', 'allocator-env.mjs']) fs.copyFileSync(path.resolve(__dirname, '../../scripts', f), path.join(scripts, f));
    // the build is never stale here; the "server" prints its environment and waits for SIGTERM
    fs.writeFileSync(path.join(scripts, 'stale.mjs'), 'export const buildIsStale = () => false;\n');
    fs.writeFileSync(
      path.join(dir, 'dist/server/server.js'),
      `console.log(JSON.stringify({ pid: process.pid, env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MALLOC_'))) }));
       process.on('SIGTERM', () => { console.log('stopping'); process.exit(0); });
       setInterval(() => {}, 1000);\n`,
    );
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MALLOC_')));
    const start = spawn(process.execPath, [path.join(scripts, 'start.mjs')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    start.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    const until = Date.now() + 30_000;
    while (!out.includes('\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const seen = JSON.parse(out.split('\n')[0]) as { pid: number; env: Record<string, string> };
    expect(seen.env).toEqual(ALLOCATOR_ENV);
    expect(seen.pid).not.toBe(start.pid);
    start.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => start.on('exit', (c) => r(c)));
    expect(out).toContain('stopping');
    expect(code).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
