import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '#server/context';
import { cardCodes, cards, orders, profiles, teamMembers, users } from '#server/db/schema/index';
import { badRequest, conflict } from '#server/http/http-errors';
import { parseOrThrow } from '#server/http/validation';
import { saveFile } from '#server/infra/files';
import { createOrder, recordDesignEvent } from '#server/features/orders/public-api';
import { loadPublicProfile } from '#server/features/profile/public-api';
import { generateCardCode, insertTeamCardCode } from '#server/features/engagement/public-api';
import { checkedLook, getTemplate, renderCard } from '#server/features/templates/public-api';
import { TEMPLATE_IDS } from '#shared/catalogue';
import { orderStatusPath } from '#shared/routes';
import { OrderInput } from '#shared/schemas/orders';
import { cardCodeQrText } from '#shared/schemas/engagement';
import { brandOf } from '#shared/team/brand';
import type { TeamCard, TeamOrder, TeamOrderBody } from '#shared/schemas/team';
import { MANAGERS, requireRole } from './team.service';

type Body = z.output<typeof TeamOrderBody>;

/** Cards rendered at once (each render is one task on the worker pool; the pool's queue is bounded). */
const RENDER_BATCH = 4;

/**
 * POST /api/team/orders (owner or admin): one order for the chosen members, priced by the one
 * catalogue (every member's quantity together, one delivery). Each member gets their own card: the
 * team's card template filled with their branded details and their own card code in the QR. The
 * cards wait for staff review as one batch; members see theirs in their dashboard.
 */
