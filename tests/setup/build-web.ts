import path from 'node:path';
import fs from 'node:fs';

/** Browser tests run against the built client: build it when missing or older than the sources. */
export default async function setup() {
  const root = path.resolve(__dirname, '../..');
  const { buildIsStale } = await import(path.join(root, 'scripts/stale.mjs'));
  const stamp = path.join(root, 'dist', '.web-stamp');
  if (buildIsStale(root, stamp, ['src/web', 'src/shared', 'scripts']) || !fs.existsSync(path.join(root, 'dist/web/prerender/home.html'))) {
    // the same build as `npm run build` (production React, home page prerendered)
    const { buildWeb } = await import(path.join(root, 'scripts/build-web.mjs'));
    await buildWeb(root, { quiet: true });
    fs.writeFileSync(stamp, String(Date.now()));
  }
}
