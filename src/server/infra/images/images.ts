import sharp, { type Metadata } from 'sharp';
import { HttpError, payloadTooLarge, unsupportedMediaType } from '#server/http/http-errors';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { processPool } from '#server/infra/process-pool';
import { SvgRejectedError, SVG_MAX_BYTES, type SanitizeSvgOptions } from '#server/infra/svg/svg-sanitize';

/**
 * Image handling shared by every upload (profile images, artwork, AI images):
 * - `sniffType` decides the type from the bytes (never the name or the client's content type)
 * - `containsForeignContent` spots polyglots (an image that is also HTML, script or an archive)
 * - `reencodeImage` decodes with sharp (pixel count capped), applies the EXIF orientation, resizes,
 *   and writes a fresh JPEG/PNG/WebP: EXIF, GPS, XMP, comments and trailing bytes are all gone
 * - `prepareImageUpload` ties them together for an upload, including SVG sanitizing.
 *
 * Decoding, re-encoding and SVG parsing (the structure scan included) run on the worker pool
 * (issues 18 and 32): the main thread only sniffs the first bytes and checks UTF-8 before handing
 * work over.
 */

export type SniffedType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/avif'
  | 'image/heic'
  | 'image/tiff'
  | 'image/svg+xml'
  | 'application/pdf';

export type RasterOutput = 'image/jpeg' | 'image/png' | 'image/webp';

/** Decoded pixel cap: about 40 megapixels (a 5 MB file can otherwise expand to gigabytes). */
export const MAX_INPUT_PIXELS = 40_000_000;

export const EXT_BY_TYPE: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/tiff': 'tif',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
};