export async function createTeamOrder(ctx: AppContext, userId: string, body: Body, baseUrl: string): Promise<{ order: TeamOrder; created: boolean }> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const key = body.clientToken ? `team:${body.clientToken}` : undefined;
  if (key) {
    const [prior] = await ctx.db.select({ id: orders.id, teamId: orders.teamId }).from(orders).where(eq(orders.idempotencyKey, key)).limit(1);
    if (prior) {
      if (prior.teamId !== m.team.id) throw conflict('This form was already submitted by someone else');
      return { order: (await teamOrderViews(ctx, m.team.id, [prior.id]))[0], created: false };
    }
  }

  // every chosen person must be a member with a profile (their card is filled from it)
  const ids = body.members.map((x) => x.userId);
  const rows = await ctx.db
    .select({ userId: teamMembers.userId, profileId: profiles.id })
    .from(teamMembers)
    .leftJoin(profiles, eq(profiles.userId, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, m.team.id), inArray(teamMembers.userId, ids)));
  const profileOf = new Map(rows.map((r) => [r.userId, r.profileId]));
  const errors: Record<string, string> = {};
  body.members.forEach((x, i) => {
    if (!profileOf.has(x.userId)) errors[`members.${i}.userId`] = 'Not a member of the team';
    else if (!profileOf.get(x.userId)) errors[`members.${i}.userId`] = 'This member has no profile yet';
  });
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0], errors);

  const brand = brandOf(m.team.brand);
  let template;
  try {
    template = await getTemplate(ctx, { id: brand.templateId ?? TEMPLATE_IDS.classic });
  } catch {
    throw badRequest('The team card template is not available', { templateId: 'Choose another card template in the Brand tab' });
  }
  if (!template.isActive) throw badRequest('The team card template is not available', { templateId: 'Choose another card template in the Brand tab' });
  const look = checkedLook(body.cardType, null);

  // each member's card, rendered before the transaction opens (CPU work on the pool)
  const plans = body.members.map((x) => ({ ...x, profileId: profileOf.get(x.userId)!, code: generateCardCode() }));
  const rendered: { front: Buffer; back: Buffer; data: Record<string, string | null> }[] = [];
  for (let i = 0; i < plans.length; i += RENDER_BATCH) {
    const batch = await Promise.all(
      plans.slice(i, i + RENDER_BATCH).map(async (p) => {
        const prof = (await loadPublicProfile(ctx, p.profileId))!.profile;
        const link = (type: string) => prof.links.find((l) => l.linkType === type)?.url ?? null;
        const data = {
          fullName: prof.fullName,
          jobTitle: prof.jobTitle,
          companyName: prof.companyName,
          email: prof.email,
          phoneNumber: prof.phoneNumber,
          address: prof.address,
          website: link('website'),
          linkedinUrl: link('linkedin'),
        };
        const r = await renderCard(ctx, template, { data: { ...data, look }, qrUrl: cardCodeQrText(baseUrl, p.code), logoUrl: prof.logoUrl }, 'jpeg');
        return { ...r, data };
      }),
    );
    rendered.push(...batch);
  }

  const [me] = await ctx.db.select({ email: users.email, firstName: users.firstName, lastName: users.lastName, username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  const quantity = plans.reduce((n, p) => n + p.quantity, 0);
  const savedKeys: string[] = [];
  try {
    const orderId = await ctx.db.transaction(async (tx) => {
      const made = await createOrder(
        ctx,
        parseOrThrow(OrderInput, {
          customerName: `${me.firstName} ${me.lastName}`.trim() || me.username,
          email: me.email,
          phone: m.team.companyPhone,
          companyName: m.team.companyName || m.team.name,
          position: null,
          address: body.address,
          quantity,
          cardType: body.cardType,
          cardStyle: body.cardStyle,
          deliveryOption: body.deliveryOption,
          specialRequests: [`Team order for ${plans.length} ${plans.length === 1 ? 'member' : 'members'} of ${m.team.name}.`, body.specialRequests].filter(Boolean).join(' '),
          templateId: template.id,
        }),
        { tx, userId, source: 'team', teamId: m.team.id, idempotencyKey: key, baseUrl },
      );
      if (made.replayed) throw conflict('This order was already placed');
      for (let i = 0; i < plans.length; i++) {
        const p = plans[i];
        const r = rendered[i];
        const save = async (data: Buffer) => {
          const f = await saveFile(ctx, { userId: p.userId, kind: 'card', prefix: 'cards', data, mimeType: 'image/jpeg', ext: 'jpg', width: 1050, height: 600 }, tx);
          savedKeys.push(f.key);
          return f.url;
        };
        const [card] = await tx
          .insert(cards)
          .values({
            userId: p.userId,
            profileId: p.profileId,
            templateId: template.id,
            cardType: body.cardType,
            customerProfile: { ...r.data, templateVersion: template.version, quantity: p.quantity },
            customizations: { look, team: { teamId: m.team.id, quantity: p.quantity } },
            frontImageUrl: await save(r.front),
            backImageUrl: await save(r.back),
            qrCodeUrl: cardCodeQrText(baseUrl, p.code),
            status: 'pending',
            orderId: made.order.id,
          })
          .returning({ id: cards.id });
        const ok = await insertTeamCardCode(tx, { code: p.code, profileId: p.profileId, orderId: made.order.id, teamId: m.team.id, label: `Team order #${made.order.id}` });
        if (!ok) throw conflict('Please try again');
        await recordDesignEvent(tx, { orderId: made.order.id, cardId: card.id, kind: 'submitted', actorLabel: 'team admin' });
      }
      return made.order.id;
    });
    return { order: (await teamOrderViews(ctx, m.team.id, [orderId]))[0], created: true };
  } catch (e) {
    await Promise.all(savedKeys.map((k) => ctx.storage.delete(k).catch(() => undefined)));
    throw e;
  }
}

/** The team's orders with each member's card (the Cards tab). */
export async function teamOrderViews(ctx: AppContext, teamId: string, only?: number[]): Promise<TeamOrder[]> {
  const list = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.teamId, teamId), only ? inArray(orders.id, only) : undefined))
    .orderBy(desc(orders.id))
    .limit(100);
  if (!list.length) return [];
  const cardRows = await ctx.db
    .select({ card: cards, fullName: profiles.fullName, code: cardCodes.code, codeActive: cardCodes.active })
    .from(cards)
    .leftJoin(profiles, eq(profiles.id, cards.profileId))
    .leftJoin(cardCodes, and(eq(cardCodes.orderId, cards.orderId), eq(cardCodes.profileId, cards.profileId)))
    .where(inArray(cards.orderId, list.map((o) => o.id)))
    .orderBy(asc(cards.id));
  return list.map((o) => ({
    orderId: o.id,
    status: o.status,
    statusPath: orderStatusPath(o.statusToken),
    cardType: o.cardType,
    cardStyle: o.cardStyle,
    deliveryOption: o.deliveryOption,
    quantity: o.quantity,
    totalCents: o.totalCents,
    createdAt: o.createdAt.toISOString(),
    cards: cardRows
      .filter((c) => c.card.orderId === o.id)
      .map(({ card, fullName, code, codeActive }): TeamCard => {
        const cp = (card.customerProfile ?? {}) as { fullName?: string; quantity?: number };
        return {
          cardId: card.id,
          userId: card.userId,
          fullName: fullName ?? cp.fullName ?? '',
          quantity: typeof cp.quantity === 'number' ? cp.quantity : 0,
          status: card.status === 'approved' || card.status === 'rejected' ? card.status : 'pending',
          reason: card.status === 'rejected' ? card.reviewNotes || null : null,
          frontImageUrl: card.frontImageUrl,
          backImageUrl: card.backImageUrl,
          code: code ?? null,
          codeActive: !!codeActive,
        };
      }),
  }));
}

export async function listTeamOrders(ctx: AppContext, userId: string): Promise<{ orders: TeamOrder[] }> {
  const m = await requireRole(ctx, userId, MANAGERS);
  return { orders: await teamOrderViews(ctx, m.team.id) };
}
