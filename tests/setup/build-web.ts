import path from 'node:path';

/** Browser tests run against the built client: built when missing or older than the sources. */
export default async function setup() {
  const root = path.resolve(__dirname, '../..');
  const { buildWebIfStale } = await import(path.join(root, 'scripts/web-build-for-tests.mjs'));
  await buildWebIfStale(root);
}
