import sharp, { type Metadata } from 'sharp';
import { containsForeignContent, MAX_INPUT_PIXELS, sniffType, type SniffedType } from '#server/infra/images/images';
import { AI_MAX_PIXELS, INVALID_FILE_TYPE } from './image-codec';
import { payloadTooLarge, unsupportedMediaType } from '#server/http/http-errors';

/**
 * Checks an image sent to the assistant before any pixel is decoded: the type from the bytes
 * (raster images only; the name and the client's content type are ignored), no polyglots, and
 * the pixel count from the header (a small file can hold a 50-megapixel picture).
 */

export const AI_IMAGE_TYPES: SniffedType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'];
export { PROCESS_MAX_SIDE } from './image-codec';

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
  if (width * height > Math.min(AI_MAX_PIXELS, MAX_INPUT_PIXELS)) {
    throw payloadTooLarge(`Image dimensions are too large (maximum ${Math.round(AI_MAX_PIXELS / 1_000_000)} megapixels)`);
  }
  return { type, width, height };
}
