import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { DesignBatchApproved, DesignReviewResult, PendingDesign, ReviewDesignInput, ScanCheck } from '#shared/schemas/designs';
import type { AppContext, SessionUser } from '#server/context';
import { users } from '#server/db/schema/auth';
import { cards } from '#server/db/schema/designs';
import { HttpError, badRequest, conflict, notFound } from '#server/http/http-errors';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { cardOwner, recordEvent } from '#server/features/webhooks/public-api';
import { isActiveCodeOf } from '#server/features/engagement/reads';
import { cardOrdersQuery, lockOrder, orderOfCard } from '#server/features/orders/reads';
import { cardProfile, cardProfilesQuery, profileOfUser } from '#server/features/profile/reads';
import { teamNamesQuery } from '#server/features/team/reads';
import { editDesignPath, orderStatusUrl, publicProfileUrl } from '#shared/routes';
import { decodeQrFromImage, sameTarget } from './qr-scan';
import { designReviewedEmail } from './design-emails';
import { recordDesignEvent } from './design-events';
import { printCheck } from '#server/features/print/public-api';
import { PRINT_OVERRIDE_REQUIRED } from '#shared/schemas/print';
import { cardType as findCardType } from '#shared/catalogue';

const cardTypeLabel = (id: string) => findCardType(id)?.label ?? id;

/**
 * The print check gates approval (issue 22): a card whose print check fails is approved only with
 * an override reason, which the design history keeps. Runs before any transaction (CPU work).
 * Returns the reason to record (null when every check passed).
 */
async function printGate(ctx: AppContext, cardIds: number[], overrideReason: string | undefined, baseUrl: string): Promise<string | null> {
  const failing: string[] = [];
  for (const id of cardIds) {
    const check = await printCheck(ctx, id, baseUrl);
    if (check.blocking) failing.push(`${cardIds.length > 1 ? `card ${id}: ` : ''}${check.checks.filter((c) => c.status === 'fail').map((c) => c.label.toLowerCase()).join(', ')}`);
  }
  if (!failing.length) return null;
  const reason = overrideReason?.trim();
  if (!reason) throw badRequest(`${PRINT_OVERRIDE_REQUIRED} (failed: ${failing.join('; ')})`, { overrideReason: PRINT_OVERRIDE_REQUIRED });
  return `Print check overridden (failed: ${failing.join('; ')}): ${reason}`;
}

type CardRow = typeof cards.$inferSelect;

/** What a stored design says about its owner (the design flow keeps a copy of the profile). */
function profileOf(card: CardRow, profile: { fullName: string; email: string | null; jobTitle: string | null } | null, userEmail: string | null) {
  const cp = (card.customerProfile ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    fullName: str(cp.fullName) || profile?.fullName || '',
    email: str(cp.email) || profile?.email || userEmail || '',
    jobTitle: str(cp.jobTitle) || profile?.jobTitle || '',
  };
}


