import { orderBatchQrText } from '#server/features/engagement/public-api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, or } from 'drizzle-orm';
import { TEMPLATE_FOLDERS, type TemplateSide } from '#shared/templates/builtin';
import {
  AdminCardGenerateBody,
  AdminCardGenerateResponse,
  CardGenerateBody,
  CardGenerateResponse,
  DesignSubmitBody,
  DesignSubmitResponse,
  FontFileGetParams,
  FontFileGetResponse,
  SvgFileGetParams,
  SvgFileGetResponse,
  SvgFilesPreviewBody,
  SvgFilesPreviewResponse,
  SvgFilesSaveBody,
  SvgFilesSaveResponse,
  TemplateRollbackBody,
  TemplateVersionsParams,
  TemplateVersionsResponse,
  SvgTemplateListResponse,
  TemplateCustomizeBody,
  TemplateListResponse,
  TemplateSideParams,
  TemplateSvgResponse,
  TemplateThumbnailResponse,
  TemplateVersionQuery,
  type GeneratedCard,
  type GeneratedSide,
} from '#shared/schemas/templates';
import type { ZodTypeProvider } from '#server/http/validation';
import { notFound } from '#server/http/http-errors';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { fontBytes } from '#server/infra/fonts';
import { SANDBOX_CSP } from '#server/plugins/security';
import { cards, orders, profiles } from '#server/db/schema/index';
import { proofSheet } from './card-render';
import { assertFilesOwned } from '#server/features/uploads/public-api';
import { cardInputForUser, lookInputOf, profileUrl, submitForReview } from './design.service';
import type { CardLook } from '#shared/templates/look';
import { sendNotModifiedIfFresh } from '#server/http/etag';
import {
  cardSvg,
  getTemplate,
  listSvgTemplates,
  listTemplates,
  previewSvgFiles,
  renderCard,
  rollbackTemplate,
  saveSvgFiles,
  templatePreviewSvg,
  templateSide,
  templateThumbnail,
  templateVersions,
} from './templates.service';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, no-cache';

function slug(s: string) {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'card'
  );
}

function sendSvg(reply: FastifyReply, svg: string) {
  reply.header('content-security-policy', SANDBOX_CSP);
  return reply.type('image/svg+xml; charset=utf-8').send(svg);
}

