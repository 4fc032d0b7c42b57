import { and, desc, eq } from 'drizzle-orm';
import { SAMPLE_CARD } from '#shared/templates/fields';
import type { TemplateVersionInfo } from '#shared/schemas/templates';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { templates, templateVersions, users } from '#server/db/schema/index';
import { badRequest } from '#server/http/http-errors';
import { renderFilledCard } from './card-render';

type TemplateRow = typeof templates.$inferSelect;
type Side = 'front' | 'back';

/** What a template side shows: its fields (`data-field`), slots (`data-slot`: qr, logo) and `{{tokens}}`. */
export function fieldsOf(svg: string | null | undefined): Set<string> {
  const out = new Set<string>();
  if (!svg) return out;
  for (const m of svg.matchAll(/\bdata-(field|slot)\s*=\s*["']([A-Za-z]+)["']/g)) out.add(m[1] === 'slot' ? `${m[2]} code` : m[2]);
  for (const m of svg.matchAll(/\{\{\s*([A-Za-z]+)\s*\}\}/g)) out.add(m[1]);
  return out;
}

const sideOf = (t: Pick<TemplateRow, 'frontSvg' | 'backSvg'>, side: Side) => (side === 'front' ? t.frontSvg : t.backSvg);

/**
 * A replacement goes live for every customer at once, so it must (issue 20): keep every field the
 * current version of that side shows (a 10x10 rectangle is refused), and render with sample data
 * (on the worker pool). Answers the rendered sample sides (PNG) for the manager's preview.
 */
export async function checkReplacement(
  ctx: AppContext,
  current: TemplateRow,
  clean: { frontSvg?: string; backSvg?: string },
  sampleQrUrl = `${ctx.publicUrl()}/templates`,
): Promise<{ front: Buffer; back: Buffer }> {
  const next = { frontSvg: clean.frontSvg ?? current.frontSvg, backSvg: clean.backSvg ?? current.backSvg };
  for (const side of ['front', 'back'] as const) {
    const replaced = side === 'front' ? clean.frontSvg : clean.backSvg;
    if (replaced === undefined) continue;
    const have = fieldsOf(replaced);
    const missing = [...fieldsOf(sideOf(current, side))].filter((f) => !have.has(f));
    if (missing.length) {
      const msg = `The new ${side} is missing the template's fields: ${missing.join(', ')}`;
      throw badRequest(msg, { [`updates.${side}`]: msg });
    }
  }
  if (!next.frontSvg || !next.backSvg) throw badRequest('Missing SVG file(s)', { updates: 'Choose a front and a back SVG file' });
  try {
    const out = await renderFilledCard({ front: next.frontSvg, back: next.backSvg, data: SAMPLE_CARD, qrUrl: sampleQrUrl, logoHref: null, render: { format: 'png', width: 700 } });
    return { front: out.front, back: out.back };
  } catch {
    const msg = 'This file does not render with sample data. Please check it in an SVG editor.';
    const fields: Record<string, string> = {};
    if (clean.frontSvg !== undefined) fields['updates.front'] = msg;
    if (clean.backSvg !== undefined) fields['updates.back'] = msg;
    throw badRequest(msg, fields);
  }
}

/** Keeps the template's current files as its version row (same transaction as the change). */
export async function recordVersion(tx: Db | Tx, t: TemplateRow, userId: string | null): Promise<void> {
  await tx
    .insert(templateVersions)
    .values({ templateId: t.id, version: t.version, frontSvg: t.frontSvg, backSvg: t.backSvg, notes: t.notes, createdBy: userId })
    .onConflictDoNothing();
}

/** Every kept version of a template, newest first, with who made it. */
export async function listVersions(ctx: AppContext, templateId: number, currentVersion: number): Promise<TemplateVersionInfo[]> {
  const rows = await ctx.db
    .select({ v: templateVersions, by: { username: users.username, email: users.email } })
    .from(templateVersions)
    .leftJoin(users, eq(users.id, templateVersions.createdBy))
    .where(eq(templateVersions.templateId, templateId))
    .orderBy(desc(templateVersions.version))
    .limit(200);
  return rows.map(({ v, by }) => ({
    version: v.version,
    notes: v.notes,
    createdAt: v.createdAt.toISOString(),
    createdBy: by?.username ?? null,
    current: v.version === currentVersion,
    fields: [...fieldsOf(v.frontSvg), ...fieldsOf(v.backSvg)].filter((f, i, a) => a.indexOf(f) === i),
  }));
}

/** One kept version of a template, or null. */
export async function findVersion(ctx: AppContext, templateId: number, version: number) {
  const [row] = await ctx.db
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.templateId, templateId), eq(templateVersions.version, version)))
    .limit(1);
  return row ?? null;
}
