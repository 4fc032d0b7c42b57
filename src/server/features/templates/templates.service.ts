import crypto from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { BUILTIN_TEMPLATES, templateSvgUrl, templateThumbnailUrl, type TemplateSide } from '#shared/templates/builtin';
import { fillTemplateDetailed } from '#shared/templates/fill';
import { SAMPLE_CARD, type CardData } from '#shared/templates/fields';
import { DEFAULT_CARD_TYPE } from '#shared/catalogue';
import type { SvgTemplate, TemplateSummary } from '#shared/schemas/templates';
import type { AppContext } from '#server/context';
import { templates } from '#server/db/schema/templates';
import { HttpError, badRequest, notFound } from '#server/http/http-errors';
import { keyFromFileUrl } from '#server/infra/files';
import { cardLogoPngFor } from '#server/features/uploads/public-api';
import { sanitizeSvgOffThread } from '#server/infra/images/images';
import { SvgRejectedError, SVG_MAX_BYTES } from '#server/infra/svg/svg-sanitize';
import { MAX_RENDER_WIDTH, renderFilledCard, renderSvg, type RasterFormat } from './card-render';
import { checkReplacement, fieldsOf, findVersion, listVersions, recordVersion } from './template-versions.service';

export type TemplateRow = typeof templates.$inferSelect;

/**
 * Templates live in the database (seeded with the four built-in designs); the manager's saves
 * bump `version`, and every cache here is keyed by version, so a save shows everywhere at once
 * (also across instances: the version is read from the database on each use).
 */

interface Caches {
  rows: Map<number, TemplateRow>;
  thumbs: Map<string, { body: Buffer; etag: string; type: string }>;
  logos: Map<string, string | null>;
}
const cachesByCtx = new WeakMap<AppContext, Caches>();
function caches(ctx: AppContext): Caches {
  let c = cachesByCtx.get(ctx);
  if (!c) {
    c = { rows: new Map(), thumbs: new Map(), logos: new Map() };
    cachesByCtx.set(ctx, c);
  }
  return c;
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V, max = 200) {
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

// ------------------------------------------------------------------------------------------
// seed
// ------------------------------------------------------------------------------------------

/** Inserts the four built-in templates when missing (never overwrites an admin's replacement). */
export async function seedTemplates(ctx: AppContext): Promise<void> {
  await ctx.db
    .insert(templates)
    .values(
      BUILTIN_TEMPLATES.map((t) => ({
        id: t.id,
        name: t.name,
        description: t.description,
        category: t.category,
        folder: t.folder,
        isActive: true,
        frontSvg: t.front,
        backSvg: t.back,
      })),
    )
    .onConflictDoNothing();
}

// ------------------------------------------------------------------------------------------
// reading
// ------------------------------------------------------------------------------------------

const light = {
  id: templates.id,
  name: templates.name,
  description: templates.description,
  category: templates.category,
  folder: templates.folder,
  isActive: templates.isActive,
  version: templates.version,
  updatedAt: templates.updatedAt,
};
type LightRow = { [K in keyof typeof light]: TemplateRow[K] };

export function toSummary(t: LightRow): TemplateSummary {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    category: t.category,
    isActive: t.isActive,
    folder: t.folder,
    version: t.version,
    updatedAt: t.updatedAt.toISOString(),
    // issue 37: shown on the metal it is made in (the spec's inverted 15 and 16 showed white cards)
    invertThumbnail: false,
    thumbnailFront: templateThumbnailUrl(t.id, 'front', t.version),
    thumbnailBack: templateThumbnailUrl(t.id, 'back', t.version),
  };
}

export async function listTemplates(ctx: AppContext): Promise<TemplateSummary[]> {
  const rows = await ctx.db.select(light).from(templates).orderBy(asc(templates.id));
  return rows.map(toSummary);
}

export async function listSvgTemplates(ctx: AppContext, opts: { withNotes: boolean }): Promise<SvgTemplate[]> {
  const rows = await ctx.db.select().from(templates).orderBy(asc(templates.id));
  return rows.map((t) => ({
    ...toSummary(t),
    front: t.frontSvg,
    back: t.backSvg,
    frontUrl: templateSvgUrl(t.folder, 'front', t.version),
    backUrl: templateSvgUrl(t.folder, 'back', t.version),
    ...(opts.withNotes ? { notes: t.notes } : {}),
  }));
}

