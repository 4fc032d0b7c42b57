// The test processes' watchdog (tests/setup/watchdog.ts, decision 45-01): a test thread stuck in a
// busy loop, or a heap that only grows, ends its process within seconds and says where it was.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-watchdog-'));
const watchdog = pathToFileURL(path.join(root, 'tests/setup/watchdog.ts')).href;

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(name: string, body: string, nodeArgs: string[] = []): Promise<{ stderr: string; signal: string | null; ms: number }> {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, `import { installWatchdog } from ${JSON.stringify(watchdog)};\n${body}\n`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ stderr, signal, ms: Date.now() - started });
    });
  });
}

describe('test watchdog', () => {
  it('a busy loop: the process ends within seconds, naming the test and the function that spins', async () => {
    const r = await run(
      'spin',
      `const tell = installWatchdog({ stallMs: 1500 });
tell('a.test.ts > spins');
setTimeout(function spinsForever() { for (;;) {} }, 100);`,
    );
    expect(r.signal).toBe('SIGKILL');
    expect(r.stderr).toMatch(/the test thread has not run for \d+ s/);
    expect(r.stderr).toContain('it was in a.test.ts > spins');
    expect(r.stderr).toMatch(/at spinsForever .*spin\.mjs:4/);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('a heap that only grows: the process ends before its limit, naming where the live memory was allocated', async () => {
    const r = await run(
      'hoard',
      // it grows to 85% of its heap and holds it there (over the watchdog's 75%, under the limit, so
      // a busy machine cannot turn the test into the out-of-memory death it is about)
      `import v8 from 'node:v8';
const tell = installWatchdog({ stallMs: 60000 });
tell('b.test.ts > hoards');
const kept = [];
const cap = v8.getHeapStatistics().heap_size_limit * 0.85;
function hoardsForever() { if (process.memoryUsage().heapUsed < cap) for (let i = 0; i < 1000; i++) kept.push({ text: 'x'.repeat(200) + Math.random() }); setTimeout(hoardsForever, 20); }
hoardsForever();`,
      // a small young generation too: Node.js 24 counts its (larger) young generation in the heap
      // limit it reports, so with a 200 MB old generation that limit read 392 MB, and the process
      // died at 170 MB before reaching 75% of it
      ['--max-old-space-size=200', '--max-semi-space-size=2'],
    );
    expect(r.signal).toBe('SIGKILL');
    expect(r.stderr).toMatch(/the heap holds \d+ MB \(its limit is \d+ MB\)/);
    expect(r.stderr).toContain('it was in b.test.ts > hoards');
    expect(r.stderr).toMatch(/live memory by where it was allocated[\s\S]*hoardsForever .*hoard\.mjs:7/);
    expect(r.stderr).not.toMatch(/heap out of memory/);
  }, 60_000);
});
