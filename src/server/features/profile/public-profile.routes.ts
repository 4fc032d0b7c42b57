import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/profile';
import { BUSINESS } from '#shared/catalogue';
import { publicProfilePath, publicProfileUrl } from '#shared/routes';
import { handlePath } from '#shared/profile/handle';
import { resolveHandle } from './handle.service';
import type { VisitSource } from '#shared/schemas/engagement';
import type { ZodTypeProvider } from '#server/http/validation';
import type { AppContext } from '#server/context';
import { notFound } from '#server/http/http-errors';
import { keyFromFileUrl } from '#server/infra/files';
import { toJpegThumbnail } from '#server/infra/images/images';
import { loadPublicProfile, peekPublicProfile, type CachedPublicProfile } from './public-profile.cache';
import { captureAnswer, fastLaneOf, replay, type CapturedAnswer, type FastLane } from '#server/http/fast-lane';
import { plainPageCsp, profilePageCsp as pageCsp, renderNotFoundPage, renderProfilePage } from './public-profile.page';
import { buildVcard, vcardDisposition } from './vcard';
import { deviceOf, isBot, type PageEvent } from './visitor';
import { etagOf, sendNotModifiedIfFresh } from '#server/http/etag';

const ID_RE = /^[a-z0-9]{4,32}$/;
/** a session cookie (plain or __Host-): such a caller may be the owner, whose views do not count */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Host-)?sid=/;
/** a handle's shape before any query (the rules proper: #shared/profile/handle) */
const HANDLE_RE = /^[a-z0-9_-]{1,30}$/;

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
    etag: etagOf(buf),
  };
}

let notFoundPage: RenderedPage | null = null;

function acceptsGzip(req: { headers: IncomingHttpHeaders }): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

function sendPage(req: FastifyRequest, reply: FastifyReply, page: RenderedPage, status: number) {
  reply.status(status).header('content-type', 'text/html; charset=utf-8').header('vary', 'accept-encoding');
  if (status === 200 && sendNotModifiedIfFresh(req, reply, page.etag)) return reply;
  if (acceptsGzip(req)) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.html);
}

function sendNotFoundPage(req: FastifyRequest, reply: FastifyReply) {
  notFoundPage ??= packPage(renderNotFoundPage());
  reply.header('cache-control', 'no-store').header('content-security-policy', plainPageCsp());
  return sendPage(req, reply, notFoundPage, 404);
}

/** A view counts unless it is a bot, the owner, a preview or a HEAD request. */
function countsAsView(req: FastifyRequest, entry: CachedPublicProfile, preview: boolean): boolean {
  if (req.method !== 'GET' || preview) return false;
  if (req.user && req.user.id === entry.userId) return false;
  return !isBot(req.headers['user-agent']);
}

/**
 * Where a view came from (a card batch's code, a shared link, or direct). Engagement owns card
 * codes and builds on profiles, so the composition root (routes.ts) passes its resolver in.
 */
export type VisitOriginResolver = (
  ctx: AppContext,
  req: Pick<FastifyRequest, 'query' | 'headers' | 'hostname'>,
  profileId: string,
) => VisitOrigin | Promise<VisitOrigin>;

type VisitOrigin = { source: VisitSource; cardCode: string | null };

/**
 * Counts a page event. Engagement owns the counting (a buffered writer, `engagement/visit-flusher.ts`)
 * and builds on profiles, so the composition root (routes.ts) passes it in.
 */
export type PageEventRecorder = (ctx: AppContext, event: PageEvent) => void;

interface PublicProfileOptions {
  visitOrigin: VisitOriginResolver;
  recordEvent: PageEventRecorder;
}

/**
 * User agents seen lately, each with its device: a visit keeps the shared copy (not its request's
 * own string, which then dies young instead of living in the buffer until the next flush), and the
 * device is worked out once per user agent. Bounded: emptied when full.
 */
