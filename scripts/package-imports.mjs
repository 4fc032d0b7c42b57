// The `#shared/*`, `#server/*`, `#web/*` and `#tests/*` aliases are declared once, in package.json
// `imports` (decision 34-03). TypeScript (its "types" condition lists the .ts and .tsx files), Vite,
// Vitest and tsx resolve them from there. esbuild reads package.json `imports` too but adds no
// extension to a target, so the server bundle (scripts/build.mjs) and the worker bundle test use
// this plugin: it maps the alias through package.json (its "default" target) and resolves the
// result the way a relative import is resolved.
import fs from 'node:fs';
import path from 'node:path';

/** package.json `imports` as [alias prefix, folder] pairs, e.g. ['#shared/', './src/shared/']. */
export function packageImports(root) {
  const { imports = {} } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.entries(imports)
    .filter(([key]) => key.endsWith('/*'))
    .map(([key, target]) => {
      const to = typeof target === 'string' ? target : target.default;
      if (typeof to !== 'string' || !to.endsWith('/*')) throw new Error(`package.json imports["${key}"]: expected a "default" target ending in /*`);
      return [key.slice(0, -1), to.slice(0, -1)];
    });
}

/** esbuild plugin: `#x/...` through package.json `imports`, then resolved with esbuild's extensions. */
export function packageImportsPlugin(root) {
  const pairs = packageImports(root);
  return {
    name: 'package-imports',
    setup(build) {
      build.onResolve({ filter: /^#/ }, async (args) => {
        const pair = pairs.find(([prefix]) => args.path.startsWith(prefix));
        if (!pair) return undefined;
        const target = pair[1] + args.path.slice(pair[0].length);
        const result = await build.resolve(target, { kind: args.kind, resolveDir: root, importer: args.importer });
        if (result.errors.length) return { errors: result.errors };
        return { path: result.path, external: result.external, sideEffects: result.sideEffects, namespace: result.namespace };
      });
    },
  };
}
