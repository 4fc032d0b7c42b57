import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { BUNDLED_FONTS, fontFileDir, type BundledFontFace } from '#shared/fonts';

/**
 * Font registry: where each bundled TTF lives on disk (inside its npm package), and the bytes,
 * read once. Used by the card renderer (resvg renders no text from WOFF, so TTF only) and by
 * `GET /fonts/:file`.
 */

export interface RegisteredFace extends BundledFontFace {
  family: string;
  path: string;
}

const require = createRequire(import.meta.url);
let registry: Map<string, RegisteredFace> | null = null;
const bytes = new Map<string, Buffer>();

function packageDir(pkg: string): string {
  return path.dirname(require.resolve(`${pkg}/package.json`));
}

function build(): Map<string, RegisteredFace> {
  const map = new Map<string, RegisteredFace>();
  for (const f of BUNDLED_FONTS) {
    const dir = packageDir(f.pkg);
    for (const face of f.faces) {
      const p = path.join(dir, fontFileDir(face.weight, face.style), face.file);
      if (!fs.existsSync(p)) throw new Error(`Bundled font file missing: ${f.pkg}/${fontFileDir(face.weight, face.style)}/${face.file}`);
      map.set(face.file, { ...face, family: f.family, path: p });
    }
  }
  return map;
}

export function fontRegistry(): Map<string, RegisteredFace> {
  registry ??= build();
  return registry;
}

/** Every bundled TTF path (for resvg's fontFiles). */
export function allFontPaths(): string[] {
  return [...fontRegistry().values()].map((f) => f.path);
}

/** The bytes of a bundled font by its file name, or null if the name is not one of ours. */
export function fontBytes(file: string): Buffer | null {
  const face = fontRegistry().get(file);
  if (!face) return null;
  let b = bytes.get(file);
  if (!b) {
    b = fs.readFileSync(face.path);
    bytes.set(file, b);
  }
  return b;
}