/** Templates: list, SVG files, thumbnails, previews, filling, card generation, the manager's save, design submission. */
export async function templatesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = (req: FastifyRequest) => app.ctx.publicUrl(req);
  /**
   * What the sample QR on thumbnails and previews opens: this site's template gallery. Built from
   * the configured origin, never the request's Host header (a new Host must not force a new render).
   */
  const sampleQr = (_req: FastifyRequest) => `${app.ctx.publicUrl()}/templates`;

  r.get('/api/templates', { config: { access: 'public' }, schema: { response: { 200: TemplateListResponse } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return listTemplates(app.ctx);
  });

  r.get('/api/svg-templates', { config: { access: 'public' }, schema: { response: { 200: SvgTemplateListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-cache');
    return listSvgTemplates(app.ctx, { withNotes: req.user?.role === 'admin' });
  });

  r.get(
    '/api/template-thumbnail/:id/:side',
    { config: { access: 'public' }, schema: { params: TemplateSideParams, querystring: TemplateVersionQuery, response: TemplateThumbnailResponse } },
    async (req, reply) => {
      const thumb = await templateThumbnail(app.ctx, req.params.id, req.params.side, sampleQr(req));
      reply.header('cache-control', req.query.v && req.query.v === String(thumb.version) ? IMMUTABLE : REVALIDATE);
      if (sendNotModifiedIfFresh(req, reply, thumb.etag)) return reply;
      return reply.type(thumb.type).send(thumb.body);
    },
  );

  r.get(
    '/api/template-preview/:id/:side',
    { config: { access: 'public' }, schema: { params: TemplateSideParams, querystring: TemplateVersionQuery, response: { 200: TemplateSvgResponse } } },
    async (req, reply) => {
      const { svg, version } = await templatePreviewSvg(app.ctx, req.params.id, req.params.side, sampleQr(req));
      reply.header('etag', `"p${req.params.id}-${req.params.side}-v${version}"`);
      reply.header('cache-control', REVALIDATE);
      return sendSvg(reply, svg);
    },
  );

  r.post(
    '/api/template-customize/:id/:side',
    { config: { access: 'public' }, schema: { params: TemplateSideParams, body: TemplateCustomizeBody, response: { 200: TemplateSvgResponse } } },
    async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `template-customize:ip:${req.ip}`, 240, 60);
      const t = await getTemplate(app.ctx, { id: req.params.id });
      // the QR code is the caller's own public profile when signed in with one; otherwise the placeholder
      let qrUrl: string | null = null;
      if (req.user) {
        const [p] = await app.ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, req.user.id)).limit(1);
        if (p) qrUrl = profileUrl(base(req), p.id);
      }
      const { logoUrl, ...data } = req.body;
      // a logo must be the caller's own upload (issue 19)
      await assertFilesOwned(app.ctx.db, { userId: req.user?.id ?? null }, { logoUrl });
      const filled = await cardSvg(app.ctx, t, req.params.side, { data, qrUrl, logoUrl }, false);
      reply.header('cache-control', 'no-store');
      if (filled.truncated.length) reply.header('x-card-truncated', filled.truncated.join(','));
      return sendSvg(reply, filled.svg);
    },
  );

  r.post('/api/generate-card', { config: { access: 'user' }, schema: { body: CardGenerateBody, response: { 200: CardGenerateResponse } } }, async (req) => {
    const user = req.user!;
    await enforceRateLimit(app.ctx.rateLimiter, `generate-card:user:${user.id}`, 60, 60);
    const input = await cardInputForUser(app.ctx, user, base(req));
    let templateId = req.body.templateId;
    if (templateId === undefined) {
      const [p] = await app.ctx.db.select({ templateId: profiles.templateId }).from(profiles).where(eq(profiles.userId, user.id)).limit(1);
      templateId = p?.templateId ?? 17;
    }
    const t = await getTemplate(app.ctx, { id: templateId });
    const name = slug(input.data.fullName ?? 'business-card');
    if (req.body.format === 'svg') {
      const [front, back] = await Promise.all([cardSvg(app.ctx, t, 'front', input, true), cardSvg(app.ctx, t, 'back', input, true)]);
      const side = (svg: string, s: TemplateSide): GeneratedSide => ({ mimeType: 'image/svg+xml', data: Buffer.from(svg).toString('base64'), filename: `${name}-${s}.svg` });
      return { front: side(front.svg, 'front'), back: side(back.svg, 'back') } satisfies GeneratedCard;
    }
    const fmt = req.body.format;
    const ext = fmt === 'png' ? 'png' : 'jpg';
    const out = await renderCard(app.ctx, t, input, fmt);
    const side = (buf: Buffer, s: TemplateSide): GeneratedSide => ({ mimeType: `image/${fmt}`, data: buf.toString('base64'), filename: `${name}-${s}.${ext}` });
    return { front: side(out.front, 'front'), back: side(out.back, 'back') } satisfies GeneratedCard;
  });

  r.post('/api/admin/generate-card', { config: { access: 'admin' }, schema: { body: AdminCardGenerateBody, response: { 200: AdminCardGenerateResponse } } }, async (req, reply) => {
    const { customerData, templateId, orderId } = req.body;
    const t = await getTemplate(app.ctx, { id: templateId });
    // the QR code: the public profile of the order's card or customer, when there is one
    let qrUrl: string | null = null;
    // the order's card type gives the metal; a designed card adds the customer's choices (issue 20)
    let look: CardLook | null = null;
    if (orderId !== undefined) {
      const [o] = await app.ctx.db.select({ id: orders.id, userId: orders.userId, cardId: orders.cardId, cardType: orders.cardType }).from(orders).where(eq(orders.id, orderId)).limit(1);
      if (!o) throw notFound('Order not found');
      const [c] = o.cardId ? await app.ctx.db.select({ profileId: cards.profileId, customizations: cards.customizations }).from(cards).where(eq(cards.id, o.cardId)).limit(1) : [];
      look = { ...(lookInputOf(c?.customizations) ?? {}), cardType: o.cardType as CardLook['cardType'] };
      const [p] =
        c?.profileId || o.userId
          ? await app.ctx.db
              .select({ id: profiles.id })
              .from(profiles)
              .where(or(c?.profileId ? eq(profiles.id, c.profileId) : undefined, o.userId ? eq(profiles.userId, o.userId) : undefined))
              .limit(1)
          : [];
      if (p) qrUrl = profileUrl(base(req), p.id);
      // a card batch with its own short code prints that code (compact, can be turned off if lost)
      const batch = await orderBatchQrText(app.ctx, orderId, base(req));
      if (batch) qrUrl = batch;
    }
    const { logoUrl, ...data } = customerData;
    const out = await renderCard(app.ctx, t, { data: { ...data, look }, qrUrl, logoUrl }, 'jpeg');
    const sheet = await proofSheet(out.front, out.back);
    const filename = `business-card-${slug(customerData.fullName)}-${orderId ?? 'preview'}.jpg`;
    reply.header('content-disposition', `attachment; filename="${filename}"`);
    reply.header('cache-control', 'no-store');
    return reply.type('image/jpeg').send(sheet);
  });

  r.post(
    '/api/svg-files',
    { config: { access: 'admin' }, bodyLimit: 3 * 1024 * 1024, schema: { body: SvgFilesSaveBody, response: { 200: SvgFilesSaveResponse } } },
    async (req) => {
      const saved = await saveSvgFiles(app.ctx, req.body, req.user!.id);
      return {
        message: 'SVG files written',
        template: { id: saved.id, folder: saved.folder, version: saved.version, updatedAt: saved.updatedAt.toISOString(), notes: saved.notes },
      };
    },
  );

  // the manager's preview before saving: the same checks, sample data, nothing written (issue 20)
  r.post(
    '/api/svg-files/preview',
    { config: { access: 'admin' }, bodyLimit: 3 * 1024 * 1024, schema: { body: SvgFilesPreviewBody, response: { 200: SvgFilesPreviewResponse } } },
    async (req) => {
      await enforceRateLimit(app.ctx.rateLimiter, `svg-preview:user:${req.user!.id}`, 60, 600, 'Too many previews. Please wait a moment.');
      return previewSvgFiles(app.ctx, req.body);
    },
  );

  r.get('/api/svg-files/:templateId/versions', { config: { access: 'admin' }, schema: { params: TemplateVersionsParams, response: { 200: TemplateVersionsResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return templateVersions(app.ctx, req.params.templateId);
  });

  r.post(
    '/api/svg-files/:templateId/rollback',
    { config: { access: 'admin' }, schema: { params: TemplateVersionsParams, body: TemplateRollbackBody, response: { 200: SvgFilesSaveResponse } } },
    async (req) => {
      const saved = await rollbackTemplate(app.ctx, req.params.templateId, req.body.version, req.user!.id);
      return {
        message: `Version ${req.body.version} is live again as version ${saved.version}`,
        template: { id: saved.id, folder: saved.folder, version: saved.version, updatedAt: saved.updatedAt.toISOString(), notes: saved.notes },
      };
    },
  );

  // The template files themselves, served from the database (a manager's save shows at once).
  r.get('/templates/svg/:folder/:file', { config: { access: 'public' }, schema: { params: SvgFileGetParams, querystring: TemplateVersionQuery, response: SvgFileGetResponse } }, async (req, reply) => {
    const { folder, file } = req.params;
    const side = file === 'front.svg' ? 'front' : file === 'back.svg' ? 'back' : null;
    if (!side || !(TEMPLATE_FOLDERS as readonly string[]).includes(folder)) throw notFound('Not found');
    const t = await getTemplate(app.ctx, { folder });
    const svg = templateSide(t, side);
    const etag = `"${t.folder}-${side}-v${t.version}"`;
    reply.header('cache-control', req.query.v && req.query.v === String(t.version) ? IMMUTABLE : REVALIDATE);
    if (sendNotModifiedIfFresh(req, reply, etag)) return reply;
    return sendSvg(reply, svg);
  });

  // Bundled TTF fonts (font samples and card previews on web pages).
  r.get('/fonts/:file', { config: { access: 'public' }, schema: { params: FontFileGetParams, response: { 200: FontFileGetResponse } } }, async (req, reply) => {
    const bytes = fontBytes(req.params.file);
    if (!bytes) throw notFound('Not found');
    reply.header('cache-control', 'public, max-age=31536000');
    reply.header('access-control-allow-origin', '*');
    return reply.type('font/ttf').send(bytes);
  });

  r.post('/api/cards/submit-for-review', { config: { access: 'user' }, schema: { body: DesignSubmitBody, response: { 200: DesignSubmitResponse, 201: DesignSubmitResponse } } }, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `submit-design:user:${req.user!.id}`, 20, 3600, 'Too many designs submitted. Please try again later.');
    const headerKey = req.headers['idempotency-key'];
    const body = typeof headerKey === 'string' && !req.body.clientToken ? { ...req.body, clientToken: headerKey } : req.body;
    const { result, created } = await submitForReview(app.ctx, req.user!, body, base(req));
    return reply.status(created ? 201 : 200).send(result);
  });
}
