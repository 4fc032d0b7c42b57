import { z } from 'zod';
import { binaryFile, EmptyResponse } from './common';

/** POST /api/upload/{photo|logo|banner-logo} (multipart): where the stored image is served. */
export const ProfileImageUploadResponse = z.strictObject({ url: z.string().regex(/^\/files\/[a-z0-9][a-z0-9/_.-]{0,200}$/) });

/** GET /files/{key}: a stored file by its server-made key (any text; an unknown key is a 404). */
export const StoredFileGetParams = z.strictObject({ '*': z.string() });
/** The file (images re-encoded, SVG sandboxed), 304 on a matching ETag. */
export const StoredFileGetResponse = {
  200: binaryFile('the stored type: image/png, image/jpeg, image/webp, image/svg+xml'),
  304: EmptyResponse,
};
