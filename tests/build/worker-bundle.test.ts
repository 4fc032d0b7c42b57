import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, startServerProcess, type ServerProcess } from '#tests/helpers/server-process';
import { packageImportsPlugin } from '../../scripts/package-imports.mjs';

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
    plugins: [packageImportsPlugin(root)],
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
    // untrusted bytes are parsed in the sandbox processes, never on a worker thread (decision 32-02):
    // the threads do not load jsdom
    expect(inputs.filter((f) => /uploads\.task\.ts$|segment\.task\.ts$|qr-scan\.task\.ts$/.test(f))).toEqual([]);
    expect(staticPackages.has('jsdom')).toBe(false);
    for (const pkg of ['pdfkit', 'passkit-generator']) {
      expect(staticPackages.has(pkg), `${pkg} imported at the top of a task`).toBe(false);
      expect(lazyPackages.has(pkg), `${pkg} no longer used by any task?`).toBe(true);
    }
    for (const pkg of ['@node-rs/argon2', 'drizzle-orm', '@shopify/storefront-api-client', 'nodemailer', 'openai']) {
      expect(staticPackages.has(pkg), `${pkg} in the worker`).toBe(false);
    }
  }, 30_000);
});

describe('the sandbox bundle (decision 32-02)', () => {
  it('holds the upload tasks and no feature service, schema or route', async () => {
    const { inputs, staticPackages, lazyPackages } = await graphOf('src/server/sandbox-worker.ts');
    const heavy = inputs.filter((f) => /\.service\.ts$|\.routes\.ts$|\/db\/schema\/|\/public-api\.ts$/.test(f));
    expect(heavy).toEqual([]);
    for (const task of ['images.task.ts', 'segment.task.ts', 'qr-scan.task.ts']) expect(inputs.some((f) => f.endsWith(task)), task).toBe(true);
    expect(lazyPackages.has('jsqr'), 'jsqr loaded on first use').toBe(true);
    for (const pkg of ['@node-rs/argon2', 'drizzle-orm', 'nodemailer', 'openai', 'pdfkit']) {
      expect(staticPackages.has(pkg), `${pkg} in the sandbox`).toBe(false);
    }
  }, 30_000);
});

describe('the built server (issue 32)', () => {
  let s: ServerProcess | undefined;
  afterAll(async () => {
    await s?.stop('SIGKILL');
  });

  it.skipIf(process.env.TEST_DB_KIND === 'postgres')('stores an SVG logo through its bundled sandbox process (dist/server/sandbox-worker.js)', { timeout: 120_000 }, async () => {
    await ensureServerBuilt();
    expect(fs.existsSync(path.join(root, 'dist/server/sandbox-worker.js'))).toBe(true);
    s = await startServerProcess({ RATE_LIMITS: 'off' });
    const origin = s.url;
    const reg = await fetch(`${s.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ username: 'bundle-logo', email: 'bundle-logo@example.com', password: 'Kx7#mplq-Zorbit', confirmPassword: 'Kx7#mplq-Zorbit' }),
    });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const form = new FormData();
    form.append('logoImage', new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><circle cx="25" cy="25" r="20" fill="#c33"/></svg>'], { type: 'image/svg+xml' }), 'logo.svg');
    // a 503 with Retry-After while the first sandbox process still loads on a busy machine is the
    // documented answer: the client tries again
    let up = await fetch(`${s.url}/api/upload/logo`, { method: 'POST', body: form, headers: { cookie, origin } });
    for (const until = Date.now() + 90_000; up.status === 503 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 1000));
      up = await fetch(`${s.url}/api/upload/logo`, { method: 'POST', body: form, headers: { cookie, origin } });
    }
    expect(up.status, await up.clone().text()).toBe(201);
    const { url } = (await up.json()) as { url: string };
    expect(url).toMatch(/\.svg$/);
    const stored = await fetch(`${s.url}${url}`);
    expect(stored.status).toBe(200);
    expect(await stored.text()).toContain('<circle');
    // the sandbox runs as a child of the server, through prlimit and nice: its limits are set
    const children = fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === s!.proc.pid;
        } catch {
          return false;
        }
      });
    const sandbox = children.find((d) => fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('sandbox-worker.js'));
    expect(sandbox, 'a sandbox child process').toBeDefined();
    const limits = fs.readFileSync(`/proc/${sandbox}/limits`, 'utf8');
    expect(limits).toMatch(/Max cpu time\s+60\s+61\s+seconds/);
    // SANDBOX_MEMORY_MB (384) on top of what a fresh child holds before any task (decision 38-03:
    // tens of MB on Node.js 20 and 22, about 600 MB of untouched reservations on 24)
    const data = /Max data size\s+(\d+)\s+(\d+)\s+bytes/.exec(limits);
    expect(data, limits).not.toBeNull();
    expect(Number(data![1])).toBe(Number(data![2]));
    expect(Number(data![1])).toBeGreaterThanOrEqual(384 * 1024 * 1024);
    expect(Number(data![1])).toBeLessThanOrEqual((384 + 1300) * 1024 * 1024);
  });
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
