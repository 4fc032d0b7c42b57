// Types of scripts/package-imports.mjs for the worker bundle test (tests/build/worker-bundle.test.ts).
import type { Plugin } from 'esbuild';

export declare function packageImports(root: string): Array<[prefix: string, folder: string]>;
export declare function packageImportsPlugin(root: string): Plugin;
