import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context';
import { assertSafeKey } from '#server/infra/storage';
import { findFile } from '#server/infra/files';
import { notFound } from '#server/http/http-errors';
import { SANDBOX_CSP } from '#server/plugins/security';
import { etagOf, sendNotModifiedIfFresh } from '#server/http/etag';

/** Types a browser may show inline; anything else is sent as a download. */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'application/pdf',
  'text/vcard',
]);

const TYPE_BY_EXT: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.vcf': 'text/vcard',
};

/**
 * Keys that are written once and never rewritten (random names under these folders) are cached
 * for a year; anything else is revalidated.
 */
const IMMUTABLE = /^(uploads|artwork|ai|cards|files)\/(.+\/)?[a-z0-9]{16,}(-[a-z0-9]+)?\.[a-z0-9]{2,5}$/;

export function isImmutableKey(key: string): boolean {
  return IMMUTABLE.test(key); // bounded: a storage key (a URL path, capped with the request line)
}

/** Reading a folder or a path through a file is a missing file, not a fault. */
function notAFile(err: NodeJS.ErrnoException): null {
  if (err?.code === 'EISDIR' || err?.code === 'ENOTDIR' || err?.code === 'ENAMETOOLONG') return null;
  throw err;
}

export async function serveStoredFile(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, rawKey: string) {
  let key: string;
  try {
    key = decodeURIComponent(rawKey);
    assertSafeKey(key);
  } catch {
    throw notFound('File not found');
  }
  // a folder of the store (/files/uploads, /files/uploads/2026/) is not a file: 404, never EISDIR (issue 19)
  // bounded: a storage key (a URL path, capped with the request line)
  if (!/[^/]\.[a-z0-9]{1,8}$/i.test(key)) throw notFound('File not found');
  const [row, stored] = await Promise.all([findFile(ctx.db, key), ctx.storage.get(key).catch(notAFile)]);
  if (!stored) throw notFound('File not found');
  const type = (row?.mimeType ?? stored.contentType ?? TYPE_BY_EXT[path.extname(key).toLowerCase()] ?? 'application/octet-stream').toLowerCase();
  const inline = INLINE_TYPES.has(type);
  const etag = etagOf(stored.data);

  reply
    .header('content-security-policy', SANDBOX_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', isImmutableKey(key) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate')
    .header('content-type', inline ? (type === 'image/svg+xml' ? 'image/svg+xml; charset=utf-8' : type) : 'application/octet-stream');
  // bounded: a storage key's file name
  if (!inline) reply.header('content-disposition', `attachment; filename="${path.basename(key).replace(/[^a-z0-9._-]/gi, '')}"`);
  if (sendNotModifiedIfFresh(req, reply, etag)) return reply;
  return reply.send(stored.data);
}
