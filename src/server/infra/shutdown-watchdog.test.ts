import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The shutdown backstop ends the process even while its main thread never yields (decision 32-09). */
describe.runIf(process.platform === 'linux')('startShutdownWatchdog', () => {
  it('SIGKILLs a process whose main thread is held by synchronous work', { timeout: 60_000 }, () => {
    const module = path.resolve(__dirname, 'shutdown-watchdog.ts');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watchdog-'));
    const file = path.join(dir, 'held.mts');
    fs.writeFileSync(
      file,
      `const { startShutdownWatchdog } = await import(${JSON.stringify(module)});
      startShutdownWatchdog(300);
      const t = Date.now();
      while (Date.now() - t < 20000) {}
      console.log('still alive');`,
    );
    // one process (tsx as a loader, not its CLI, which would run the file in a child of its own)
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: path.resolve(__dirname, '../../..'), encoding: 'utf8', timeout: 30_000 });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.signal, r.stderr).toBe('SIGKILL');
    expect(r.stdout).not.toContain('still alive');
  });
});
