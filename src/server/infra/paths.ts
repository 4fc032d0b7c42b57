import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder holding package.json, found from this file (works from src/ and from dist/). */
export function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'drizzle'))) {
      root = dir;
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      root = process.cwd();
      return root;
    }
    dir = parent;
  }
}
