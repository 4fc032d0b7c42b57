import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { templateDisplay } from '#shared/templates/builtin';
import { orderStatusPath, publicProfileUrl } from '#shared/routes';
import { DESIGN_ORDER_MESSAGES, type DesignForEdit, type DesignResubmitBody, type DesignResubmitResult, type DesignSubmitBody, type SubmitForReviewResult } from '#shared/schemas/designs';
import { CARD_TYPE_IDS, type CardTypeId } from '#shared/catalogue';
import type { AppContext, SessionUser } from '#server/context';
import { cards } from '#server/db/schema/designs';
import { HttpError, badRequest, conflict, notFound } from '#server/http/http-errors';
import { parseOrThrow } from '#server/http/validation';
import { OrderInput } from '#shared/schemas/orders';
import { saveFile } from '#server/infra/files';
import { assertFilesOwned } from '#server/infra/file-ownership';
import { createOrder, linkOrderCard, notifyStaff, orderForDesign, userKeyScope } from '#server/features/orders/public-api';
import { cardOrdersQuery, orderIdByKey } from '#server/features/orders/reads';
import { profileOfUser } from '#server/features/profile/reads';
import { checkedLook, getTemplate, lookInputOf, renderCard, type CardRenderInput } from '#server/features/templates/public-api';
import { recordDesignEvent } from './design-events';

type SubmitInput = z.output<typeof DesignSubmitBody>;

/** The active template a design uses (400 on `templateId` when it is unknown or switched off). */
async function usableTemplate(ctx: AppContext, id: number) {
  let template;
  try {
    template = await getTemplate(ctx, { id });
  } catch (e) {
    if (e instanceof HttpError && e.statusCode === 404) throw badRequest('Template not found', { templateId: 'Template not found' });
    throw e;
  }
  if (!template.isActive) throw badRequest('This template is not available', { templateId: 'This template is not available' });
  return template;
}

class Replayed extends Error {
  constructor(public readonly orderId: number) {
    super('replayed');
  }
}

async function existingSubmission(ctx: AppContext, userId: string, orderId: number): Promise<SubmitForReviewResult> {
  const o = cardOrdersQuery(ctx.db);
  const [row] = await ctx.db
    .select({ order: { id: o.id, userId: o.userId }, card: cards })
    .from(o)
    .leftJoin(cards, eq(cards.id, o.cardId))
    .where(eq(o.id, orderId))
    .limit(1);
  if (!row || row.order.userId !== userId) throw conflict('This form was already submitted by someone else');
  return {
    orderId: row.order.id,
    cardId: row.card?.id ?? 0,
    status: row.card?.status ?? 'pending',
    frontImageUrl: row.card?.frontImageUrl ?? null,
    backImageUrl: row.card?.backImageUrl ?? null,
    qrCodeUrl: row.card?.qrCodeUrl ?? null,
  };
}

/**
 * Stores a submitted design and its order in one transaction: the card row (status pending), its
 * rendered front and back (JPEG files), and the linked order made by the order service (priced
 * from the catalogue, with its history row and e-mail). A retry with the same client token answers
 * the first submission.
 */
