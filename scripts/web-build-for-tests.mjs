// The built client the browser tests run against (tests/setup/build-web.ts): built when missing or
// older than its sources, the same build as `npm run build`. `node scripts/web-build-for-tests.mjs
// --nice` builds it at the lowest CPU priority: npm test (scripts/test.mjs) starts it beside the
// unit and API suites, so the browser part finds it ready instead of building it on its own
// critical path (decision 36-06, addendum).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsStale } from './stale.mjs';

/** Builds the client unless dist/web is newer than src/web, src/shared and scripts. Answers whether it built. */
export async function buildWebIfStale(root) {
  const stamp = path.join(root, 'dist', '.web-stamp');
  if (!buildIsStale(root, stamp, ['src/web', 'src/shared', 'scripts']) && fs.existsSync(path.join(root, 'dist/web/prerender/home.html'))) return false;
  const { buildWeb } = await import('./build-web.mjs');
  await buildWeb(root, { quiet: true });
  fs.writeFileSync(stamp, String(Date.now()));
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--nice')) os.setPriority(19);
  buildWebIfStale(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