/** Designs waiting for review, oldest first (the review queue). */
export async function listPendingDesigns(ctx: AppContext, baseUrl: string): Promise<PendingDesign[]> {
  const profiles = cardProfilesQuery(ctx.db);
  const rows = await ctx.db
    .select({
      card: cards,
      profile: { id: profiles.id, fullName: profiles.fullName, email: profiles.email, jobTitle: profiles.jobTitle },
      userEmail: users.email,
    })
    .from(cards)
    .leftJoin(users, eq(users.id, cards.userId))
    .leftJoin(profiles, or(eq(profiles.id, cards.profileId), eq(profiles.userId, cards.userId)))
    .where(eq(cards.status, 'pending'))
    .orderBy(asc(cards.submittedAt), asc(cards.id))
    .limit(200);
  // team orders: their cards are one batch in the queue
  const orderIds = [...new Set(rows.map((r) => r.card.orderId).filter((x): x is number => x !== null))];
  const batches = new Map<number, { orderId: number; teamName: string; size: number }>();
  // the order each card belongs to, as staff see it on the review card (issue 37: number, metal, finish, quantity)
  const orderFacts = new Map<number, NonNullable<PendingDesign['order']>>();
  if (orderIds.length) {
    const orders = cardOrdersQuery(ctx.db);
    const teams = teamNamesQuery(ctx.db);
    const found = await ctx.db
      .select({ orderId: orders.id, teamName: teams.name, quantity: orders.quantity, cardType: orders.cardType, cardStyle: orders.cardStyle })
      .from(orders)
      .leftJoin(teams, eq(teams.id, orders.teamId))
      .where(inArray(orders.id, orderIds));
    for (const o of found) {
      orderFacts.set(o.orderId, { id: o.orderId, quantity: o.quantity, cardType: o.cardType, cardTypeLabel: cardTypeLabel(o.cardType), cardStyle: o.cardStyle });
      if (o.teamName !== null) batches.set(o.orderId, { orderId: o.orderId, teamName: o.teamName, size: rows.filter((r) => r.card.orderId === o.orderId).length });
    }
  }
  const seen = new Set<number>();
  const out: PendingDesign[] = [];
  for (const { card, profile, userEmail } of rows) {
    if (seen.has(card.id)) continue; // a card could match its profile by id and by owner
    seen.add(card.id);
    const profileId = card.profileId ?? profile?.id ?? null;
    out.push({
      id: card.id,
      profile: profileOf(card, profile, userEmail),
      createdAt: card.submittedAt.toISOString(),
      frontImageUrl: card.frontImageUrl,
      backImageUrl: card.backImageUrl,
      templateId: card.templateId,
      qrCodeUrl: card.qrCodeUrl ?? (profileId ? publicProfileUrl(baseUrl, profileId) : null),
      profileId,
      orderId: card.orderId,
      cardType: card.cardType,
      batch: (card.orderId !== null && batches.get(card.orderId)) || null,
      order: (card.orderId !== null && orderFacts.get(card.orderId)) || null,
    });
  }
  return out;
}

/**
 * Approve or reject a design once: the card's review is written and the customer's e-mail queued
 * in one transaction. A design that is no longer pending answers 409 and nothing changes.
 */
