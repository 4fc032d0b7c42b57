import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';

/** Rasterize an SVG (with resvg) and decode the QR code in it with jsQR, an independent reader. */
export function decodeQrSvg(svg: string, width = 400): string | null {
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render();
  const rgba = new Uint8ClampedArray(png.pixels.buffer, png.pixels.byteOffset, png.pixels.byteLength);
  const code = jsQR(rgba, png.width, png.height);
  return code ? code.data : null;
}

/** Decode a QR code from PNG/JPEG/SVG bytes (any format sharp reads). */
export async function decodeQrImage(bytes: Buffer): Promise<string | null> {
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(bytes).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
  return code ? code.data : null;
}
