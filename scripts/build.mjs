// Builds the web client (Vite -> dist/web, home page prerendered) and bundles the server (esbuild -> dist/server/server.js).
import { build as esbuild } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './build-web.mjs';
import { packageImportsPlugin } from './package-imports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildAll({ quiet = false } = {}) {
  const t0 = Date.now();
  await buildWeb(root, { quiet });
  await buildServer();
  fs.writeFileSync(path.join(root, 'dist', '.build-stamp'), String(Date.now()));
  if (!quiet) console.log(`build finished in ${Date.now() - t0} ms`);
}

/** esbuild's `packages: 'external'`, except the packages `bundled` matches. */
function externalPackagesBut(bundled) {
  return {
    name: 'external-packages-but',
    setup(build) {
      // a bare specifier: not relative, not absolute, not one of our '#' aliases
      build.onResolve({ filter: /^[^./#]/ }, (args) => (bundled.test(args.path) ? undefined : { path: args.path, external: true }));
    },
  };
}

export async function buildServer() {
  await esbuild({
    // worker: the worker pool's entry (src/server/infra/worker-pool.ts finds it beside server.js);
    // pglite-thread: the embedded database's own thread (src/server/db/pglite-thread-client.ts)
    entryPoints: {
      server: path.join(root, 'src/server/server.ts'),
      admin: path.join(root, 'src/server/cli/admin.ts'),
      worker: path.join(root, 'src/server/worker.ts'),
      // sandbox-worker: the sandbox processes' entry (src/server/infra/process-pool.ts forks it)
      'sandbox-worker': path.join(root, 'src/server/sandbox-worker.ts'),
      'pglite-thread': path.join(root, 'src/server/db/pglite-thread.ts'),
    },
    outdir: path.join(root, 'dist/server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // npm packages stay external (node_modules at run time), but for lucide-react: bundled, only the
    // icons the server renders are loaded; its package entry imports all ~1,600 (about 40 MB of RSS)
    // #shared/... and #server/...: package.json "imports" (scripts/package-imports.mjs)
    plugins: [packageImportsPlugin(root), externalPackagesBut(/^lucide-react(\/|$)/)],
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    jsx: 'automatic',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll({ quiet: process.argv.includes('--quiet') }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