export async function reviewDesign(ctx: AppContext, id: number, input: Required<Omit<ReviewDesignInput, 'overrideReason'>> & { overrideReason?: string }, actor: SessionUser, baseUrl: string): Promise<DesignReviewResult> {
  let override: string | null = null;
  if (input.status === 'approved') {
    const [pending] = await ctx.db.select({ status: cards.status }).from(cards).where(eq(cards.id, id)).limit(1);
    if (!pending) throw notFound('Design not found');
    if (pending.status === 'pending') override = await printGate(ctx, [id], input.overrideReason, baseUrl);
  }
  const result = await ctx.db.transaction(async (tx) => {
    const [card] = await tx.select().from(cards).where(eq(cards.id, id)).for('update').limit(1);
    if (!card) throw notFound('Design not found');
    if (card.status !== 'pending') throw conflict(`This design has already been reviewed (${card.status})`);
    const reviewedAt = new Date();
    const [updated] = await tx
      .update(cards)
      .set({ status: input.status, reviewNotes: input.reviewNotes, reviewedBy: actor.id, reviewedAt })
      .where(and(eq(cards.id, id), eq(cards.status, 'pending')))
      .returning();
    if (!updated) throw conflict('This design has already been reviewed');

    const order = await orderOfCard(tx, card);
    const profile = await cardProfile(tx, card);
    const [owner] = card.userId ? await tx.select({ email: users.email }).from(users).where(eq(users.id, card.userId)).limit(1) : [];
    const who = profileOf(card, profile ?? null, owner?.email ?? null);
    // the order's timeline keeps every review (issue 20): a design can be sent back more than once
    const eventId = await recordDesignEvent(tx, {
      orderId: order?.id ?? null,
      cardId: card.id,
      kind: input.status === 'approved' ? 'approved' : 'rejected',
      reason: input.status === 'rejected' ? input.reviewNotes || null : override,
      actorLabel: 'staff',
    });
    // a team card goes back to its member, who can edit and resubmit it (issue 21)
    const teamCard = !!order?.teamId && !!card.userId;
    const to = (teamCard ? owner?.email : '') || (order && !order.anonymizedAt ? order.email : '') || who.email;
    if (to) {
      const approved = input.status === 'approved';
      const link = order ? orderStatusUrl(baseUrl, order.statusToken) : `${baseUrl.replace(/\/+$/, '')}/dashboard`;
      const email = designReviewedEmail({
        to,
        name: (teamCard ? who.fullName : '') || (order && !order.anonymizedAt ? order.customerName : '') || who.fullName || 'there',
        approved,
        reason: input.reviewNotes || null,
        orderId: order?.id ?? card.id,
        link,
        eventId,
        editUrl: approved || !card.userId ? null : `${baseUrl.replace(/\/+$/, '')}${editDesignPath(card.id)}`,
      });
      // one e-mail per reviewed design (a design without an order is keyed by its own id)
      await enqueueEmail(tx, order && !teamCard ? email : { ...email, dedupeKey: `design-reviewed:card-${card.id}:${input.status}:${eventId}` });
    }
    await recordEvent(tx, { type: input.status === 'approved' ? 'card.approved' : 'card.rejected', userId: card.userId, teamId: order?.teamId, data: { card: { id: updated.id, status: input.status, reviewNotes: updated.reviewNotes ?? '', orderId: order?.id ?? card.orderId ?? null } } });
    return {
      id: updated.id,
      status: input.status,
      reviewNotes: updated.reviewNotes ?? '',
      reviewedAt: reviewedAt.toISOString(),
      orderId: order?.id ?? card.orderId ?? null,
    } satisfies DesignReviewResult;
  });
  ctx.outbox.kick();
  return result;
}

/**
 * Approves every design of a team order still waiting (issue 21): one transaction, one event per
 * card, one e-mail to whoever placed the order. A card rejected on its own stays rejected.
 */
export async function approveDesignBatch(ctx: AppContext, orderId: number, actor: SessionUser, baseUrl: string, overrideReason?: string): Promise<DesignBatchApproved> {
  const waiting = await ctx.db.select({ id: cards.id }).from(cards).where(and(eq(cards.orderId, orderId), eq(cards.status, 'pending'))).orderBy(asc(cards.id));
  const override = waiting.length ? await printGate(ctx, waiting.map((c) => c.id), overrideReason, baseUrl) : null;
  const result = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order || !order.teamId) throw notFound('Team order not found');
    const approved = await tx
      .update(cards)
      .set({ status: 'approved', reviewNotes: '', reviewedBy: actor.id, reviewedAt: new Date() })
      .where(and(eq(cards.orderId, orderId), eq(cards.status, 'pending')))
      .returning({ id: cards.id });
    if (!approved.length) throw conflict('No design of this order is waiting for review');
    let lastEvent = 0;
    for (const c of approved) lastEvent = await recordDesignEvent(tx, { orderId, cardId: c.id, kind: 'approved', reason: override, actorLabel: 'staff' });
    for (const c of approved) await recordEvent(tx, { type: 'card.approved', userId: cardOwner(c.id), teamId: order.teamId, data: { card: { id: c.id, status: 'approved', reviewNotes: '', orderId } } });
    if (!order.anonymizedAt && order.email) {
      const email = designReviewedEmail({
        to: order.email,
        name: order.customerName || 'there',
        approved: true,
        reason: null,
        orderId,
        link: orderStatusUrl(baseUrl, order.statusToken),
        eventId: lastEvent,
        editUrl: null,
      });
      await enqueueEmail(tx, { ...email, dedupeKey: `design-batch-approved:${orderId}:${lastEvent}` });
    }
    return { orderId, approved: approved.length };
  });
  ctx.outbox.kick();
  return result;
}

