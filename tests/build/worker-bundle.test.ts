import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * Decision 18-03: a pool worker loads only what its tasks use. The worker entry is bundled the way
 * scripts/build.mjs bundles it (npm packages external), and the bundle must hold no feature service,
 * no database schema and no route, and must load the packages that one rare task needs
 * (pdfkit, passkit-generator, jsqr) only on first use.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function graphOf(entry: string) {
  const out = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir: path.join(root, '.tmp/bundle-check'),
  });
  const inputs = Object.keys(out.metafile.inputs);
  const staticPackages = new Set<string>();
  const lazyPackages = new Set<string>();
  for (const file of Object.values(out.metafile.inputs)) {
    for (const imp of file.imports) {
      if (!imp.external) continue;
      (imp.kind === 'dynamic-import' ? lazyPackages : staticPackages).add(imp.path);
    }
  }
  return { inputs, staticPackages, lazyPackages };
}

describe('the worker bundle (decision 18-03)', () => {
  it('holds no feature service, schema or route, and loads rare packages on first use', async () => {
    const { inputs, staticPackages, lazyPackages } = await graphOf('src/server/worker.ts');
    const heavy = inputs.filter((f) => /\.service\.ts$|\.routes\.ts$|\/db\/schema\/|\/public-api\.ts$/.test(f));
    expect(heavy).toEqual([]);
    for (const pkg of ['pdfkit', 'passkit-generator', 'jsqr']) {
      expect(staticPackages.has(pkg), `${pkg} imported at the top of a task`).toBe(false);
      expect(lazyPackages.has(pkg), `${pkg} no longer used by any task?`).toBe(true);
    }
    for (const pkg of ['@node-rs/argon2', 'drizzle-orm', '@shopify/storefront-api-client', 'nodemailer', 'openai']) {
      expect(staticPackages.has(pkg), `${pkg} in the worker`).toBe(false);
    }
  }, 30_000);
});

describe('the server bundle (decision 18-03)', () => {
  it('loads the packages of optional services on first use', async () => {
    const { staticPackages, lazyPackages } = await graphOf('src/server/server.ts');
    // each is tens of MB resident once loaded: an AI model, SMTP, ZIP exports, S3, Redis
    for (const pkg of ['openai', 'nodemailer', 'archiver', '@aws-sdk/client-s3', 'ioredis']) {
      expect(staticPackages.has(pkg), `${pkg} imported at the top of a module the server loads`).toBe(false);
      expect(lazyPackages.has(pkg), `${pkg} no longer used by the server?`).toBe(true);
    }
  }, 30_000);
});
