// npm start: build what is missing or stale, then run the server (it migrates and seeds at start-up).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsStale } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsStale(root)) {
  console.log('Building the app (first start or sources changed)...');
  // in a child process: the build's memory (Vite, the prerendered React tree) is not kept by the server
  const { spawnSync } = await import('node:child_process');
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(pathToFileURL(path.join(root, 'dist/server/server.js')).href);
