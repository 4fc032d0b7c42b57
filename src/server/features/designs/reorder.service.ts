import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { orderStatusPath } from '#shared/routes';
import { ADDRESS_MESSAGES, OrderInput, needsShippingAddress } from '#shared/schemas/orders';
import { DESIGN_ORDER_MESSAGES, type OrderReorderBody, type OrderReorderResult } from '#shared/schemas/designs';
import type { AppContext, SessionUser } from '#server/context';
import { cards } from '#server/db/schema/designs';
import { badRequest, conflict } from '#server/http/http-errors';
import { parseOrThrow } from '#server/http/validation';
import { createOrder, ownOrder, userKeyScope } from '#server/features/orders/public-api';
import { cardOrdersQuery, orderIdByKey } from '#server/features/orders/reads';
import { recordDesignEvent } from './design-events';

type ReorderInput = z.output<typeof OrderReorderBody>;

class Replayed extends Error {
  constructor(public readonly orderId: number) {
    super('replayed');
  }
}

async function answerOf(ctx: AppContext, orderId: number): Promise<OrderReorderResult> {
  const o = cardOrdersQuery(ctx.db);
  const [row] = await ctx.db
    .select({ order: { id: o.id, totalCents: o.totalCents, statusToken: o.statusToken, checkoutUrl: o.checkoutUrl }, card: cards })
    .from(o)
    .leftJoin(cards, eq(cards.id, o.cardId))
    .where(eq(o.id, orderId))
    .limit(1);
  return {
    orderId: row.order.id,
    cardId: row.card?.id ?? 0,
    designStatus: row.card?.status ?? 'pending',
    totalCents: row.order.totalCents,
    statusPath: orderStatusPath(row.order.statusToken),
    checkoutUrl: row.order.checkoutUrl ?? null,
  };
}

/**
 * "Reorder" (issue 35): the approved design of one of the caller's orders, again, as a new order in
 * one confirm. The new order carries a copy of the design (the same template version, fields, look
 * and rendered sides), **approved** with a design event saying it repeats the approval of the first
 * order (decision 35-03): what is printed is exactly what was approved and printed before. Quantity,
 * delivery and address default to the first order's; the price is today's catalogue.
 */
export async function reorderApprovedDesign(ctx: AppContext, user: SessionUser, input: ReorderInput, baseUrl: string): Promise<{ result: OrderReorderResult; created: boolean }> {
  const orderId = input.orderId;
  const key = input.clientToken;
  if (key) {
    const prior = await orderIdByKey(ctx.db, userKeyScope(user.id), key);
    if (prior !== undefined) return { result: await answerOf(ctx, prior), created: false };
  }
  const original = await ownOrder(ctx.db, user.id, orderId);
  if (original.teamId) throw conflict(DESIGN_ORDER_MESSAGES.team);
  const [card] = original.cardId ? await ctx.db.select().from(cards).where(eq(cards.id, original.cardId)).limit(1) : [];
  if (!card || card.status !== 'approved') throw conflict(DESIGN_ORDER_MESSAGES.noDesign);

  const deliveryOption = input.deliveryOption ?? original.deliveryOption;
  const shippingAddress = needsShippingAddress(deliveryOption) ? (input.shippingAddress ?? original.shippingAddress ?? null) : null;
  if (needsShippingAddress(deliveryOption) && !shippingAddress) throw badRequest(ADDRESS_MESSAGES.required, { shippingAddress: ADDRESS_MESSAGES.required });
  const data = parseOrThrow(OrderInput, {
    customerName: original.customerName,
    email: original.email,
    phone: original.phone,
    companyName: original.companyName,
    position: original.position,
    address: original.address,
    shippingAddress,
    quantity: input.quantity ?? original.quantity,
    cardType: card.cardType,
    cardStyle: original.cardStyle,
    deliveryOption,
    templateId: card.templateId,
  });

  try {
    const orderIdMade = await ctx.db.transaction(async (tx) => {
      const [copy] = await tx
        .insert(cards)
        .values({
          userId: user.id,
          profileId: card.profileId,
          templateId: card.templateId,
          cardType: card.cardType,
          customerProfile: card.customerProfile,
          customizations: card.customizations,
          frontImageUrl: card.frontImageUrl,
          backImageUrl: card.backImageUrl,
          qrCodeUrl: card.qrCodeUrl,
          status: 'approved',
          reviewNotes: '',
          reviewedBy: card.reviewedBy,
          reviewedAt: new Date(),
          submittedAt: new Date(),
        })
        .returning({ id: cards.id });
      const made = await createOrder(ctx, data, { tx, userId: user.id, cardId: copy.id, source: 'design', idempotencyKey: key, idempotencyScope: userKeyScope(user.id), baseUrl });
      if (made.replayed) throw new Replayed(made.order.id);
      await tx.update(cards).set({ orderId: made.order.id }).where(eq(cards.id, copy.id));
      await recordDesignEvent(tx, { orderId: made.order.id, cardId: copy.id, kind: 'submitted', actorLabel: 'customer' });
      await recordDesignEvent(tx, { orderId: made.order.id, cardId: copy.id, kind: 'approved', reason: `Repeat of the design approved for order #${original.id}`, actorLabel: 'repeat order' });
      return made.order.id;
    });
    ctx.outbox.kick();
    return { result: await answerOf(ctx, orderIdMade), created: true };
  } catch (e) {
    if (e instanceof Replayed) return { result: await answerOf(ctx, e.orderId), created: false };
    throw e;
  }
}