/** Reads a stored image by its URL: only this site's own paths and data: URLs (never the internet). */
export type LocalFetch = (path: string) => Promise<{ statusCode: number; body: Buffer }>;

async function loadImage(url: string, baseUrl: string, fetchLocal: LocalFetch): Promise<Buffer | string> {
  if (url.startsWith('data:')) {
    const m = /^data:[^;,]*(;base64)?,(.*)$/s.exec(url);
    if (!m) return 'The back image could not be read';
    return m[1] ? Buffer.from(m[2], 'base64') : Buffer.from(decodeURIComponent(m[2]));
  }
  let path: string;
  if (url.startsWith('/') && !url.startsWith('//')) path = url;
  else {
    try {
      const u = new URL(url);
      if (u.origin !== new URL(baseUrl).origin) return 'The back image is not stored on this site';
      path = u.pathname + u.search;
    } catch {
      return 'The back image could not be read';
    }
  }
  const res = await fetchLocal(path);
  if (res.statusCode !== 200) return `The back image could not be loaded (HTTP ${res.statusCode})`;
  return res.body;
}

/**
 * The scan check a reviewer sees before approving: the QR code in the design's rendered back is
 * decoded like a phone would, and must open the owner's public profile (`/p/{id}`), or one of the
 * owner's active card links (`/c/{code}`), on this site.
 */
export async function scanCheckDesign(ctx: AppContext, id: number, baseUrl: string, fetchLocal: LocalFetch): Promise<ScanCheck> {
  const [card] = await ctx.db.select().from(cards).where(eq(cards.id, id)).limit(1);
  if (!card) throw notFound('Design not found');
  const owned = card.userId ? await profileOfUser(ctx.db, card.userId) : undefined;
  const profileId = owned?.id ?? card.profileId;
  const expectedUrl = profileId ? publicProfileUrl(baseUrl, profileId) : null;
  const fail = (message: string, decodedText: string | null = null): ScanCheck => ({ designId: id, status: 'fail', expectedUrl, decodedText, message });

  if (!card.backImageUrl) return fail('The design has no rendered back image to scan.');
  let bytes: Buffer | string;
  try {
    bytes = await loadImage(card.backImageUrl, baseUrl, fetchLocal);
  } catch {
    bytes = 'The back image could not be loaded';
  }
  if (typeof bytes === 'string') return fail(`${bytes}.`);
  let decoded: string | null;
  try {
    decoded = await decodeQrFromImage(bytes);
  } catch (e) {
    // the worker pool was full (503): a retry will do; anything else is the image itself
    if (e instanceof HttpError && e.statusCode === 503) return fail('The scan check could not run now (the server is busy). Reload to try again.');
    return fail('The back image is not a readable image.');
  }
  if (!decoded) return fail('No QR code could be read on the card back.');
  if (!expectedUrl) return fail('The design is not linked to a profile, so the QR code has nowhere valid to lead.', decoded);
  if (sameTarget(decoded, expectedUrl)) {
    return { designId: id, status: 'pass', expectedUrl, decodedText: decoded, message: "The QR code opens the owner's public profile." };
  }
  try {
    const u = new URL(decoded);
    const m = /^\/c\/([A-Za-z0-9_-]{1,64})\/?$/i.exec(u.pathname);
    if (m && u.origin === new URL(expectedUrl).origin) {
      if (await isActiveCodeOf(ctx.db, m[1], profileId!)) return { designId: id, status: 'pass', expectedUrl, decodedText: decoded, message: "The QR code opens the owner's card link, which leads to their public profile." };
    }
  } catch {}
  return fail(`The QR code opens ${decoded}, not the owner's public profile.`, decoded);
}
