import { desc, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { CARD_TYPE_IDS, CARD_TYPES, DEFAULT_CARD_TYPE, DEFAULT_TEMPLATE_ID, type CardTypeId } from '#shared/catalogue';
import { CURRENT_DESIGN_FIELDS, type AiCurrentDesign } from '#shared/schemas/ai';
import { badRequest, HttpError } from '#server/http/http-errors';
import { cardById, userCardsQuery } from '#server/features/designs/reads';
import { getProfileForUser } from '#server/features/profile/public-api';
import { getTemplate, lookInputOf } from '#server/features/templates/public-api';
import { layoutFromSvg, type TemplateLayout } from './engine/real-layout';
import { templateDisplayName } from '#shared/templates/display-name';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';
import { formatPhone } from '#shared/profile/phone';

const asCardType = (v: unknown): CardTypeId => ((CARD_TYPE_IDS as readonly string[]).includes(String(v)) ? (v as CardTypeId) : DEFAULT_CARD_TYPE);
const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 254) : '');

/**
 * A template's real layout and its customer-facing name. Unknown: 400 on `field` (the request
 * named it); for a stored design whose template has gone, the default template.
 */
export async function templateLayout(ctx: AppContext, templateId: number, field = 'currentDesign.template'): Promise<TemplateLayout> {
  try {
    const t = await getTemplate(ctx, { id: templateId });
    return layoutFromSvg({ ...t, name: templateDisplayName(t) });
  } catch (e) {
    if (!(e instanceof HttpError && e.statusCode === 404)) throw e;
    // a built-in design not (yet) seeded into this database: its own SVG is the real layout
    const b = BUILTIN_TEMPLATES.find((x) => x.id === templateId);
    if (b) return layoutFromSvg({ id: b.id, name: b.name, frontSvg: b.front, backSvg: b.back });
    throw badRequest('Choose one of the templates', { [field]: 'Choose one of the templates' });
  }
}

/**
 * GET /api/ai/current-design: what the user is designing now, so Design Feedback never asks them
 * to type it again: their latest card design (its fields, template, metal and look), else the
 * designer's choices saved on their profile, else the defaults. Only the caller's own data.
 */
export async function currentDesignOf(ctx: AppContext, userId: string): Promise<AiCurrentDesign> {
  const mine = userCardsQuery(ctx.db, userId);
  const [latest] = await ctx.db.select({ id: mine.id }).from(mine).orderBy(desc(mine.submittedAt), desc(sql`${mine.id}`)).limit(1);
  const card = latest ? await cardById(ctx.db, latest.id) : undefined;
  const profile = await getProfileForUser(ctx, userId);
  let source: AiCurrentDesign['source'] = 'none';
  let templateId = DEFAULT_TEMPLATE_ID;
  let cardType: CardTypeId = DEFAULT_CARD_TYPE;
  let accent: string | null = null;
  let font: string | null = null;
  const info = Object.fromEntries(CURRENT_DESIGN_FIELDS.map((k) => [k, ''])) as AiCurrentDesign['businessInfo'];
  if (card) {
    source = 'design';
    templateId = card.templateId;
    cardType = asCardType(card.cardType);
    const look = lookInputOf(card.customizations);
    accent = look?.accent ?? null;
    font = look?.font ?? null;
    const p = (card.customerProfile ?? {}) as Record<string, unknown>;
    Object.assign(info, {
      fullName: text(p.fullName),
      jobTitle: text(p.jobTitle),
      companyName: text(p.companyName),
      email: text(p.email),
      phone: text(p.phoneNumber ?? p.phone),
      website: text(p.website),
      address: text(p.address),
    });
  } else if (profile) {
    source = 'profile';
    templateId = profile.templateId ?? DEFAULT_TEMPLATE_ID;
    cardType = asCardType(profile.cardType);
    Object.assign(info, {
      fullName: text(profile.fullName),
      jobTitle: text(profile.jobTitle),
      companyName: text(profile.companyName),
      email: text(profile.email),
      phone: text(profile.phoneNumber ? formatPhone(profile.phoneNumber) : null),
      website: text(profile.links?.find((l) => l.linkType === 'website')?.url),
      address: text(profile.address),
    });
  }
  const layout = await templateLayout(ctx, templateId).catch(() => templateLayout(ctx, DEFAULT_TEMPLATE_ID));
  return {
    source,
    cardId: card?.id ?? null,
    orderId: card?.orderId ?? null,
    templateId: layout.id,
    templateName: layout.name,
    cardType,
    cardTypeLabel: CARD_TYPES.find((c) => c.id === cardType)!.label,
    accent,
    font,
    businessInfo: info,
    layout: {
      fields: layout.zones.map((z) => ({ field: z.field, side: z.side, x: z.x, y: z.y, maxWidth: z.maxWidth, sizePt: z.sizePt, maxLines: z.maxLines })),
      qrSide: layout.qrSide,
      qrBorder: layout.qrBorder,
    },
  };
}
