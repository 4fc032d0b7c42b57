import sharp, { type Metadata } from 'sharp';
import { containsForeignContent, MAX_INPUT_PIXELS, sniffType, type SniffedType } from '#server/features/uploads/public-api';
import { payloadTooLarge, unsupportedMediaType } from '#server/http/http-errors';

/**
 * Checks an image sent to the assistant before any pixel is decoded: the type from the bytes
 * (raster images only; the name and the client's content type are ignored), no polyglots, and
 * the pixel count from the header (a small file can hold a 50-megapixel picture).
 */

export const AI_IMAGE_TYPES: SniffedType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'];
export const INVALID_FILE_TYPE = 'Invalid file type';
export const AI_MAX_PIXELS = MAX_INPUT_PIXELS;
/** long side the picture is processed and returned at */
export const PROCESS_MAX_SIDE = 2048;

export interface InspectedImage {
  type: SniffedType;
  width: number;
  height: number;
}

export async function inspectAiImage(data: Buffer): Promise<InspectedImage> {
  const type = sniffType(data);
  if (!type || !AI_IMAGE_TYPES.includes(type)) throw unsupportedMediaType(INVALID_FILE_TYPE);
  if (containsForeignContent(data, type)) throw unsupportedMediaType(INVALID_FILE_TYPE);
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false, pages: 1 }).metadata();
  } catch {
    throw unsupportedMediaType(INVALID_FILE_TYPE);
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw unsupportedMediaType(INVALID_FILE_TYPE);
  if (width * height > AI_MAX_PIXELS) {
    throw payloadTooLarge(`Image dimensions are too large (maximum ${Math.round(AI_MAX_PIXELS / 1_000_000)} megapixels)`);
  }
  return { type, width, height };
}

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
