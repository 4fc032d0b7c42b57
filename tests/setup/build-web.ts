import path from 'node:path';
import fs from 'node:fs';

/** Browser tests run against the built client: build it when missing or older than the sources. */
export default async function setup() {
  const root = path.resolve(__dirname, '../..');
  const { buildIsStale } = await import(path.join(root, 'scripts/stale.mjs'));
  const stamp = path.join(root, 'dist', '.web-stamp');
  if (buildIsStale(root, stamp, ['src/web', 'src/shared']) || !fs.existsSync(path.join(root, 'dist/web/index.html'))) {
    const { build } = await import('vite');
    // Vitest sets NODE_ENV=test, and Vite then bundles React's development build (about 60 KB
    // more gzip): build what users get, as `npm run build` does.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'error', mode: 'production' });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    fs.writeFileSync(stamp, String(Date.now()));
  }
}
