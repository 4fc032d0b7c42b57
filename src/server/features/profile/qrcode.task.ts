import { svgToPng } from '#server/infra/images/resvg';

/**
 * A QR code's SVG as a PNG `size` pixels wide, on the worker pool (src/server/worker.ts): at up to
 * 1024 px the rasterisation is milliseconds of CPU per request, which the event loop never spends.
 */
export function qrPngTask(arg: { svg: string; size: number }): Uint8Array {
  // a QR code has no text: no font database (loading the system's fonts was most of each render)
  return svgToPng(arg.svg, { fitTo: { mode: 'width', value: arg.size }, font: { loadSystemFonts: false }, logLevel: 'off' });
}
