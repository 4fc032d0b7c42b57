import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong ETag of some bytes (sha1, base64url, 22 characters: plenty for cache validation). */
export function etagOf(data: Buffer | string): string {
  return `"${crypto.createHash('sha1').update(data).digest('base64url').slice(0, 22)}"`;
}

/** True when the request's If-None-Match names `etag` (a list, `*`, or its weak form). */
export function isNotModified(req: FastifyRequest, etag: string): boolean {
  const inm = req.headers['if-none-match'];
  if (typeof inm !== 'string') return false;
  return inm.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Sets the ETag and answers 304 (no body) when the client already has it; otherwise returns
 * false and the caller sends the body. Other headers (cache-control...) must be set before.
 */
export function sendNotModifiedIfFresh(req: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag);
  if (!isNotModified(req, etag)) return false;
  reply.status(304).send();
  return true;
}
