import sharp from 'sharp';
import { DEFAULT_FONT_FAMILY } from '#shared/fonts';
import type { CardData, TemplateField } from '#shared/templates/fields';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { fontFilesFor } from '#server/infra/fonts';
import { loadSvg, renderPixels } from '#server/infra/images/resvg';

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

/**
 * Fills and renders both sides on the worker pool (the fill's text fitting and QR code included).
 * `candidate`: the files are an upload not yet accepted (the template manager's preview and save),
 * so they render in the sandbox, where a render past its deadline is killed and the memory a big
 * render leaves behind goes with the child (issue 32); a live template renders on the render lane.
 */
export async function renderFilledCard(input: FilledCardInput, opts: { candidate?: boolean } = {}): Promise<{ front: Buffer; back: Buffer; frontSvg: string; backSvg: string; truncated: TemplateField[] }> {
  type Out = { front: Uint8Array; back: Uint8Array; frontSvg: string; backSvg: string; truncated: TemplateField[] };
  const out = opts.candidate
    ? await runTask<Out>('upload', 'renderCandidateCard', input, { tooComplex: 'This SVG is too complex' })
    : await runTask<Out>('render', 'renderCard', input);
  return { ...out, front: asBuffer(out.front), back: asBuffer(out.back) };
}

/** The render itself, synchronously on the calling thread (a pool worker: never the main thread). */
export async function renderSvgOnThisThread(svg: string, opts: RenderOptions): Promise<Buffer> {
  const width = opts.width === undefined ? undefined : Math.max(1, Math.min(MAX_RENDER_WIDTH, Math.round(opts.width)));
  // the synchronous render keeps the work on this worker's thread (renderAsync would use the libuv
  // pool the main thread's file and crypto work shares)
  const img = renderPixels(loadSvg(svg, resvgOptions(svg, width)));
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
