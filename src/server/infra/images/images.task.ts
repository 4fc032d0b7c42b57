import type { Resvg } from '@resvg/resvg-js';
import { loadSvg, svgToPng } from './resvg';
import sharp from 'sharp';
import { HttpError } from '#server/http/http-errors';
import { reencodeOnThisThread, type ReencodeOptions } from './images';
import { sanitizeSvg, type SanitizeSvgOptions } from '#server/infra/svg/svg-sanitize';
import { svgUtf8 } from '#server/infra/svg/svg-text';

/** Upload tasks, run on the worker pool (src/server/worker.ts): never on the main thread. */

// the sanitizer's code is compiled as a worker starts (the server starts its warm worker at boot),
// outside any task's time limit
sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>');

/** A text in, a text out; an upload's bytes in, the clean file's bytes out (never a string on the request thread: decision 32-10). */
export function sanitizeSvgTask(arg: { text?: string; bytes?: Uint8Array; opts?: SanitizeSvgOptions }): string | Uint8Array {
  if (arg.text !== undefined) return sanitizeSvg(arg.text, arg.opts);
  return Buffer.from(sanitizeSvg(svgUtf8(arg.bytes!), arg.opts), 'utf8');
}

export function reencodeImageTask(arg: { input: Uint8Array; opts: ReencodeOptions }) {
  return reencodeOnThisThread(arg.input, arg.opts);
}

/** Longest side of a rasterised SVG logo: print resolution for the largest logo box on a card. */
export const LOGO_RASTER_MAX_SIDE = 1200;

/**
 * A (sanitized) SVG logo as a transparent PNG whose longer side is LOGO_RASTER_MAX_SIDE: made once
 * at upload, so a card render never runs the user's SVG again.
 */
export function rasterizeSvgTask(arg: { svg: string }): Buffer {
  let probe: Resvg;
  try {
    probe = loadSvg(arg.svg, { font: { loadSystemFonts: false }, logLevel: 'off' });
  } catch {
    throw new HttpError(422, 'This SVG cannot be drawn. Please upload a PNG or a simpler SVG.');
  }
  const wide = probe.width >= probe.height;
  const fitTo = wide ? ({ mode: 'width', value: LOGO_RASTER_MAX_SIDE } as const) : ({ mode: 'height', value: LOGO_RASTER_MAX_SIDE } as const);
  const png = svgToPng(arg.svg, { fitTo, font: { loadSystemFonts: true }, logLevel: 'off' });
  return png;
}

/** A stored raster logo sized for a card (600 px box), as PNG. */
export async function cardLogoTask(arg: { input: Uint8Array }): Promise<Buffer> {
  return sharp(arg.input, { limitInputPixels: 40_000_000 }).resize({ width: 600, height: 600, fit: 'inside', withoutEnlargement: true }).png().toBuffer();
}