async function versionOf(ctx: AppContext, where: { id: number } | { folder: string }) {
  const [row] = await ctx.db
    .select({ id: templates.id, version: templates.version })
    .from(templates)
    .where('id' in where ? eq(templates.id, where.id) : eq(templates.folder, where.folder))
    .limit(1);
  return row ?? null;
}

/** The full template (both SVGs), from memory when its version is unchanged. 404 when unknown. */
export async function getTemplate(ctx: AppContext, where: { id: number } | { folder: string }): Promise<TemplateRow> {
  const v = await versionOf(ctx, where);
  if (!v) throw notFound('Template not found');
  const c = caches(ctx);
  const cached = c.rows.get(v.id);
  if (cached && cached.version === v.version) return cached;
  const [row] = await ctx.db.select().from(templates).where(eq(templates.id, v.id)).limit(1);
  if (!row) throw notFound('Template not found');
  bounded(c.rows, row.id, row);
  return row;
}

export function templateSide(t: TemplateRow, side: TemplateSide): string {
  const svg = side === 'front' ? t.frontSvg : t.backSvg;
  if (!svg) throw notFound('Missing SVG file(s)');
  return svg;
}

// ------------------------------------------------------------------------------------------
// filling and rendering
// ------------------------------------------------------------------------------------------

export interface CardRenderInput {
  data: CardData;
  /** the owner's public profile URL (the QR code); none: the template's placeholder is kept */
  qrUrl?: string | null;
  /** a stored file of this site (/files/...): embedded as a data: URI for raster output */
  logoUrl?: string | null;
}

/** A stored logo as a PNG data: URI (sized for a card), or null when it cannot be read. */
export async function logoDataUri(ctx: AppContext, url: string | null | undefined): Promise<string | null> {
  const key = keyFromFileUrl(url ?? null);
  if (!key) return null;
  const c = caches(ctx);
  if (c.logos.has(key)) return c.logos.get(key)!;
  let uri: string | null = null;
  try {
    // on the worker pool; an SVG logo uses the PNG drawn at upload (issue 18)
    const png = await cardLogoPngFor(ctx, url);
    if (png) uri = `data:image/png;base64,${png.toString('base64')}`;
  } catch {
    uri = null;
  }
  bounded(c.logos, key, uri, 100);
  return uri;
}

/** Filled SVG of one side. `embedLogo` turns the logo into a data: URI (needed for raster). */
export async function cardSvg(ctx: AppContext, t: TemplateRow, side: TemplateSide, input: CardRenderInput, embedLogo: boolean) {
  const logoHref = embedLogo ? await logoDataUri(ctx, input.logoUrl) : keyFromFileUrl(input.logoUrl ?? null) ? input.logoUrl : null;
  return fillTemplateDetailed(templateSide(t, side), input.data, { qrUrl: input.qrUrl ?? null, logoHref });
}

export async function renderCard(ctx: AppContext, t: TemplateRow, input: CardRenderInput, format: RasterFormat, width?: number) {
  // filled and rendered on the worker pool: the fill (text fitting, QR code) is CPU work too (issue 18)
  const logoHref = await logoDataUri(ctx, input.logoUrl);
  return renderFilledCard({ front: templateSide(t, 'front'), back: templateSide(t, 'back'), data: input.data, qrUrl: input.qrUrl ?? null, logoHref, render: { format, width } });
}

// ------------------------------------------------------------------------------------------
// thumbnails (raster, cached in memory, ETag)
// ------------------------------------------------------------------------------------------

export const THUMBNAIL_WIDTH = 700;
export const TEMPLATE_NOT_DRAWABLE = 'This template cannot be drawn (it is too complex or malformed). Please upload a simpler SVG.';

/**
 * Renders being made, by thumbnail key: a page of templates asks for every thumbnail at once, and a
 * second visitor (or a second tab) asking for the same one meanwhile waits for that render instead of
 * queueing another on the render lane (a cold cache once filled the lane's queue: 503 "busy").
 */
const thumbsInFlight = new WeakMap<AppContext, Map<string, Promise<{ body: Buffer; etag: string; type: string; version: number }>>>();

/**
 * What the sample QR on thumbnails and previews opens: this site's template gallery. Built from
 * the configured origin, never the request's Host header (a new Host must not force a new render).
 */
export function sampleQrUrl(ctx: AppContext): string {
  return `${ctx.publicUrl()}/templates`;
}

const thumbKey = (id: number, side: TemplateSide, version: number, qr: string) => `${id}:${side}:${version}:${qr}`;

