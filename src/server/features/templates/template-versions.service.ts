import { and, desc, eq } from 'drizzle-orm';
import { SAMPLE_CARD } from '#shared/templates/fields';
import type { TemplateVersionInfo } from '#shared/schemas/templates';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { templates, templateVersions } from '#server/db/schema/templates';
import { badRequest, HttpError } from '#server/http/http-errors';
import { renderFilledCard } from './card-render';

type TemplateRow = typeof templates.$inferSelect;
type Side = 'front' | 'back';

const isSpace = (c: string | undefined) => c !== undefined && c.trim() === '' && c !== '';
const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isWordChar = (c: string | undefined) => c !== undefined && (isLetter(c) || (c >= '0' && c <= '9') || c === '_');

/**
 * What a template side shows: its fields (`data-field="x"`), slots (`data-slot="x"`: qr, logo) and
 * `{{tokens}}`. A template's SVG is an upload (a manager's file) and this runs on the request thread,
 * so it is a linear scan and no regular expression (issue 32): each search starts at a `data-` or
 * `{{` found by `indexOf` and reads spaces and letters only, which hold no further start.
 */
export function fieldsOf(svg: string | null | undefined): Set<string> {
  const out = new Set<string>();
  if (!svg) return out;
  const spaces = (i: number) => {
    while (isSpace(svg[i])) i++;
    return i;
  };
  const letters = (i: number) => {
    while (isLetter(svg[i])) i++;
    return i;
  };
  const quote = (c: string | undefined) => c === '"' || c === "'";
  for (let at = svg.indexOf('data-'); at >= 0; at = svg.indexOf('data-', at + 1)) {
    if (isWordChar(svg[at - 1])) continue;
    const kind = svg.startsWith('field', at + 5) ? 'field' : svg.startsWith('slot', at + 5) ? 'slot' : null;
    if (!kind) continue;
    let i = spaces(at + 5 + kind.length);
    if (svg[i] !== '=') continue;
    i = spaces(i + 1);
    if (!quote(svg[i])) continue;
    const end = letters(i + 1);
    if (end === i + 1 || !quote(svg[end])) continue;
    const name = svg.slice(i + 1, end);
    out.add(kind === 'slot' ? `${name} code` : name);
  }
  for (let at = svg.indexOf('{{'); at >= 0; at = svg.indexOf('{{', at + 1)) {
    const start = spaces(at + 2);
    const end = letters(start);
    if (end === start) continue;
    const close = spaces(end);
    if (svg.startsWith('}}', close)) {
      out.add(svg.slice(start, end));
      at = close + 1;
    }
  }
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
    const out = await renderFilledCard({ front: next.frontSvg, back: next.backSvg, data: SAMPLE_CARD, qrUrl: sampleQrUrl, logoHref: null, render: { format: 'png', width: 700 } }, { candidate: true });
    return { front: out.front, back: out.back };
  } catch (e) {
    // busy (503) or this client's heavy tasks in flight (429): say so, it is not the file's fault
    if (e instanceof HttpError && (e.statusCode === 503 || e.statusCode === 429)) throw e;
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
