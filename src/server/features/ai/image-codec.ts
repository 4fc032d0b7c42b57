import sharp from 'sharp';
import { payloadTooLarge, unsupportedMediaType } from '#server/http/http-errors';

/**
 * Pixel work on an image sent to the assistant: decoding, the clean copy for an outside service and
 * PNG encoding. Run in the sandbox (segment.task.ts, decision 32-02), so this file imports nothing
 * of the features' services or tables: the sandbox bundle stays small (tests/build/worker-bundle).
 */

export const INVALID_FILE_TYPE = 'Invalid file type';
/** the largest picture accepted, in pixels (the uploads' limit, MAX_INPUT_PIXELS) */
export const AI_MAX_PIXELS = 40_000_000;
/** long side the picture is processed and returned at */
export const PROCESS_MAX_SIDE = 2048;

/** Decoded, upright RGBA pixels, scaled down to at most `maxSide` on the long side. */
export async function decodeRgba(data: Buffer, maxSide = PROCESS_MAX_SIDE): Promise<{ rgba: Uint8Array; width: number; height: number }> {
  try {
    const { data: raw, info } = await sharp(data, { limitInputPixels: AI_MAX_PIXELS, pages: 1, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`unexpected channel count ${info.channels}`);
    return { rgba: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength), width: info.width, height: info.height };
  } catch (e) {
    // bounded: sharp's own error message
    if (/pixel limit/i.test(String((e as Error)?.message))) throw payloadTooLarge('Image dimensions are too large');
    throw unsupportedMediaType(INVALID_FILE_TYPE);
  }
}

/** A clean copy to send to an outside service: upright, no metadata (EXIF/GPS), bounded size. */
export async function sanitizedCopy(data: Buffer, maxSide = PROCESS_MAX_SIDE): Promise<{ data: Buffer; mimeType: 'image/png' | 'image/jpeg' }> {
  const img = sharp(data, { limitInputPixels: AI_MAX_PIXELS, pages: 1 }).rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
  const meta = await sharp(data, { limitInputPixels: AI_MAX_PIXELS, pages: 1 }).metadata();
  if (meta.hasAlpha) return { data: await img.png({ compressionLevel: 6 }).toBuffer(), mimeType: 'image/png' };
  return { data: await img.jpeg({ quality: 92 }).toBuffer(), mimeType: 'image/jpeg' };
}

export async function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}
