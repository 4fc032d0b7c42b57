import type { AppContext } from '#server/context';
import { LOGO_TYPE_MESSAGE, PROFILE_UPLOAD_MAX_BYTES } from '#shared/catalogue';
import { cardLogoPng, prepareImageUpload, rasterizeSvgOffThread, type ImageUploadRules } from '#server/infra/images/images';
import { keyFromFileUrl, recordStoredFile, saveFile, type SavedFile } from '#server/infra/files';

/** The three profile images: field name, accepted types and the size they are stored at. */
export const PROFILE_UPLOADS = {
  'profile-image': {
    field: 'profileImage',
    kind: 'profile-image',
    rules: {
      accept: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
      maxWidth: 800,
      maxHeight: 800,
      typeMessage: 'Please upload a PNG, JPG or GIF image',
    },
  },
  logo: {
    field: 'logoImage',
    kind: 'logo',
    rules: {
      accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'application/pdf'],
      maxWidth: 800,
      maxHeight: 800,
      typeMessage: LOGO_TYPE_MESSAGE,
    },
  },
  'banner-logo': {
    field: 'bannerLogoImage',
    kind: 'banner-logo',
    rules: {
      accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'application/pdf'],
      maxWidth: 1200,
      maxHeight: 600,
      typeMessage: LOGO_TYPE_MESSAGE,
    },
  },
} as const satisfies Record<string, { field: string; kind: string; rules: ImageUploadRules }>;

export type ProfileUploadKind = keyof typeof PROFILE_UPLOADS;
export const PROFILE_UPLOAD_LIMIT = PROFILE_UPLOAD_MAX_BYTES;

/** Checks, cleans and stores one profile image; answers its URL. */
export async function storeProfileImage(ctx: AppContext, userId: string, kind: ProfileUploadKind, bytes: Buffer): Promise<SavedFile> {
  const spec = PROFILE_UPLOADS[kind];
  const img = await prepareImageUpload(bytes, { ...spec.rules, accept: [...spec.rules.accept] });
  // an SVG logo is drawn once, now, on the worker pool (issue 18): card renders use this PNG and
  // never run the user's SVG again. Drawn before anything is stored: a refusal writes nothing.
  const raster = img.mimeType === 'image/svg+xml' ? await rasterizeSvgOffThread(img.data.toString('utf8')) : null;
  const saved = await saveFile(ctx, {
    userId,
    kind: spec.kind,
    prefix: 'uploads',
    data: img.data,
    mimeType: img.mimeType,
    ext: img.ext,
    width: img.width,
    height: img.height,
  });
  if (raster) await saveRasterCopy(ctx, userId, spec.kind, saved.key, raster);
  return saved;
}

/** Storage key of an SVG file's PNG copy (made at upload). */
export function rasterKeyOf(svgKey: string): string {
  return `${svgKey}.png`;
}

async function saveRasterCopy(ctx: AppContext, userId: string, kind: string, svgKey: string, png: Buffer) {
  const key = rasterKeyOf(svgKey);
  await ctx.storage.put(key, png, 'image/png');
  // a files row like any other (account deletion and export find it)
  await recordStoredFile(ctx.db, { userId, kind: `${kind}-raster`, key, mimeType: 'image/png', size: png.length });
}

/**
 * A stored logo (a /files/... URL) as a card-sized PNG, or null when it cannot be read. An SVG logo
 * uses the PNG drawn at upload; one uploaded before that existed is drawn now on the pool (with its
 * time limit) and kept. Never runs SVG on the main thread.
 */
export async function cardLogoPngFor(ctx: AppContext, url: string | null | undefined): Promise<Buffer | null> {
  const key = keyFromFileUrl(url ?? null);
  if (!key) return null;
  try {
    let source: Buffer | null = null;
    if (key.endsWith('.svg')) {
      source = (await ctx.storage.get(rasterKeyOf(key)))?.data ?? null;
      if (!source) {
        const svg = await ctx.storage.get(key);
        if (!svg) return null;
        source = await rasterizeSvgOffThread(svg.data.toString('utf8'), { quota: false });
        await ctx.storage.put(rasterKeyOf(key), source, 'image/png');
      }
    } else {
      source = (await ctx.storage.get(key))?.data ?? null;
    }
    return source ? await cardLogoPng(source) : null;
  } catch {
    return null;
  }
}
