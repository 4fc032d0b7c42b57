import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BUSINESS } from '#shared/catalogue';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { keyFromFileUrl } from '../../lib/files';
import { toJpegThumbnail } from '../../lib/images';
import { visitFlusher } from '../../jobs/visit-flusher';
import { loadPublicProfile, type CachedPublicProfile } from './public-profile.cache';
import { pageCsp, renderNotFoundPage, renderProfilePage } from './public-profile.page';
import { buildVcard, vcardDisposition } from './vcard';
import { deviceOf, isBot } from './visitor';
import { visitOrigin } from '../card-codes/visit-source';

const ID_RE = /^[a-z0-9]{4,32}$/;

interface RenderedPage {
  html: Buffer;
  gzip: Buffer;
  etag: string;
}

function packPage(html: string): RenderedPage {
  const buf = Buffer.from(html, 'utf8');
  return {
    html: buf,
    gzip: zlib.gzipSync(buf, { level: 9 }),
    etag: `"${crypto.createHash('sha1').update(buf).digest('base64url').slice(0, 20)}"`,
  };
}

let notFoundPage: RenderedPage | null = null;

function acceptsGzip(req: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

function sendPage(req: FastifyRequest, reply: FastifyReply, page: RenderedPage, status: number) {
  reply.status(status).header('content-type', 'text/html; charset=utf-8').header('vary', 'accept-encoding');
  if (status === 200) reply.header('etag', page.etag);
  if (status === 200 && req.headers['if-none-match'] === page.etag) return reply.status(304).send();
  if (acceptsGzip(req)) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.html);
}

function sendNotFoundPage(req: FastifyRequest, reply: FastifyReply) {
  notFoundPage ??= packPage(renderNotFoundPage());
  reply.header('cache-control', 'no-store').header('content-security-policy', pageCsp(false));
  return sendPage(req, reply, notFoundPage, 404);
}

/** A view counts unless it is a bot, the owner, a preview or a HEAD request. */
function countsAsView(req: FastifyRequest, entry: CachedPublicProfile, preview: boolean): boolean {
  if (req.method !== 'GET' || preview) return false;
  if (req.user && req.user.id === entry.userId) return false;
  return !isBot(req.headers['user-agent']);
}

async function recordVisit(ctx: AppContext, req: FastifyRequest, entry: CachedPublicProfile) {
  const ua = String(req.headers['user-agent'] ?? '');
  // card (a batch code's redirect), link (signature or another site) or direct: see card-codes/visit-source.ts
  const { source, cardCode } = await visitOrigin(ctx, req, entry.profile.id).catch(() => ({ source: 'direct' as const, cardCode: null }));
  visitFlusher(ctx).record({ kind: 'visit', profileId: entry.profile.id, at: new Date(), userAgent: ua, device: deviceOf(ua), source, cardCode });
}

async function jpegOf(ctx: AppContext, url: string | null): Promise<Buffer | null> {
  const key = keyFromFileUrl(url);
  if (!key) return null;
  try {
    const stored = await ctx.storage.get(key);
    if (!stored) return null;
    return await toJpegThumbnail(stored.data, 256, 78);
  } catch {
    return null;
  }
}

export async function publicProfileRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  /** The public page behind every card: server-rendered, cached, counted. */
  app.get<{ Params: { id: string }; Querystring: { preview?: string } }>('/p/:id', { config: { access: 'public' } }, async (req, reply) => {
    const id = req.params.id;
    const entry = ID_RE.test(id) ? await loadPublicProfile(ctx, id) : null;
    if (!entry) return sendNotFoundPage(req, reply);
    const preview = req.query.preview === 'true';
    const origin = ctx.publicUrl(req);
    const variant = `page:${preview ? 'preview' : 'public'}:${origin}`;
    let page = entry.rendered.get(variant) as RenderedPage | undefined;
    if (!page) {
      page = packPage(renderProfilePage(entry.profile, { origin, preview, leadForm: entry.leadFormEnabled }));
      entry.rendered.set(variant, page);
    }
    if (countsAsView(req, entry, preview)) await recordVisit(ctx, req, entry);
    reply.header('cache-control', 'no-cache').header('content-security-policy', pageCsp(preview));
    return sendPage(req, reply, page, 200);
  });

  /** Link buttons go through here: the click is counted, then the browser is sent on. */
  app.get<{ Params: { id: string; linkId: string } }>('/p/:id/go/:linkId', { config: { access: 'public' } }, async (req, reply) => {
    const { id, linkId } = req.params;
    const entry = ID_RE.test(id) && /^\d{1,10}$/.test(linkId) ? await loadPublicProfile(ctx, id) : null;
    const link = entry?.profile.links.find((l) => l.id === Number(linkId));
    if (!entry || !link) return sendNotFoundPage(req, reply);
    if (countsAsView(req, entry, false)) {
      visitFlusher(ctx).record({ kind: 'click', profileId: entry.profile.id, at: new Date(), linkId: link.id, linkType: link.linkType });
    }
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply.redirect(link.url, 302);
  });

  /** The profile as JSON (the SPA's client-side render of /p/{id}). */
  app.get<{ Params: { id: string }; Querystring: { preview?: string } }>('/api/p/:id', { config: { access: 'public' } }, async (req) => {
    const id = req.params.id;
    const entry = ID_RE.test(id) ? await loadPublicProfile(ctx, id) : null;
    if (!entry) throw notFound('Profile not found');
    if (countsAsView(req, entry, req.query.preview === 'true')) await recordVisit(ctx, req, entry);
    return entry.profile;
  });

  /** The contact file (vCard 3.0), saved as {name}.vcf. */
  app.get<{ Params: { profileId: string } }>('/api/vcard/:profileId', { config: { access: 'public' } }, async (req, reply) => {
    const id = req.params.profileId;
    const entry = ID_RE.test(id) ? await loadPublicProfile(ctx, id) : null;
    if (!entry) throw notFound('Profile not found');
    const origin = ctx.publicUrl(req);
    const variant = `vcard:${origin}`;
    let card = entry.rendered.get(variant) as string | undefined;
    if (!card) {
      const profileUrl = `${origin}/p/${entry.profile.id}`;
      card = buildVcard({
        profile: entry.profile,
        profileUrl,
        qrCodeUrl: `${origin}/api/qrcode?data=${encodeURIComponent(profileUrl)}&size=300&format=png`,
        photoJpeg: await jpegOf(ctx, entry.profile.customPhotoUrl),
        logoJpeg: await jpegOf(ctx, entry.profile.logoUrl),
        brandName: BUSINESS.name,
        updatedAt: entry.updatedAt,
      });
      entry.rendered.set(variant, card);
    }
    if (req.method === 'GET' && !isBot(req.headers['user-agent']) && req.user?.id !== entry.userId) {
      visitFlusher(ctx).record({ kind: 'save', profileId: entry.profile.id, at: new Date() });
    }
    return reply
      .header('content-type', 'text/vcard; charset=utf-8')
      .header('content-disposition', vcardDisposition(entry.profile.fullName))
      .header('cache-control', 'no-cache')
      .send(card);
  });
}