export async function submitForReview(ctx: AppContext, user: SessionUser, input: SubmitInput, baseUrl: string): Promise<{ result: SubmitForReviewResult; created: boolean }> {
  // the design of an order the caller already has (issue 35): attached to it, no order is made
  if (input.orderId !== undefined) return { result: await attachDesignToOrder(ctx, user, input, input.orderId, baseUrl), created: false };
  const key = input.clientToken;
  if (key) {
    // the key is looked up in the caller's own scope (issue 33)
    const prior = await orderIdByKey(ctx.db, userKeyScope(user.id), key);
    if (prior !== undefined) return { result: await existingSubmission(ctx, user.id, prior), created: false };
  }

  const template = await usableTemplate(ctx, input.templateId);

  const profile = await profileOfUser(ctx.db, user.id);
  const p = input.customerProfile;
  // a logo in the form must be the caller's own upload (issue 19)
  await assertFilesOwned(ctx.db, { userId: user.id }, { 'customerProfile.logoUrl': p.logoUrl });
  const qrUrl = profile ? publicProfileUrl(baseUrl, profile.id) : null;
  const look = checkedLook(input.cardType, input.look);
  const renderInput: CardRenderInput = {
    // the card type's metal and the customer's choices: the same fill as the live preview
    data: { ...p, look },
    qrUrl,
    logoUrl: p.logoUrl ?? profile?.logoUrl ?? null,
  };
  // rendering is CPU work: done before the transaction opens
  const rendered = await renderCard(ctx, template, renderInput, 'jpeg');
  const display = templateDisplay(template, template.version);

  const savedKeys: string[] = [];
  try {
    const result = await ctx.db.transaction(async (tx) => {
      const [card] = await tx
        .insert(cards)
        .values({
          userId: user.id,
          profileId: profile?.id ?? null,
          templateId: template.id,
          cardType: input.cardType,
          customerProfile: { ...p, templateVersion: template.version },
          customizations: {
            layout: display.layout,
            backgroundColor: display.backgroundColor,
            textColor: display.textColor,
            qrStyle: display.qrStyle,
            qrBorder: display.qrBorder,
            ...(display.qrBorderColor ? { qrBorderColor: display.qrBorderColor, qrBorderWidth: display.qrBorderWidth } : {}),
            overlayOpacity: 0.2,
            look,
          },
          qrCodeUrl: qrUrl,
          status: 'pending',
          submittedAt: input.submittedAt ? clampSubmittedAt(input.submittedAt) : new Date(),
        })
        .returning();
      const save = async (side: 'front' | 'back', data: Buffer) => {
        const f = await saveFile(ctx, { userId: user.id, kind: 'card', prefix: 'cards', data, mimeType: 'image/jpeg', ext: 'jpg', width: 1050, height: 600 }, tx);
        savedKeys.push(f.key);
        return f.url;
      };
      const frontImageUrl = await save('front', rendered.front);
      const backImageUrl = await save('back', rendered.back);

      // the design form's fields become an order: checked by the order's own rules, once
      const made = await createOrder(
        ctx,
        parseOrThrow(OrderInput, {
          customerName: p.fullName,
          email: p.email,
          phone: p.phoneNumber,
          companyName: p.companyName ?? null,
          position: p.jobTitle ?? null,
          address: p.address ?? null,
          quantity: input.quantity,
          cardType: input.cardType,
          cardStyle: input.cardStyle,
          deliveryOption: input.deliveryOption,
          templateId: template.id,
          shippingAddress: input.shippingAddress ?? null,
        }),
        { tx, userId: user.id, cardId: card.id, source: 'design', idempotencyKey: key, idempotencyScope: userKeyScope(user.id), baseUrl },
      );
      if (made.replayed) throw new Replayed(made.order.id);
      await tx.update(cards).set({ frontImageUrl, backImageUrl, orderId: made.order.id }).where(eq(cards.id, card.id));
      await recordDesignEvent(tx, { orderId: made.order.id, cardId: card.id, kind: 'submitted', actorLabel: 'customer' });
      return {
        orderId: made.order.id,
        cardId: card.id,
        status: 'pending',
        frontImageUrl,
        backImageUrl,
        qrCodeUrl: qrUrl,
      } satisfies SubmitForReviewResult;
    });
    return { result, created: true };
  } catch (e) {
    await Promise.all(savedKeys.map((k) => ctx.storage.delete(k).catch(() => undefined)));
    if (e instanceof Replayed) return { result: await existingSubmission(ctx, user.id, e.orderId), created: false };
    throw e;
  }
}

/**
 * The design of the caller's own order (issue 35: a claimed visitor order included): the card is
 * made for that order (or replaces its design still in review or sent back), with the order's card
 * type; quantity, delivery and price stay the order's. Another user's order is 404; an order whose
 * design is approved, a team order, a cancelled order or one in production or beyond is 409.
 */
