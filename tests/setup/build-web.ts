import path from 'node:path';
import fs from 'node:fs';

/** Browser tests run against the built client: build it when missing or older than the sources. */
export default async function setup() {
  const root = path.resolve(__dirname, '../..');
  const { buildIsStale } = await import(path.join(root, 'scripts/stale.mjs'));
  const stamp = path.join(root, 'dist', '.web-stamp');
  if (buildIsStale(root, stamp, ['src/web', 'src/shared']) || !fs.existsSync(path.join(root, 'dist/web/index.html'))) {
    const { build } = await import('vite');
    await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'error' });
    fs.writeFileSync(stamp, String(Date.now()));
  }
}
