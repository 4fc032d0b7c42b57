import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { BUNDLED_FONTS, DEFAULT_FONT_FAMILY, bundledFont, closestFace, fontFileDir, type BundledFontFace } from '#shared/fonts';
import { cjkFacePath, cjkFacesIn, hasCjk } from './script-fonts';
import { pdfFontSource } from './pdf-fonts';

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
  return hasCjk(svg) ? [...files, ...cjkFontFilesFor(svg, weights)] : files;
}

/**
 * The CJK files an SVG's text needs (decision 36-03), unpacked to TTF for resvg, which falls back
 * to them for each character the SVG's own font lacks. resvg's fallback takes the first loaded face
 * that has the character, whatever its weight, so the heaviest weight the SVG names goes first (the
 * name, usually the boldest line, gets its weight; lighter lines may print a little heavier).
 */
function cjkFontFilesFor(svg: string, weights: number[]): string[] {
  const text = [...svg.matchAll(/>([^<]+)</g)].map((m) => m[1]).join(' ');
  return [...weights].sort((a, b) => b - a).flatMap((w) => cjkFacesIn(text, w).map(cjkFacePath));
}

/**
 * The faces every PDF we write with text embeds (job ticket, jig sheet; issue 36). PDFKit's base-14
 * fonts are WinAnsi only and garble any name outside Western Latin; Inter (already bundled for the
 * cards) covers Latin with Latin Extended, Greek, Cyrillic and Vietnamese, and pdfkit embeds only
 * the glyphs used (a subset). Chinese, Japanese and Korean runs are drawn with Noto Sans faces
 * (`drawText` in pdf-text.ts, decision 36-03).
 */
export function pdfFontPaths(): { regular: string; bold: string; mono: string } {
  const reg = fontRegistry();
  const path = (file: string) => {
    const face = reg.get(file);
    if (!face) throw new Error(`Bundled font missing: ${file}`);
    return face.path;
  };
  return { regular: path('Inter_400Regular.ttf'), bold: path('Inter_700Bold.ttf'), mono: path('JetBrainsMono_400Regular.ttf') };
}

/**
 * The `font` option for `new PDFDocument` when registerPdfFonts follows: no default face. Given
 * Inter's path there, pdfkit opened Inter a second time on every `doc.font('Body')` (its cache holds
 * the face under the path and the PostScript name, finds the name taken, and never keeps `Body`):
 * about 5 ms a call. Omitted, pdfkit loads Helvetica (base-14, not embedded).
 */
export const NO_DEFAULT_FONT = '';

/** Registers the PDF faces on a pdfkit document as `Body`, `Bold` and `Mono`. */
export function registerPdfFonts(doc: PDFKit.PDFDocument): void {
  const p = pdfFontPaths();
  // parsed once per thread (pdf-fonts.ts: parsing Inter per document was most of a job ticket)
  doc.registerFont('Body', pdfFontSource(p.regular, () => p.regular));
  doc.registerFont('Bold', pdfFontSource(p.bold, () => p.bold));
  doc.registerFont('Mono', pdfFontSource(p.mono, () => p.mono));
  doc.font('Body');
}
