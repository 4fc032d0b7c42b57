import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { BUNDLED_FONTS, DEFAULT_FONT_FAMILY, bundledFont, closestFace } from '#shared/fonts';
import type { CardData, TemplateField } from '#shared/templates/fields';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { fontRegistry } from './fonts';

/**
 * SVG -> PNG/JPEG with resvg and the bundled TTF fonts only (system fonts are never loaded, so a
 * card renders the same on every machine). resvg's raw pixels go straight to sharp for JPEG.
 *
 * `renderSvg` and `proofSheet` run on the worker pool (issue 18, decision 18-01): the main thread
 * never rasterises. The `*OnThisThread` functions are what the worker runs (render.task.ts).
 */

export type RasterFormat = 'png' | 'jpeg';

export interface RenderOptions {
  format: RasterFormat;
  /** output width in pixels (default: the SVG's own width, 1050 for cards) */
  width?: number;
  quality?: number;
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

function resvgOptions(svg: string, width?: number) {
  return {
    font: { loadSystemFonts: false, fontFiles: fontFilesFor(svg), defaultFontFamily: DEFAULT_FONT_FAMILY, sansSerifFamily: 'Inter', serifFamily: 'Playfair Display', monospaceFamily: 'JetBrains Mono' },
    fitTo: width ? ({ mode: 'width', value: width } as const) : ({ mode: 'original' } as const),
    background: '#000000',
    shapeRendering: 2 as const,
    textRendering: 1 as const,
    imageRendering: 0 as const,
    logLevel: 'off' as const,
  };
}

/** Largest output a render may ask for (a print-resolution card is 1050-2100 px wide). */
export const MAX_RENDER_WIDTH = 4200;

/**
 * Renders on the worker pool: 422 "This design is too complex to render" past the task time limit,
 * 503 + Retry-After when the render queue is full.
 */
export async function renderSvg(svg: string, opts: RenderOptions): Promise<Buffer> {
  const out = await runTask<Uint8Array>('render', 'renderSvg', { svg, opts });
  return asBuffer(out);
}

/** A template's two sides with what fills them (render.task.ts fills and renders on a worker). */
export interface FilledCardInput {
  front: string;
  back: string;
  data: CardData;
  qrUrl: string | null;
  logoHref: string | null;
  render: RenderOptions;
}

/** Fills and renders both sides on the worker pool (the fill's text fitting and QR code included). */
export async function renderFilledCard(input: FilledCardInput): Promise<{ front: Buffer; back: Buffer; frontSvg: string; backSvg: string; truncated: TemplateField[] }> {
  const out = await runTask<{ front: Uint8Array; back: Uint8Array; frontSvg: string; backSvg: string; truncated: TemplateField[] }>('render', 'renderCard', input);
  return { ...out, front: asBuffer(out.front), back: asBuffer(out.back) };
}

/** The render itself, synchronously on the calling thread (a pool worker: never the main thread). */
export async function renderSvgOnThisThread(svg: string, opts: RenderOptions): Promise<Buffer> {
  const width = opts.width === undefined ? undefined : Math.max(1, Math.min(MAX_RENDER_WIDTH, Math.round(opts.width)));
  // the synchronous render keeps the work on this worker's thread (renderAsync would use the libuv
  // pool the main thread's file and crypto work shares)
  const img = new Resvg(svg, resvgOptions(svg, width)).render();
  if (opts.format === 'png') return img.asPng();
  return sharp(img.pixels, { raw: { width: img.width, height: img.height, channels: 4 } })
    .flatten({ background: '#000000' })
    .jpeg({ quality: opts.quality ?? 90, chromaSubsampling: '4:4:4', mozjpeg: false })
    .toBuffer();
}

/** Front above back on one sheet with a small gap (the admin's print proof), on the worker pool. */
export async function proofSheet(front: Buffer, back: Buffer, gap = 30): Promise<Buffer> {
  return asBuffer(await runTask<Uint8Array>('render', 'proofSheet', { front, back, gap }));
}

export async function proofSheetOnThisThread(frontBytes: Uint8Array, backBytes: Uint8Array, gap = 30): Promise<Buffer> {
  const front = asBuffer(frontBytes);
  const back = asBuffer(backBytes);
  const [a, b] = await Promise.all([sharp(front).metadata(), sharp(back).metadata()]);
  const width = Math.max(a.width ?? 0, b.width ?? 0);
  const height = (a.height ?? 0) + gap + (b.height ?? 0);
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: front, left: 0, top: 0 },
      { input: back, left: 0, top: (a.height ?? 0) + gap },
    ])
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
    .toBuffer();
}
