import sharp from 'sharp';
import { HttpError } from '#server/http/http-errors';
import { noteNativeBytes } from '#server/infra/native-memory';
import { MAX_INPUT_PIXELS, reencodeOnThisThread, type EncodedImage, type ReencodeOptions } from './images';

/**
 * A PDF logo or artwork (Help and the FAQ promise "JPG, PNG or PDF at 300 DPI"): its first page
 * drawn at 300 DPI by pdf.js on @napi-rs/canvas, in the sandbox child (decision 37-05), never
 * larger than the upload's own size or the decoded-pixel cap, then re-encoded as a PNG with its
 * transparency like any raster upload. Scripts, XFA forms and embedded fonts' eval are off; an
 * encrypted file is refused with a message saying so.
 */

export const PDF_DPI = 300;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type Canvas = typeof import('@napi-rs/canvas');
let loading: Promise<{ pdfjs: PdfJs; canvas: Canvas }> | null = null;

/** pdf.js and its canvas, loaded on the first PDF (pdf.js draws with the DOM's Path2D and DOMMatrix: the canvas package's). */
function load() {
  loading ??= (async () => {
    // from source (tests, npm run dev) the dev entry offers Node's own import (scripts/sandbox-dev.mjs)
    const native = (globalThis as { __importNative?: (s: string) => Promise<unknown> }).__importNative;
    const canvas = (native ? await native('@napi-rs/canvas') : await import('@napi-rs/canvas')) as Canvas;
    const g = globalThis as Record<string, unknown>;
    g.Path2D ??= canvas.Path2D;
    g.DOMMatrix ??= canvas.DOMMatrix;
    g.ImageData ??= canvas.ImageData;
    const pdfjs = (native ? await native('pdfjs-dist/legacy/build/pdf.mjs') : await import('pdfjs-dist/legacy/build/pdf.mjs')) as PdfJs;
    return { pdfjs, canvas };
  })();
  return loading;
}

/** Loads pdf.js and its canvas (the sandbox child's one-time preparation for PDF tasks). */
export async function preparePdf(): Promise<void> {
  await load();
}

export async function pdfToImageTask(arg: { input: Uint8Array; opts: ReencodeOptions }): Promise<EncodedImage & { width: number; height: number }> {
  const { pdfjs, canvas } = await load();
  let doc: Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
  try {
    doc = await pdfjs.getDocument({
      // pdf.js takes the bytes over: a copy
      data: new Uint8Array(arg.input),
      isEvalSupported: false,
      enableXfa: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (e) {
    if ((e as Error)?.name === 'PasswordException') throw new HttpError(400, 'This PDF is protected by a password. Please upload it without one.');
    throw new HttpError(415, 'The file is not a readable PDF');
  }
  try {
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    if (!(base.width > 0 && base.height > 0)) throw new HttpError(415, 'The PDF page has no size');
    const maxSide = Math.max(arg.opts.maxWidth ?? 1200, arg.opts.maxHeight ?? 1200);
    // 300 DPI (1 pt = 1/72 in), but no larger than the upload is kept at, nor than the pixel cap
    let scale = Math.min(PDF_DPI / 72, maxSide / Math.max(base.width, base.height));
    const cap = arg.opts.maxPixels ?? MAX_INPUT_PIXELS;
    if (base.width * base.height * scale * scale > cap) scale = Math.sqrt(cap / (base.width * base.height));
    const viewport = page.getViewport({ scale });
    const w = Math.max(1, Math.round(viewport.width));
    const h = Math.max(1, Math.round(viewport.height));
    const surface = canvas.createCanvas(w, h);
    // the canvas's pixels are native memory a collection frees (decision 32-11)
    noteNativeBytes(w * h * 4);
    try {
      await page.render({ canvas: surface as unknown as HTMLCanvasElement, canvasContext: surface.getContext('2d') as unknown as CanvasRenderingContext2D, viewport, background: 'rgba(0,0,0,0)' }).promise;
    } catch {
      throw new HttpError(415, 'The PDF could not be drawn');
    }
    // the pixels as they are (RGBA, straight alpha) into sharp: the canvas's own PNG encoder lost
    // the transparency in one build, and this skips an encode and a decode
    const pixels = surface.getContext('2d').getImageData(0, 0, w, h).data;
    const png = await sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), { raw: { width: w, height: h, channels: 4 } }).png({ compressionLevel: 1 }).toBuffer();
    return await reencodeOnThisThread(png, { ...arg.opts, format: 'png' });
  } finally {
    await doc.destroy();
  }
}
