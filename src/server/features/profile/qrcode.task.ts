import { Resvg } from '@resvg/resvg-js';

/**
 * A QR code's SVG as a PNG `size` pixels wide, on the worker pool (src/server/worker.ts): at up to
 * 1024 px the rasterisation is milliseconds of CPU per request, which the event loop never spends.
 */
export function qrPngTask(arg: { svg: string; size: number }): Uint8Array {
  return new Resvg(arg.svg, { fitTo: { mode: 'width', value: arg.size }, logLevel: 'off' }).render().asPng();
}
