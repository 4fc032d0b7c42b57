import type { AppContext } from '../../context';
import { PROFILE_UPLOAD_MAX_BYTES } from '#shared/catalogue';
import { prepareImageUpload, type ImageUploadRules } from '../../lib/images';
import { saveFile, type SavedFile } from '../../lib/files';

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
      accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'],
      maxWidth: 800,
      maxHeight: 800,
      typeMessage: 'Please upload a PNG, JPG or SVG image',
    },
  },
  'banner-logo': {
    field: 'bannerLogoImage',
    kind: 'banner-logo',
    rules: {
      accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'],
      maxWidth: 1200,
      maxHeight: 600,
      typeMessage: 'Please upload a PNG, JPG or SVG image',
    },
  },
} as const satisfies Record<string, { field: string; kind: string; rules: ImageUploadRules }>;

export type ProfileUploadKind = keyof typeof PROFILE_UPLOADS;
export const PROFILE_UPLOAD_LIMIT = PROFILE_UPLOAD_MAX_BYTES;

/** Checks, cleans and stores one profile image; answers its URL. */
export async function storeProfileImage(ctx: AppContext, userId: string, kind: ProfileUploadKind, bytes: Buffer): Promise<SavedFile> {
  const spec = PROFILE_UPLOADS[kind];
  const img = await prepareImageUpload(bytes, { ...spec.rules, accept: [...spec.rules.accept] });
  return saveFile(ctx, {
    userId,
    kind: spec.kind,
    prefix: 'uploads',
    data: img.data,
    mimeType: img.mimeType,
    ext: img.ext,
    width: img.width,
    height: img.height,
  });
}