const RASTER_TYPES = new Set<SniffedType>(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/heic', 'image/tiff']);

export function isRasterType(t: SniffedType | null): boolean {
  return t !== null && RASTER_TYPES.has(t);
}

function startsWith(buf: Buffer, bytes: number[], offset = 0): boolean {
  if (buf.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buf[offset + i] !== bytes[i]) return false;
  return true;
}

/** The real type of a file from its first bytes, or null when it is none we know. */
export function sniffType(buf: Buffer): SniffedType | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buf, [0x47, 0x49, 0x46, 0x38]) && (buf[4] === 0x37 || buf[4] === 0x39) && buf[5] === 0x61) return 'image/gif';
  if (startsWith(buf, [0x52, 0x49, 0x46, 0x46]) && startsWith(buf, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (startsWith(buf, [0x49, 0x49, 0x2a, 0x00]) || startsWith(buf, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(buf, [0x66, 0x74, 0x79, 0x70], 4)) {
    const brand = buf.subarray(8, 12).toString('latin1');
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
    return null;
  }
  if (startsWith(buf, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (looksLikeSvg(buf)) return 'image/svg+xml';
  return null;
}

/** UTF-8 text whose first element (after an XML declaration, comments and whitespace) is <svg>. */
function looksLikeSvg(buf: Buffer): boolean {
  const head = buf.subarray(0, 4096);
  if (head.includes(0)) return false;
  // the regular expressions below look at these 4 KB only (the rule no-upload-regex, scripts/lint)
  let s = head.toString('utf8').replace(/^\uFEFF/, ''); // bounded: the first 4 KB
  for (let i = 0; i < 20; i++) {
    const before = s;
    s = s.replace(/^\s+/, ''); // bounded: the first 4 KB
    s = s.replace(/^<\?xml[^>]*\?>/i, ''); // bounded: the first 4 KB
    s = s.replace(/^<!--[\s\S]*?-->/, ''); // bounded: the first 4 KB
    if (s === before) break;
  }
  return /^<svg[\s>/]/i.test(s); // bounded: the first 4 KB
}

/** Markup or scripts inside a raster file: the signs of a polyglot (`<tag` then a space, `>` or `/`). */
const FOREIGN_TAGS = ['script', 'html', 'body', 'iframe', 'svg', 'object', 'embed', 'meta', '?php', '!doctype'];
/** The tags by their first character, for the one check made at each `<`. */
const TAGS_BY_FIRST = new Map<number, string[]>();
for (const tag of FOREIGN_TAGS) TAGS_BY_FIRST.set(tag.charCodeAt(0), [...(TAGS_BY_FIRST.get(tag.charCodeAt(0)) ?? []), tag]);

/** After a tag name: what `[\s>/]` matched in latin1 text (tab, LF, VT, FF, CR, space, NBSP, `>`, `/`). */
const isTagEnd = (c: number) => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x3e || c === 0x2f;

/**
 * Whether the bytes hold one of the markers, case-insensitively. This runs on the request thread
 * over the whole file (up to the upload cap), so it is a linear search and no regular expression:
 * one native lower-casing pass, a native search for `javascript:`, then a native `indexOf` from
 * one `<` to the next, where at most two tags (of at most 8 characters) are compared: the work is
 * a fixed multiple of the file's length whatever its bytes.
 */
function hasForeignMarker(buf: Buffer): boolean {
  const text = buf.toString('latin1').toLowerCase();
  if (text.includes('javascript:')) return true;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    const tags = TAGS_BY_FIRST.get(text.charCodeAt(at + 1));
    if (!tags) continue;
    for (const tag of tags) if (text.startsWith(tag, at + 1) && isTagEnd(text.charCodeAt(at + 1 + tag.length))) return true;
  }
  return false;
}

export function containsForeignContent(buf: Buffer, type: SniffedType): boolean {
  if (!isRasterType(type)) return false;
  if (hasForeignMarker(buf)) return true;
  // a ZIP end-of-central-directory record near the end (GIF/JPEG + JAR/ZIP polyglots)
  const tail = buf.subarray(Math.max(0, buf.length - 65_557));
  if (tail.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))) return true;
  // PDF trailer in an image
  if (tail.includes(Buffer.from('%%EOF'))) return true;
  return false;
}

export interface ReencodeOptions {
  maxWidth: number;
  maxHeight: number;
  /** inside (default): keep the whole picture; cover: crop to exactly maxWidth x maxHeight */
  fit?: 'inside' | 'cover';
  /** auto (default): PNG when the picture has transparency, JPEG otherwise */
  format?: 'auto' | 'jpeg' | 'png' | 'webp';
  /** flatten transparency onto this colour (JPEG output always does, default white) */
  background?: string;
  quality?: number;
  maxPixels?: number;
}

export interface EncodedImage {
  data: Buffer;
  mimeType: RasterOutput | 'image/svg+xml';
  ext: string;
  width?: number;
  height?: number;
}

/**
 * Decodes and writes a fresh image. Throws 415 when the bytes are not a decodable picture and
 * 413 when the picture has more pixels than allowed.
 */
export async function reencodeImage(input: Buffer, opts: ReencodeOptions, lane: 'upload' | 'visitor' = 'upload'): Promise<EncodedImage & { width: number; height: number }> {
  // an upload's bytes in the sandbox (a process we can kill); a stored image's thumbnail for a
  // visitor on the visitor lane's thread (decision 32-02)
  const out = await runTask<EncodedImage & { width: number; height: number }>(lane, 'reencodeImage', { input, opts });
  return { ...out, data: asBuffer(out.data) };
}

/** The re-encode itself, on the calling thread (a pool worker). */
export async function reencodeOnThisThread(bytes: Uint8Array, opts: ReencodeOptions): Promise<EncodedImage & { width: number; height: number }> {
  const input = asBuffer(bytes);
  const maxPixels = opts.maxPixels ?? MAX_INPUT_PIXELS;
  const make = () => sharp(input, { limitInputPixels: maxPixels, failOn: 'error', pages: 1, sequentialRead: true });
  let meta: Metadata;
  try {
    meta = await make().metadata();
  } catch (e) {
    throw imageError(e);
  }
  if (!meta.width || !meta.height) throw unsupportedMediaType('The file is not a readable image');
  if (meta.width * meta.height > maxPixels) throw payloadTooLarge('Image dimensions are too large');

  const format = opts.format ?? 'auto';
  const useAlpha = format === 'png' || format === 'webp' || (format === 'auto' && meta.hasAlpha === true);
  let pipeline = make()
    .rotate()
    .resize({
      width: opts.maxWidth,
      height: opts.maxHeight,
      fit: opts.fit === 'cover' ? 'cover' : 'inside',
      withoutEnlargement: opts.fit !== 'cover',
    });
  if (!useAlpha || opts.background) pipeline = pipeline.flatten({ background: opts.background ?? '#ffffff' });

  const quality = opts.quality ?? 85;
  let mimeType: RasterOutput;
  if (format === 'webp') {
    pipeline = pipeline.webp({ quality });
    mimeType = 'image/webp';
  } else if (useAlpha) {
    pipeline = pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
    mimeType = 'image/png';
  } else {
    pipeline = pipeline.jpeg({ quality, mozjpeg: true });
    mimeType = 'image/jpeg';
  }
  try {
    // sharp writes no metadata unless asked (no EXIF, GPS, XMP, ICC beyond sRGB conversion)
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { data, mimeType, ext: EXT_BY_TYPE[mimeType], width: info.width, height: info.height };
  } catch (e) {
    throw imageError(e);
  }
}

function imageError(e: unknown): HttpError {
  const msg = String((e as Error)?.message ?? '');
  // bounded: sharp's own error message (this runs in the task)
  if (/pixel limit/i.test(msg)) return payloadTooLarge('Image dimensions are too large');
  return unsupportedMediaType('The file is not a readable image');
}

/** A small JPEG (e.g. the contact-card photo): square crop, flattened on white. */
export async function toJpegThumbnail(input: Buffer, size = 256, quality = 80): Promise<Buffer> {
  const out = await reencodeImage(input, { maxWidth: size, maxHeight: size, fit: 'cover', format: 'jpeg', quality }, 'visitor');
  return out.data;
}

export interface ImageUploadRules {
  /** types accepted (after sniffing) */
  accept: SniffedType[];
  maxWidth: number;
  maxHeight: number;
  fit?: 'inside' | 'cover';
  format?: ReencodeOptions['format'];
  /** refusal message for a type not in `accept` */
  typeMessage?: string;
}

/**
 * Everything an image upload needs after the bytes have arrived: sniff, refuse what is not
 * allowed (415) or is a polyglot (415), sanitize SVG, re-encode rasters.
 */
export async function prepareImageUpload(input: Buffer, rules: ImageUploadRules): Promise<EncodedImage> {
  const type = sniffType(input);
  const typeMessage = rules.typeMessage ?? 'Unsupported file type';
  if (!type || !rules.accept.includes(type)) throw unsupportedMediaType(typeMessage);
  if (type === 'image/svg+xml') {
    // as bytes: decoded on the scan thread and in the sandbox, never here (decision 32-10)
    const clean = await sanitizeSvgOffThread(input);
    return { data: clean, mimeType: 'image/svg+xml', ext: 'svg' };
  }
  if (type === 'application/pdf') {
    // the first page at 300 DPI, in the sandbox, as a PNG (decision 37-05)
    const out = await runTask<EncodedImage & { width: number; height: number }>(
      'upload',
      'pdfToImage',
      { input, opts: { maxWidth: rules.maxWidth, maxHeight: rules.maxHeight, fit: rules.fit } },
      { tooComplex: 'This PDF is too complex' },
    );
    return { ...out, data: asBuffer(out.data) };
  }
  if (!isRasterType(type)) throw unsupportedMediaType(typeMessage);
  if (containsForeignContent(input, type)) throw unsupportedMediaType('The file contains more than an image and was refused');
  return reencodeImage(input, { maxWidth: rules.maxWidth, maxHeight: rules.maxHeight, fit: rules.fit, format: rules.format });
}

/**
 * `sanitizeSvg` off the request thread: first the linear scan (structure and budgets in output
 * pixels, decision 32-01) on the scan lane's worker thread, so a refusal it decides arrives in
 * milliseconds even while no sandbox process is ready (one is starting after a deadline kill:
 * 1-5 s); then the sanitize in the sandbox, which runs the scan again (decision 32-02). Past the
 * deadline the answer is 422 "This SVG is too complex". Refusals are SvgRejectedError as with
 * `sanitizeSvg`.
 */
export async function sanitizeSvgOffThread(text: string, opts?: SanitizeSvgOptions): Promise<string>;
export async function sanitizeSvgOffThread(bytes: Buffer, opts?: SanitizeSvgOptions): Promise<Buffer>;
export async function sanitizeSvgOffThread(input: string | Buffer, opts?: SanitizeSvgOptions): Promise<string | Buffer> {
  const source = typeof input === 'string' ? { text: input } : { bytes: input };
  try {
    // one deadline for both steps, from the upload's arrival here
    const limitMs = processPool().options.taskTimeoutMs;
    const arrived = performance.now();
    await runTask<null>('scan', 'scanSvg', { ...source, output: opts?.output, maxBytes: opts?.maxBytes ?? SVG_MAX_BYTES }, { tooComplex: 'This SVG is too complex', timeoutMs: limitMs });
    const leftMs = Math.max(1, Math.round(limitMs - (performance.now() - arrived)));
    const clean = await runTask<string | Uint8Array>('upload', 'sanitizeSvg', { ...source, opts }, { tooComplex: 'This SVG is too complex', timeoutMs: leftMs });
    return typeof clean === 'string' ? clean : asBuffer(clean);
  } catch (e) {
    if (e instanceof HttpError && !(e instanceof SvgRejectedError) && e.statusCode !== 503 && e.statusCode !== 429) throw new SvgRejectedError(e.message, e.statusCode);
    throw e;
  }
}

/** A sanitized SVG logo rasterised once (PNG, print resolution) on the worker pool. */
export async function rasterizeSvgOffThread(svg: string, opts: { quota?: boolean } = {}): Promise<Buffer> {
  return asBuffer(await runTask<Uint8Array>('upload', 'rasterizeSvg', { svg }, { tooComplex: 'This SVG is too complex', quota: opts.quota }));
}

/** A stored raster logo sized for a card (PNG), on the worker pool. */
export async function cardLogoPng(input: Buffer): Promise<Buffer> {
  // a stored logo during a card render: the server's own work, not under the client's quota
  return asBuffer(await runTask<Uint8Array>('upload', 'cardLogo', { input }, { quota: false }));
}