const knownAgents = new Map<string, { ua: string; device: ReturnType<typeof deviceOf> }>();
const KNOWN_AGENTS_MAX = 2000;
function agentOf(header: unknown): { ua: string; device: ReturnType<typeof deviceOf> } {
  const raw = typeof header === 'string' ? header : String(header ?? '');
  let known = knownAgents.get(raw);
  if (!known) {
    if (knownAgents.size >= KNOWN_AGENTS_MAX) knownAgents.clear();
    known = { ua: raw, device: deviceOf(raw) };
    if (raw.length <= 512) knownAgents.set(raw, known);
  }
  return known;
}

const DIRECT: VisitOrigin = { source: 'direct', cardCode: null };

/**
 * Counts a view. Synchronous unless the origin needs a lookup (a card batch's code): the fast lane's
 * pages (no query string) never wait or make a promise for it.
 */
function recordVisit(ctx: AppContext, req: Pick<FastifyRequest, 'query' | 'headers' | 'hostname'>, entry: CachedPublicProfile, { visitOrigin, recordEvent }: PublicProfileOptions): void | Promise<void> {
  const { ua, device } = agentOf(req.headers['user-agent']);
  const at = new Date();
  // card (a batch code's redirect), link (signature or another site) or direct: see engagement/visit-source.ts
  const record = ({ source, cardCode }: VisitOrigin) => recordEvent(ctx, { kind: 'visit', profileId: entry.profile.id, at, userAgent: ua, device, source, cardCode });
  let origin: VisitOrigin | Promise<VisitOrigin>;
  try {
    origin = visitOrigin(ctx, req, entry.profile.id);
  } catch {
    origin = DIRECT;
  }
  if (origin instanceof Promise) return origin.catch(() => DIRECT).then(record);
  record(origin);
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

export async function publicProfileRoutes(app: FastifyInstance, opts: PublicProfileOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  const lane = fastLaneOf(ctx);
  /** pages answered by Fastify that the fast lane may replay: the entry and the answer's key */
  const laneable = new WeakMap<FastifyRequest, { entry: CachedPublicProfile; key: string }>();
  if (lane) {
    lane.prefixes.push({ prefix: '/p/', route: (req, res, path, query) => laneAnswer(lane, req, res, path, query) });
    // every app-wide header is set by now (this plugin's hooks run after the app's)
    app.addHook('onSend', async (req, reply, payload) => {
      const target = laneable.get(req);
      if (target) {
        const answer = captureAnswer(req, reply, payload);
        if (answer) target.entry.rendered.set(`${target.key}:${String(reply.getHeader('content-encoding') ?? 'identity')}`, answer);
      }
      return payload;
    });
  }

  /**
   * GET /p/{id} in front of Fastify (decision 38-05): a caller without a session or a token, no
   * query, the profile cached and its page already answered once by Fastify for this origin and
   * coding. The view is counted as the route counts it (a caller without a session is never the
   * owner); anything else goes to the route.
   */
  function laneAnswer(lane: FastLane, req: IncomingMessage, res: ServerResponse, path: string, query: string): boolean {
    const id = path.slice(3);
    const host = req.headers.host;
    if (query !== '' || !ID_RE.test(id) || !host || req.headers.authorization !== undefined || SESSION_COOKIE.test(req.headers.cookie ?? '')) return false;
    const entry = peekPublicProfile(ctx, id);
    if (!entry) return false;
    const origin = ctx.publicUrl({ protocol: 'http', host });
    const answer = entry.rendered.get(`lane:page:public:${origin}:${acceptsGzip(req) ? 'gzip' : 'identity'}`) as CapturedAnswer | undefined;
    if (!answer) return false;
    replay(lane, req, res, answer);
    if (!isBot(req.headers['user-agent'])) {
      const hostname = host[0] === '[' ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0];
      void recordVisit(ctx, { query: {}, headers: req.headers, hostname }, entry, opts);
    }
    return true;
  }

  /** The page of one profile (by id or by handle): rendered once per variant, counted. */
  async function servePage(req: FastifyRequest, reply: FastifyReply, id: string, previewParam: unknown) {
    const entry = ID_RE.test(id) ? await loadPublicProfile(ctx, id) : null;
    if (!entry) return sendNotFoundPage(req, reply);
    const preview = previewParam === 'true';
    const origin = ctx.publicUrl(req);
    const variant = `page:${preview ? 'preview' : 'public'}:${origin}`;
    let page = entry.rendered.get(variant) as RenderedPage | undefined;
    if (!page) {
      page = packPage(renderProfilePage(entry.profile, { origin, preview, leadForm: entry.leadFormEnabled }));
      entry.rendered.set(variant, page);
    }
    if (countsAsView(req, entry, preview)) await recordVisit(ctx, req, entry, opts);
    // the same request class the lane takes (plain anonymous GET of /p/{id}, no query): kept for it
    if (lane && !preview && !req.user && req.routeOptions.url === '/p/:id' && !req.url.includes('?') && req.headers.authorization === undefined) {
      laneable.set(req, { entry, key: `lane:${variant}` });
    }
    reply.header('cache-control', 'no-cache').header('content-security-policy', pageCsp(preview));
    return sendPage(req, reply, page, 200);
  }

  /** The public page behind every card: server-rendered, cached, counted. */
  route(r, api.getPagePById, async (req, reply) => servePage(req, reply, req.params.id, req.query.preview));

  /**
   * The same page at the owner's handle (decision 37-04). A handle the owner left less than
   * HANDLE_REDIRECT_DAYS ago answers 302 to the current address (the handle, else /p/{id}).
   */
  route(r, api.getPageByHandle, async (req, reply) => {
    const handle = req.params.handle.toLowerCase();
    const found = HANDLE_RE.test(handle) ? await resolveHandle(ctx, handle) : null;
    if (!found) return sendNotFoundPage(req, reply);
    if (!found.current) {
      reply.header('cache-control', 'no-store');
      return reply.redirect(found.handle ? handlePath(found.handle) : publicProfilePath(found.id), 302);
    }
    return servePage(req, reply, found.id, req.query.preview);
  });

  /** Link buttons go through here: the click is counted, then the browser is sent on. */
  route(r, api.getPagePByIdGoByLinkId, async (req, reply) => {
    const { id, linkId } = req.params;
    const entry = ID_RE.test(id) && /^\d{1,10}$/.test(linkId) ? await loadPublicProfile(ctx, id) : null;
    const link = entry?.profile.links.find((l) => l.id === Number(linkId));
    if (!entry || !link) return sendNotFoundPage(req, reply);
    if (countsAsView(req, entry, false)) {
      opts.recordEvent(ctx, { kind: 'click', profileId: entry.profile.id, at: new Date(), linkId: link.id, linkType: link.linkType });
    }
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply.redirect(link.url, 302);
  });

  /** The profile as JSON (the SPA's client-side render of /p/{id}). */
  route(r, api.getPById, async (req) => {
    const id = req.params.id;
    const entry = ID_RE.test(id) ? await loadPublicProfile(ctx, id) : null;
    if (!entry) throw notFound('Profile not found');
    if (countsAsView(req, entry, req.query.preview === 'true')) await recordVisit(ctx, req, entry, opts);
    return entry.profile;
  });

  /** The contact file (vCard 3.0), saved as {name}.vcf. */
  route(r, api.getVcardByProfileId, async (req, reply) => {
    const id = req.params.profileId;
    const entry = ID_RE.test(id) ? await loadPublicProfile(ctx, id) : null;
    if (!entry) throw notFound('Profile not found');
    const origin = ctx.publicUrl(req);
    const variant = `vcard:${origin}`;
    let card = entry.rendered.get(variant) as string | undefined;
    if (!card) {
      const profileUrl = publicProfileUrl(origin, entry.profile.id);
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
      opts.recordEvent(ctx, { kind: 'save', profileId: entry.profile.id, at: new Date() });
    }
    return reply
      .header('content-type', 'text/vcard; charset=utf-8')
      .header('content-disposition', vcardDisposition(entry.profile.fullName))
      .header('cache-control', 'no-cache')
      .send(card);
  });
}