/** The thumbnail of the template's current version when one is drawn already, else null (no render). */
export async function cachedThumbnail(ctx: AppContext, id: number, side: TemplateSide, qr = sampleQrUrl(ctx)) {
  const v = await versionOf(ctx, { id });
  const hit = v ? caches(ctx).thumbs.get(thumbKey(id, side, v.version, qr)) : undefined;
  return hit && v ? { ...hit, version: v.version } : null;
}

/** Thumbnails kept in memory at most (every side of the first 32 templates). */
const THUMBS_KEPT = 64;

/**
 * Draws every template's thumbnails once, one render at a time, in the background at start-up: the
 * first visitor of the templates page after a restart finds them ready instead of asking the render
 * lane for all of them at once (a cold page could fill its queue: 503 busy). A template that cannot
 * be drawn is left for its request to refuse. Answers how many were drawn.
 */
export async function warmTemplateThumbnails(ctx: AppContext): Promise<number> {
  const rows = await ctx.db.select({ id: templates.id }).from(templates).orderBy(asc(templates.id)).limit(THUMBS_KEPT / 2);
  let drawn = 0;
  for (const { id } of rows) {
    for (const side of ['front', 'back'] as const) {
      try {
        await templateThumbnail(ctx, id, side, sampleQrUrl(ctx));
        drawn++;
      } catch {
        // refused (422) or the app is closing: the request for it answers as it would have
      }
    }
  }
  return drawn;
}