async function attachDesignToOrder(ctx: AppContext, user: SessionUser, input: SubmitInput, orderId: number, baseUrl: string): Promise<SubmitForReviewResult> {
  // the refusals first, before any rendering work
  const first = await ctx.db.transaction((tx) => orderForDesign(tx, user.id, orderId));
  await refuseApprovedDesign(ctx.db, first.cardId);
  const template = await usableTemplate(ctx, input.templateId);
  const profile = await profileOfUser(ctx.db, user.id);
  const p = input.customerProfile;
  await assertFilesOwned(ctx.db, { userId: user.id }, { 'customerProfile.logoUrl': p.logoUrl });
  const qrUrl = profile ? publicProfileUrl(baseUrl, profile.id) : null;
  const cardType = orderCardType(first.cardType);
  const look = checkedLook(cardType, input.look);
  const rendered = await renderCard(ctx, template, { data: { ...p, look }, qrUrl, logoUrl: p.logoUrl ?? profile?.logoUrl ?? null }, 'jpeg');
  const display = templateDisplay(template, template.version);

  const savedKeys: string[] = [];
  try {
    const result = await ctx.db.transaction(async (tx) => {
      // read again under the lock: the order may have moved on while the card rendered
      const order = await orderForDesign(tx, user.id, orderId);
      const [existing] = order.cardId ? await tx.select().from(cards).where(and(eq(cards.id, order.cardId), eq(cards.orderId, order.id))).for('update').limit(1) : [];
      if (existing?.status === 'approved') throw conflict(DESIGN_ORDER_MESSAGES.approved);
      const save = async (data: Buffer) => {
        const f = await saveFile(ctx, { userId: user.id, kind: 'card', prefix: 'cards', data, mimeType: 'image/jpeg', ext: 'jpg', width: 1050, height: 600 }, tx);
        savedKeys.push(f.key);
        return f.url;
      };
      const frontImageUrl = await save(rendered.front);
      const backImageUrl = await save(rendered.back);
      const fields = {
        userId: user.id,
        profileId: profile?.id ?? null,
        templateId: template.id,
        cardType,
        customerProfile: { ...p, templateVersion: template.version },
        customizations: {
          layout: display.layout,
          backgroundColor: display.backgroundColor,
          textColor: display.textColor,
          qrStyle: display.qrStyle,
          qrBorder: display.qrBorder,
          ...(display.qrBorderColor ? { qrBorderColor: display.qrBorderColor, qrBorderWidth: display.qrBorderWidth } : {}),
          overlayOpacity: 0.2,
          look,
        },
        frontImageUrl,
        backImageUrl,
        qrCodeUrl: qrUrl,
        status: 'pending',
        reviewNotes: null,
        reviewedBy: null,
        reviewedAt: null,
        submittedAt: input.submittedAt ? clampSubmittedAt(input.submittedAt) : new Date(),
        orderId: order.id,
      };
      let cardId: number;
      if (existing) {
        // a design still in review, or sent back for changes, is replaced on the same card
        await tx.update(cards).set(fields).where(eq(cards.id, existing.id));
        cardId = existing.id;
      } else {
        const [card] = await tx.insert(cards).values(fields).returning({ id: cards.id });
        cardId = card.id;
        await linkOrderCard(tx, order.id, cardId);
      }
      const eventId = await recordDesignEvent(tx, { orderId: order.id, cardId, kind: existing ? 'resubmitted' : 'submitted', actorLabel: 'customer' });
      await notifyStaff(ctx, tx, {
        kind: 'design-waiting',
        orderId: order.id,
        customerName: order.customerName,
        totalCents: order.totalCents,
        detail: existing ? 'The customer replaced the design of this order; it waits for review.' : 'The customer designed the card of this order; it waits for review.',
        eventKey: `design-${eventId}`,
        baseUrl,
      });
      return { orderId: order.id, cardId, status: 'pending', frontImageUrl, backImageUrl, qrCodeUrl: qrUrl } satisfies SubmitForReviewResult;
    });
    ctx.outbox.kick();
    return result;
  } catch (e) {
    await Promise.all(savedKeys.map((k) => ctx.storage.delete(k).catch(() => undefined)));
    throw e;
  }
}

/** 409 when the order's design is already approved (it is printed as approved). */
async function refuseApprovedDesign(db: AppContext['db'], cardId: number | null) {
  if (!cardId) return;
  const [card] = await db.select({ status: cards.status }).from(cards).where(eq(cards.id, cardId)).limit(1);
  if (card?.status === 'approved') throw conflict(DESIGN_ORDER_MESSAGES.approved);
}

const orderCardType = (t: string): CardTypeId => ((CARD_TYPE_IDS as readonly string[]).includes(t) ? t : 'standard') as CardTypeId;

/** The client's submittedAt, kept when plausible (not in the future, not older than a day). */
function clampSubmittedAt(iso: string): Date {
  const t = new Date(iso).getTime();
  const now = Date.now();
  if (!Number.isFinite(t) || t > now || now - t > 86_400_000) return new Date(now);
  return new Date(t);
}

