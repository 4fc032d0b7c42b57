// npm start: build what is missing or stale, then run the server (it migrates and seeds at start-up).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { buildIsStale } from './stale.mjs';
import { ALLOCATOR_ENV, wantsAllocatorEnv } from './allocator-env.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (wantsAllocatorEnv()) {
  // the allocator settings apply only from a process's start: run again with them (decision 32-10).
  // This process only passes signals on and ends as the server ends.
  const server = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...ALLOCATOR_ENV, ...process.env },
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  if (buildIsStale(root)) {
    console.log('Building the app (first start or sources changed)...');
    // in a child process: the build's memory (Vite, the prerendered React tree) is not kept by the server
    const { spawnSync } = await import('node:child_process');
    const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  await import(pathToFileURL(path.join(root, 'dist/server/server.js')).href);
}