export async function templateThumbnail(ctx: AppContext, id: number, side: TemplateSide, sampleQrUrl: string) {
  const v = await versionOf(ctx, { id });
  if (!v) throw notFound('Template not found');
  const c = caches(ctx);
  const key = thumbKey(id, side, v.version, sampleQrUrl);
  const hit = c.thumbs.get(key);
  if (hit) return { ...hit, version: v.version };
  let inFlight = thumbsInFlight.get(ctx);
  if (!inFlight) thumbsInFlight.set(ctx, (inFlight = new Map()));
  const running = inFlight.get(key);
  if (running) return running;
  const made = (async () => {
    const t = await getTemplate(ctx, { id });
    // on the metal it is made in (issue 37): the built-in designs take Standard Metal's finish
    const filled = fillTemplateDetailed(templateSide(t, side), { ...SAMPLE_CARD, look: { cardType: DEFAULT_CARD_TYPE } }, { qrUrl: sampleQrUrl });
    // a template the renderer refuses (e.g. too many nested <use>: "nodes limit reached") is the
    // template's fault, not a server fault: 422 with a clear message (issue 19)
    const body = await renderSvg(filled.svg, { format: 'jpeg', width: THUMBNAIL_WIDTH, quality: 84 }).catch((err: unknown) => {
      if (err instanceof HttpError) throw err;
      throw new HttpError(422, TEMPLATE_NOT_DRAWABLE);
    });
    const etag = `"t${id}-${side}-v${t.version}-${crypto.createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const entry = { body, etag, type: 'image/jpeg' };
    bounded(c.thumbs, key, entry, THUMBS_KEPT);
    return { ...entry, version: t.version };
  })();
  inFlight.set(key, made);
  try {
    return await made;
  } finally {
    inFlight.delete(key);
  }
}

/** The template filled with the sample person (the fallback SVG preview). */
export async function templatePreviewSvg(ctx: AppContext, id: number, side: TemplateSide, sampleQrUrl: string) {
  const t = await getTemplate(ctx, { id });
  return { svg: fillTemplateDetailed(templateSide(t, side), SAMPLE_CARD, { qrUrl: sampleQrUrl }).svg, version: t.version };
}

// ------------------------------------------------------------------------------------------
// the template manager's save
// ------------------------------------------------------------------------------------------

export interface SaveSvgFilesInput {
  templateId: number;
  folder: string;
  updates: { front?: string; back?: string };
  notes?: string;
}

/** The manager's new files, sanitized off the main thread (400/413 naming the side when refused). */
export async function sanitizeUpdates(ctx: AppContext, input: SaveSvgFilesInput): Promise<{ row: LightRow; clean: { frontSvg?: string; backSvg?: string } }> {
  const [row] = await ctx.db.select(light).from(templates).where(eq(templates.id, input.templateId)).limit(1);
  if (!row) throw notFound('Template not found');
  if (row.folder !== input.folder) {
    throw badRequest('The folder does not match this template', { folder: `Template ${row.id} lives in the folder ${row.folder}` });
  }
  const clean: { frontSvg?: string; backSvg?: string } = {};
  for (const side of ['front', 'back'] as const) {
    const svg = input.updates[side];
    if (svg === undefined) continue;
    try {
      // budgets in output pixels at the largest width a card is rendered at (decision 32-01)
      clean[side === 'front' ? 'frontSvg' : 'backSvg'] = await sanitizeSvgOffThread(svg, { maxBytes: SVG_MAX_BYTES, output: { mode: 'width', pixels: MAX_RENDER_WIDTH } });
    } catch (e) {
      if (e instanceof SvgRejectedError) {
        throw new HttpError(e.statusCode, `${side}.svg: ${e.message}`, { [`updates.${side}`]: e.message });
      }
      throw e;
    }
  }
  return { row, clean };
}

/**
 * Sanitizes, checks (it renders with sample data and keeps every field the current version has:
 * template-versions.service.ts) and stores new front/back SVGs (and notes) as a new version, kept
 * in `template_versions`. Any refused file answers 400/413 with the field named, and nothing is
 * written.
 */
export async function saveSvgFiles(ctx: AppContext, input: SaveSvgFilesInput, userId: string) {
  const { row, clean } = await sanitizeUpdates(ctx, input);
  const current = await getTemplate(ctx, { id: row.id });
  await checkReplacement(ctx, current, clean);
  return ctx.db.transaction(async (tx) => {
    // the version being replaced is kept too (a seeded template has no row yet)
    await recordVersion(tx, current, current.updatedBy);
    const [updated] = await tx
      .update(templates)
      .set({
        ...clean,
        ...(input.notes !== undefined ? { notes: input.notes.trim() || null } : {}),
        version: sql`${templates.version} + 1`,
        updatedAt: new Date(),
        updatedBy: userId,
      })
      .where(eq(templates.id, row.id))
      .returning();
    await recordVersion(tx, updated, userId);
    return updated;
  });
}

/** The manager's preview: the same checks as the save, the sides rendered with sample data; nothing written. */
export async function previewSvgFiles(ctx: AppContext, input: SaveSvgFilesInput) {
  const { row, clean } = await sanitizeUpdates(ctx, input);
  const current = await getTemplate(ctx, { id: row.id });
  const out = await checkReplacement(ctx, current, clean);
  const fields = new Set([...fieldsOf(clean.frontSvg ?? current.frontSvg), ...fieldsOf(clean.backSvg ?? current.backSvg)]);
  const png = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;
  return { front: png(out.front), back: png(out.back), fields: [...fields] };
}

/** Makes a kept version current again, as a new version (the history is never rewritten). */
export async function rollbackTemplate(ctx: AppContext, templateId: number, version: number, userId: string) {
  const current = await getTemplate(ctx, { id: templateId });
  const kept = await findVersion(ctx, templateId, version);
  if (!kept) throw notFound('Version not found');
  if (version === current.version) throw badRequest('This version is already live', { version: 'This version is already live' });
  // it went live once; it must still render today (fonts or the renderer may have changed)
  await checkReplacement(ctx, { ...current, frontSvg: null, backSvg: null }, { frontSvg: kept.frontSvg ?? undefined, backSvg: kept.backSvg ?? undefined });
  return ctx.db.transaction(async (tx) => {
    await recordVersion(tx, current, current.updatedBy);
    const [updated] = await tx
      .update(templates)
      .set({
        frontSvg: kept.frontSvg,
        backSvg: kept.backSvg,
        notes: `Rolled back to version ${version}${kept.notes ? `: ${kept.notes}` : ''}`.slice(0, 2000),
        version: sql`${templates.version} + 1`,
        updatedAt: new Date(),
        updatedBy: userId,
      })
      .where(eq(templates.id, templateId))
      .returning();
    await recordVersion(tx, updated, userId);
    return updated;
  });
}

export async function templateVersions(ctx: AppContext, templateId: number) {
  const t = await getTemplate(ctx, { id: templateId });
  const versions = await listVersions(ctx, t.id, t.version);
  // a template never edited since it was seeded: its one version is the live one
  if (!versions.some((v) => v.current)) {
    versions.unshift({
      version: t.version,
      notes: t.notes,
      createdAt: t.updatedAt.toISOString(),
      createdBy: null,
      current: true,
      fields: [...new Set([...fieldsOf(t.frontSvg), ...fieldsOf(t.backSvg)])],
    });
  }
  return { templateId: t.id, versions };
}