/** The owner's card and its order (anyone else: 404, as if it did not exist). */
async function ownCard(ctx: AppContext, userId: string, cardId: number) {
  const o = cardOrdersQuery(ctx.db);
  const [row] = await ctx.db
    .select({ card: cards, order: { id: o.id, status: o.status, customerName: o.customerName, totalCents: o.totalCents, statusToken: o.statusToken } })
    .from(cards)
    .leftJoin(o, eq(o.id, cards.orderId))
    .where(and(eq(cards.id, cardId), eq(cards.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Design not found');
  return row;
}

const canResubmit = (card: { status: string }, order: { status: string } | null) => card.status === 'rejected' && (!order || order.status === 'pending');

/** GET /api/cards/{id}/design: what the designer reopens ("Edit and resubmit"). */
export async function designForEdit(ctx: AppContext, userId: string, cardId: number): Promise<DesignForEdit> {
  const { card, order } = await ownCard(ctx, userId, cardId);
  const cp: Record<string, string> = {};
  for (const [k, v] of Object.entries((card.customerProfile ?? {}) as Record<string, unknown>)) if (typeof v === 'string') cp[k] = v;
  return {
    cardId: card.id,
    orderId: order?.id ?? null,
    templateId: card.templateId,
    cardType: ((CARD_TYPE_IDS as readonly string[]).includes(card.cardType) ? card.cardType : 'standard') as CardTypeId,
    customerProfile: cp,
    look: lookInputOf(card.customizations),
    status: card.status,
    reason: card.status === 'rejected' ? card.reviewNotes?.trim() || null : null,
    canResubmit: canResubmit(card, order),
  };
}

/**
 * "Edit and resubmit" (issue 20): the edited design replaces the rejected one on the same card and
 * order, back in the review queue with its history (a `resubmitted` event) and staff told. Only a
 * design that needs changes, of an order still pending; the card type stays the order's.
 */
export async function resubmitDesign(
  ctx: AppContext,
  user: SessionUser,
  cardId: number,
  input: z.output<typeof DesignResubmitBody>,
  baseUrl: string,
): Promise<DesignResubmitResult> {
  const { card, order } = await ownCard(ctx, user.id, cardId);
  if (!canResubmit(card, order)) throw conflict('This design is not waiting for changes');
  const template = await usableTemplate(ctx, input.templateId);
  const p = input.customerProfile;
  await assertFilesOwned(ctx.db, { userId: user.id }, { 'customerProfile.logoUrl': p.logoUrl });
  const profile = await profileOfUser(ctx.db, user.id);
  const qrUrl = profile ? publicProfileUrl(baseUrl, profile.id) : card.qrCodeUrl;
  const look = checkedLook(card.cardType, input.look);
  const rendered = await renderCard(ctx, template, { data: { ...p, look }, qrUrl, logoUrl: p.logoUrl ?? profile?.logoUrl ?? null }, 'jpeg');

  const savedKeys: string[] = [];
  try {
    const result = await ctx.db.transaction(async (tx) => {
      const save = async (data: Buffer) => {
        const f = await saveFile(ctx, { userId: user.id, kind: 'card', prefix: 'cards', data, mimeType: 'image/jpeg', ext: 'jpg', width: 1050, height: 600 }, tx);
        savedKeys.push(f.key);
        return f.url;
      };
      const frontImageUrl = await save(rendered.front);
      const backImageUrl = await save(rendered.back);
      const [updated] = await tx
        .update(cards)
        .set({
          templateId: template.id,
          customerProfile: { ...p, templateVersion: template.version },
          customizations: { ...((card.customizations ?? {}) as Record<string, unknown>), look },
          frontImageUrl,
          backImageUrl,
          qrCodeUrl: qrUrl,
          status: 'pending',
          reviewedBy: null,
          reviewedAt: null,
          submittedAt: new Date(),
        })
        .where(and(eq(cards.id, card.id), eq(cards.status, 'rejected')))
        .returning();
      if (!updated) throw conflict('This design is not waiting for changes');
      const eventId = await recordDesignEvent(tx, { orderId: order?.id ?? null, cardId: card.id, kind: 'resubmitted', actorLabel: 'customer' });
      if (order) {
        await notifyStaff(ctx, tx, {
          kind: 'design-waiting',
          orderId: order.id,
          customerName: order.customerName,
          totalCents: order.totalCents,
          detail: 'The customer edited the design after it was sent back for changes and resubmitted it.',
          eventKey: `resubmitted-${eventId}`,
          baseUrl,
        });
      }
      return {
        orderId: order?.id ?? 0,
        cardId: card.id,
        status: 'pending',
        frontImageUrl,
        backImageUrl,
        qrCodeUrl: qrUrl,
        statusPath: order ? orderStatusPath(order.statusToken) : '/dashboard',
      } satisfies DesignResubmitResult;
    });
    ctx.outbox.kick();
    return result;
  } catch (e) {
    await Promise.all(savedKeys.map((k) => ctx.storage.delete(k).catch(() => undefined)));
    throw e;
  }
}
