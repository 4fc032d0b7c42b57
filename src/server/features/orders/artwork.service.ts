import type { FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context';
import { saveFile, type SavedFile } from '#server/infra/files';
import { randomToken } from '#server/infra/crypto';
import { uploadTokenHash } from '#server/infra/file-ownership';
import { prepareImageUpload } from '#server/infra/images/images';
import { readUpload, maxSizeText } from '#server/http/multipart';
import { ARTWORK_TYPE_MESSAGE } from '#shared/catalogue';

/** Print artwork keeps a high resolution: up to 6000 px on the long side (40 MP decode cap). */
const ARTWORK_MAX_SIDE = 6000;
export { ARTWORK_TYPE_MESSAGE };

/**
 * The order form's artwork (multipart field `artwork`): size capped while streaming (413), type
 * decided by the bytes (415: png, jpeg, webp, svg, pdf only), SVG sanitized, a PDF's first page drawn
 * at 300 DPI in the sandbox (decision 37-05), rasters re-encoded without
 * metadata, stored under a server-made name with a `files` row of kind `artwork`.
 */
export async function uploadArtwork(
  ctx: AppContext,
  req: FastifyRequest,
  opts: { userId: string | null; maxBytes: number },
): Promise<SavedFile & { uploadToken?: string }> {
  const upload = await readUpload(req, {
    field: 'artwork',
    maxBytes: opts.maxBytes,
    tooLargeMessage: `File too large. Maximum file size is ${maxSizeText(opts.maxBytes)}`,
  });
  const image = await prepareImageUpload(upload.data, {
    accept: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'application/pdf'],
    maxWidth: ARTWORK_MAX_SIDE,
    maxHeight: ARTWORK_MAX_SIDE,
    typeMessage: ARTWORK_TYPE_MESSAGE,
  });
  // signed out, the file belongs to whoever holds this token (only its hash is stored); the order
  // form sends it back with the order (issue 19)
  const uploadToken = opts.userId ? undefined : randomToken(24);
  const saved = await saveFile(ctx, {
    userId: opts.userId,
    ownerTokenHash: uploadToken ? uploadTokenHash(uploadToken) : null,
    kind: 'artwork',
    prefix: 'artwork',
    data: image.data,
    mimeType: image.mimeType,
    ext: image.ext,
    width: image.width ?? null,
    height: image.height ?? null,
  });
  return uploadToken ? { ...saved, uploadToken } : saved;
}
