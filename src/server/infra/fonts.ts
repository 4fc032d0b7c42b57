import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { BUNDLED_FONTS, DEFAULT_FONT_FAMILY, bundledFont, closestFace, fontFileDir, type BundledFontFace } from '#shared/fonts';

/**
 * Font registry: where each bundled TTF lives on disk (inside its npm package), and the bytes,
 * read once. Used by the card renderer (resvg renders no text from WOFF, so TTF only) and by
 * `GET /fonts/:file`; and the files one SVG needs. Here, not in a feature, because the card renderer
 * (templates) and the print files (print) both run it on the worker pool, and a worker should load
 * no feature's services (their database, mail and payment packages) to choose a font.
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

const fontCache = new Map<string, string[]>();

/** The bundled families an SVG names in font-family attributes or styles (default family always). */
export function familiesIn(svg: string): string[] {
  const found = new Set<string>([DEFAULT_FONT_FAMILY]);
  for (const m of svg.matchAll(/font-family\s*(?:=\s*"([^"]*)"|=\s*'([^']*)'|:\s*([^;"}]+))/g)) {
    for (const part of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) {
      const f = bundledFont(part.replace(/&apos;|&quot;/g, ''));
      if (f) found.add(f.family);
    }
  }
  return [...found].sort();
}

/** Font weights an SVG asks for (400 always: the default). */
export function weightsIn(svg: string): number[] {
  const found = new Set<number>([400]);
  for (const m of svg.matchAll(/font-weight\s*(?:=\s*["']|:\s*)(\d{3}|bold|normal)/g)) {
    found.add(m[1] === 'bold' ? 700 : m[1] === 'normal' ? 400 : Number(m[1]));
  }
  return [...found].sort();
}

/**
 * Only the font files the SVG can use (its families, at the faces closest to the weights it names):
 * resvg reads every file it is given on each render, so fewer files is a faster render.
 */
export function fontFilesFor(svg: string): string[] {
  const families = familiesIn(svg);
  const weights = weightsIn(svg);
  const italic = /font-style\s*(?:=\s*["']|:\s*)italic/.test(svg);
  const key = `${families.join('|')}/${weights.join(',')}/${italic}`;
  let files = fontCache.get(key);
  if (!files) {
    const reg = fontRegistry();
    const wanted = new Set<string>();
    for (const fam of families) {
      const def = BUNDLED_FONTS.find((f) => f.family === fam);
      if (!def) continue;
      for (const w of weights) {
        wanted.add(closestFace(def, w, 'normal').file);
        if (italic) wanted.add(closestFace(def, w, 'italic').file);
      }
    }
    files = [...wanted].map((f) => reg.get(f)?.path).filter((p): p is string => !!p);
    fontCache.set(key, files);
  }
  return files;
}
