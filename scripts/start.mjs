// npm start: build what is missing or stale, then run the server (it migrates and seeds at start-up).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsStale } from './stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsStale(root)) {
  console.log('Building the app (first start or sources changed)...');
  const { buildAll } = await import('./build.mjs');
  await buildAll({ quiet: true });
}
await import(pathToFileURL(path.join(root, 'dist/server/server.js')).href);
