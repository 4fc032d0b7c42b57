import sharp from 'sharp';

/** Largest side we rasterize to before decoding (a 1050x600 card back decodes well at that size). */
const MAX_SIDE = 1400;

/**
 * Reads the QR code in an image (PNG, JPEG, WebP or SVG: anything sharp rasterizes) the way a
 * phone would: flattened on white, decoded with jsQR, trying inverted colours too. Retries at a
 * larger scale when the first pass finds nothing (small modules on a big card). Null when no code.
 * Runs on the worker pool (decision 18-01): decoding a 1400 px image is tens of milliseconds of CPU.
 */
export async function decodeQrTask(arg: { bytes: Uint8Array }): Promise<string | null> {
  const bytes = Buffer.from(arg.bytes.buffer, arg.bytes.byteOffset, arg.bytes.byteLength);
  const { default: jsQR } = await import('jsqr');
  const meta = await sharp(bytes, { limitInputPixels: 40_000_000 }).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) return null;
  const scale = Math.min(1, MAX_SIDE / Math.max(w, h));
  const first = Math.max(1, Math.round(w * scale));
  const widths = Math.max(w, h) * scale < 800 ? [first, first * 2] : [first];
  for (const width of widths) {
    const isSvg = meta.format === 'svg';
    const img = sharp(bytes, { limitInputPixels: 40_000_000, density: isSvg ? Math.max(72, Math.round((72 * width) / w)) : undefined });
    const { data, info } = await img
      .resize({ width, withoutEnlargement: false })
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height, { inversionAttempts: 'attemptBoth' });
    if (code?.data) return code.data;
  }
  return null;
}

