import { orderBatchQrText } from '#server/features/engagement/public-api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/templates';
import { TEMPLATE_FOLDERS, type TemplateSide } from '#shared/templates/builtin';
import { type GeneratedCard, type GeneratedSide } from '#shared/schemas/templates';
import type { ZodTypeProvider } from '#server/http/validation';
import { transliterate } from '#server/http/download-name';
import { notFound } from '#server/http/http-errors';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { fontBytes } from '#server/infra/fonts';
import { SANDBOX_CSP } from '#server/plugins/security';
import { cardLookOf } from '#server/features/designs/reads';
import { orderCardFacts } from '#server/features/orders/reads';
import { profileIdOfEither, profileOfUser } from '#server/features/profile/reads';
import { proofSheet } from './card-render';
import { assertFilesOwned } from '#server/infra/file-ownership';
import { cardInputForUser, lookInputOf, profileUrl } from './card-input';
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
  sampleQrUrl,
  saveSvgFiles,
  templatePreviewSvg,
  templateSide,
  templateThumbnail,
  templateVersions,
} from './templates.service';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, no-cache';

/** A file name from a card holder's name (a validated short field, not upload text). */
function slug(s: string) {
  return (
    transliterate(s) // Łukasz -> lukasz, not ukasz (issue 36)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-') // bounded: a validated name field
      .replace(/^-+|-+$/g, '') // bounded: a validated name field
      .slice(0, 60) || 'card'
  );
}

function sendSvg(reply: FastifyReply, svg: string) {
  reply.header('content-security-policy', SANDBOX_CSP);
  return reply.type('image/svg+xml; charset=utf-8').send(svg);
}

/** Templates: list, SVG files, thumbnails, previews, filling, card generation, the manager's save. */
export async function templatesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = (req: FastifyRequest) => app.ctx.publicUrl(req);
  const sampleQr = (_req: FastifyRequest) => sampleQrUrl(app.ctx);

  route(r, api.getTemplates, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return listTemplates(app.ctx);
  });

  route(r, api.getSvgTemplates, async (req, reply) => {
    reply.header('cache-control', 'no-cache');
    return listSvgTemplates(app.ctx, { withNotes: req.user?.role === 'admin' });
  });

  route(r, api.getTemplateThumbnailByIdBySide, async (req, reply) => {
      const thumb = await templateThumbnail(app.ctx, req.params.id, req.params.side, sampleQr(req));
      reply.header('cache-control', req.query.v && req.query.v === String(thumb.version) ? IMMUTABLE : REVALIDATE);
      if (sendNotModifiedIfFresh(req, reply, thumb.etag)) return reply;
      return reply.type(thumb.type).send(thumb.body);
    });

  route(r, api.getTemplatePreviewByIdBySide, async (req, reply) => {
      const { svg, version } = await templatePreviewSvg(app.ctx, req.params.id, req.params.side, sampleQr(req));
      reply.header('etag', `"p${req.params.id}-${req.params.side}-v${version}"`);
      reply.header('cache-control', REVALIDATE);
      return sendSvg(reply, svg);
    });

  route(r, api.postTemplateCustomizeByIdBySide, async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `template-customize:ip:${clientKey(req)}`, 240, 60);
      const t = await getTemplate(app.ctx, { id: req.params.id });
      // the QR code is the caller's own public profile when signed in with one; otherwise the placeholder
      let qrUrl: string | null = null;
      if (req.user) {
        const p = await profileOfUser(app.ctx.db, req.user.id);
        if (p) qrUrl = profileUrl(base(req), p.id);
      }
      const { logoUrl, ...data } = req.body;
      // a logo must be the caller's own upload (issue 19)
      await assertFilesOwned(app.ctx.db, { userId: req.user?.id ?? null }, { logoUrl });
      const filled = await cardSvg(app.ctx, t, req.params.side, { data, qrUrl, logoUrl }, false);
      reply.header('cache-control', 'no-store');
      if (filled.truncated.length) reply.header('x-card-truncated', filled.truncated.join(','));
      return sendSvg(reply, filled.svg);
    });

  route(r, api.postGenerateCard, async (req) => {
    const user = req.user!;
    await enforceRateLimit(app.ctx.rateLimiter, `generate-card:user:${user.id}`, 60, 60);
    const input = await cardInputForUser(app.ctx, user, base(req));
    let templateId = req.body.templateId;
    if (templateId === undefined) {
      const p = await profileOfUser(app.ctx.db, user.id);
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

  route(r, api.postAdminGenerateCard, async (req, reply) => {
    const { customerData, templateId, orderId } = req.body;
    const t = await getTemplate(app.ctx, { id: templateId });
    // the QR code: the public profile of the order's card or customer, when there is one
    let qrUrl: string | null = null;
    // the order's card type gives the metal; a designed card adds the customer's choices (issue 20)
    let look: CardLook | null = null;
    if (orderId !== undefined) {
      const o = await orderCardFacts(app.ctx.db, orderId);
      if (!o) throw notFound('Order not found');
      const c = o.cardId ? await cardLookOf(app.ctx.db, o.cardId) : undefined;
      look = { ...(lookInputOf(c?.customizations) ?? {}), cardType: o.cardType as CardLook['cardType'] };
      const profileId = await profileIdOfEither(app.ctx.db, { profileId: c?.profileId ?? null, userId: o.userId });
      if (profileId) qrUrl = profileUrl(base(req), profileId);
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

  route(r, api.postSvgFiles, { bodyLimit: 3 * 1024 * 1024 }, async (req) => {
      const saved = await saveSvgFiles(app.ctx, req.body, req.user!.id);
      return {
        message: 'SVG files written',
        template: { id: saved.id, folder: saved.folder, version: saved.version, updatedAt: saved.updatedAt.toISOString(), notes: saved.notes },
      };
    });

  // the manager's preview before saving: the same checks, sample data, nothing written (issue 20)
  route(r, api.postSvgFilesPreview, { bodyLimit: 3 * 1024 * 1024 }, async (req) => {
      await enforceRateLimit(app.ctx.rateLimiter, `svg-preview:user:${req.user!.id}`, 60, 600, 'Too many previews. Please wait a moment.');
      return previewSvgFiles(app.ctx, req.body);
    });

  route(r, api.getSvgFilesByTemplateIdVersions, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return templateVersions(app.ctx, req.params.templateId);
  });

  route(r, api.postSvgFilesByTemplateIdRollback, async (req) => {
      const saved = await rollbackTemplate(app.ctx, req.params.templateId, req.body.version, req.user!.id);
      return {
        message: `Version ${req.body.version} is live again as version ${saved.version}`,
        template: { id: saved.id, folder: saved.folder, version: saved.version, updatedAt: saved.updatedAt.toISOString(), notes: saved.notes },
      };
    });

  // The template files themselves, served from the database (a manager's save shows at once).
  route(r, api.getPageTemplatesSvgByFolderByFile, async (req, reply) => {
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
  route(r, api.getPageFontsByFile, async (req, reply) => {
    const bytes = fontBytes(req.params.file);
    if (!bytes) throw notFound('Not found');
    reply.header('cache-control', 'public, max-age=31536000');
    reply.header('access-control-allow-origin', '*');
    return reply.type('font/ttf').send(bytes);
  });
}
