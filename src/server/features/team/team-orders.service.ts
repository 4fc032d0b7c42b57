import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '#server/context';
import { users } from '#server/db/schema/auth';
import { cards } from '#server/db/schema/designs';
import { cardCodes } from '#server/db/schema/engagement';
import { orders } from '#server/db/schema/orders';
import { profiles } from '#server/db/schema/profile';
import { teamMembers } from '#server/db/schema/team';
import { badRequest, conflict } from '#server/http/http-errors';
import { parseOrThrow } from '#server/http/validation';
import { createOrder, teamKeyScope } from '#server/features/orders/public-api';
import { createCardsForTeamOrder } from '#server/features/designs/public-api';
import { loadPublicProfile } from '#server/features/profile/public-api';
import { generateCardCode, insertTeamCardCode } from '#server/features/engagement/public-api';
import { checkedLook, getTemplate, renderCard } from '#server/features/templates/public-api';
import { TEMPLATE_IDS } from '#shared/catalogue';
import { addressLines } from '#shared/orders/address';
import { formatPhone } from '#shared/profile/phone';
import { orderStatusPath } from '#shared/routes';
import { OrderInput } from '#shared/schemas/orders';
import { cardCodeQrText } from '#shared/schemas/engagement';
import { brandOf } from '#shared/team/brand';
import type { TeamCard, TeamOrder, TeamOrderBody } from '#shared/schemas/team';
import { MANAGERS, requireRole } from './team.service';
import { mailMembersAboutCards } from './member-card-mail';

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
  // the team's keys live in the team's own scope (issue 33): a member's or visitor's key never finds a team order
  const key = body.clientToken;
  const scope = teamKeyScope(m.team.id);
  if (key) {
    const [prior] = await ctx.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.idempotencyScope, scope), eq(orders.idempotencyKey, key)))
      .limit(1);
    if (prior) return { order: (await teamOrderViews(ctx, m.team.id, [prior.id]))[0], created: false };
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
          phoneNumber: prof.phoneNumber ? formatPhone(prof.phoneNumber) : null, // stored E.164, printed readable
          address: prof.address,
          website: link('website'),
          linkedinUrl: link('linkedin'),
        };
        const r = await renderCard(ctx, template, { data: { ...data, look }, qrUrl: cardCodeQrText(baseUrl, p.code), logoUrl: prof.logoUrl }, 'jpeg');
        // the card keeps the logo its preview showed (the team's, under its brand): the print file draws the same (issue 35)
        return { ...r, data: { ...data, logoUrl: prof.logoUrl } };
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
          address: body.address ?? (body.shippingAddress ? addressLines(body.shippingAddress).join(', ').slice(0, 300) : undefined),
          shippingAddress: body.deliveryOption === 'pickup-nyc' ? undefined : body.shippingAddress,
          quantity,
          cardType: body.cardType,
          cardStyle: body.cardStyle,
          deliveryOption: body.deliveryOption,
          specialRequests: [`Team order for ${plans.length} ${plans.length === 1 ? 'member' : 'members'} of ${m.team.name}.`, body.specialRequests].filter(Boolean).join(' '),
          templateId: template.id,
        }),
        { tx, userId, source: 'team', teamId: m.team.id, idempotencyKey: key, idempotencyScope: scope, baseUrl },
      );
      if (made.replayed) throw conflict('This order was already placed');
      for (const p of plans) {
        const ok = await insertTeamCardCode(tx, { code: p.code, profileId: p.profileId, orderId: made.order.id, teamId: m.team.id, label: `Team order #${made.order.id}` });
        if (!ok) throw conflict('Please try again');
      }
      // each member's card waits for review (designs own the cards and their events)
      await createCardsForTeamOrder(
        ctx,
        tx,
        { orderId: made.order.id, teamId: m.team.id, template, cardType: body.cardType, look },
        plans.map((p, i) => ({ userId: p.userId, profileId: p.profileId, quantity: p.quantity, data: rendered[i].data, front: rendered[i].front, back: rendered[i].back, qrCodeUrl: cardCodeQrText(baseUrl, p.code) })),
        savedKeys,
      );
      // each member hears about their own card (the order's e-mails go to whoever placed it)
      await mailMembersAboutCards(tx, { orderId: made.order.id, teamId: m.team.id, event: 'placed', baseUrl, exceptUserId: userId });
      return made.order.id;
    });
    ctx.outbox.kick();
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
