import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, isNotModified } from '#server/http/etag';

/**
 * Built text files (the client's assets, its shell, the prerendered pages) sent from memory, with the
 * brotli or gzip copy the build wrote beside each (scripts/precompress.mjs) when the browser accepts
 * it: nothing is compressed per request (decision 38-01). Content types as @fastify/static sent them.
 */
export const TEXT_CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.ico': 'image/vnd.microsoft.icon',
};

export type ContentCoding = 'br' | 'gzip';
/** Preferred first, when the browser weighs them alike. */
const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];
const SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

const picked = new Map<string, ContentCoding | null>();
const PICKED_MAX = 200;

/**
 * The coding to send, from an Accept-Encoding header and the copies at hand: the highest q-value
 * wins, brotli before gzip on a tie; null for the file itself (no header, nothing acceptable, or
 * identity weighed above both). `*` stands for every coding the header does not name.
 */
export function pickCoding(acceptEncoding: string | string[] | undefined, available: ReadonlySet<ContentCoding>): ContentCoding | null {
  if (acceptEncoding === undefined || available.size === 0) return null;
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  // browsers send a handful of distinct headers: each is parsed once (a bounded memo)
  const key = `${available.has('br') ? 'b' : ''}${available.has('gzip') ? 'g' : ''}|${header}`;
  const known = picked.get(key);
  if (known !== undefined) return known;
  const coding = negotiate(header, available);
  if (picked.size >= PICKED_MAX) picked.clear();
  if (header.length <= 256) picked.set(key, coding);
  return coding;
}

function negotiate(header: string, available: ReadonlySet<ContentCoding>): ContentCoding | null {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const p of params) {
      const [key, value = ''] = p.split('=');
      // a weight that is not a number in 0..1 refuses the coding
      if (key.trim().toLowerCase() === 'q') q = /^\s*[0-9.]+\s*$/.test(value) ? Number(value) : 0;
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) q = 0;
    // a coding named twice keeps its first weight
    if (!weights.has(coding)) weights.set(coding, q);
  }
  // x-gzip is gzip's old name; * weighs every coding the header does not name
  const weight = (c: ContentCoding) => weights.get(c) ?? (c === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const c of CODINGS) {
    const q = available.has(c) ? weight(c) : 0;
    if (q > bestQ) {
      best = c;
      bestQ = q;
    }
  }
  // the file itself when the header names identity and weighs it above every copy
  const identityQ = weights.get('identity');
  if (best && identityQ !== undefined && identityQ > bestQ) return null;
  return best;
}

interface Variant {
  body: Buffer;
  etag: string;
}

/**
 * One built file and its compressed copies, read once when created: a running server keeps sending
 * the build it started with, even while a new build replaces the files on disk.
 */
export class PrecompressedFile {
  readonly contentType: string;
  readonly codings: ReadonlySet<ContentCoding>;
  readonly lastModified: string;
  private readonly variants = new Map<ContentCoding | 'identity', Variant>();

  constructor(readonly file: string) {
    const type = TEXT_CONTENT_TYPES[path.extname(file).toLowerCase()];
    if (!type) throw new Error(`precompressed: no content type for ${path.basename(file)}`);
    this.contentType = type;
    const read = (name: string): Variant => {
      const body = fs.readFileSync(name);
      // strong: each coding has its own bytes, so its own tag
      return { body, etag: etagOf(body) };
    };
    this.variants.set('identity', read(file));
    this.lastModified = fs.statSync(file).mtime.toUTCString();
    for (const c of CODINGS) {
      try {
        this.variants.set(c, read(file + SUFFIX[c]));
      } catch {
        // no copy (a small file, or one the build could not make smaller): the file itself is sent
      }
    }
    this.codings = new Set(CODINGS.filter((c) => this.variants.has(c)));
  }

  variant(coding: ContentCoding | null): Variant {
    return this.variants.get(coding ?? 'identity')!;
  }
}

/** Whether the browser's copy (If-None-Match, or else If-Modified-Since) is still the current one. */
function isFresh(req: FastifyRequest, etag: string, lastModified: string) {
  if (req.headers['if-none-match'] !== undefined) return isNotModified(req, etag);
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

/**
 * Sends a built file: the copy matching Accept-Encoding (brotli preferred, then gzip, else the file),
 * Vary: Accept-Encoding when copies exist, a strong ETag per coding and Last-Modified, and 304 to a
 * GET or HEAD whose validators still match (only for `status` 200). HEAD gets the headers alone.
 */
export function sendPrecompressed(req: FastifyRequest, reply: FastifyReply, file: PrecompressedFile, opts: { cacheControl: string; status?: number }) {
  const status = opts.status ?? 200;
  const coding = pickCoding(req.headers['accept-encoding'], file.codings);
  const { body, etag } = file.variant(coding);
  reply.header('cache-control', opts.cacheControl);
  if (file.codings.size > 0) reply.header('vary', 'accept-encoding');
  if (status === 200) {
    reply.header('etag', etag);
    reply.header('last-modified', file.lastModified);
    if ((req.method === 'GET' || req.method === 'HEAD') && isFresh(req, etag, file.lastModified)) return reply.status(304).send();
  }
  if (coding) reply.header('content-encoding', coding);
  return reply.status(status).type(file.contentType).send(body);
}
