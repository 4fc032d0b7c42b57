import { and, eq, inArray } from 'drizzle-orm';
import { PROOF_CARDS_MESSAGES, type OrderStatusView } from '#shared/schemas/orders';
import type { AppContext } from '#server/context';
import { cards } from '#server/db/schema/designs';
import { badRequest, conflict, notFound } from '#server/http/http-errors';
import { getOrderStatusView, proofStates } from '#server/features/orders/public-api';
import { lockOrderByToken, orderCardByToken } from '#server/features/orders/reads';
import { printCheck } from '#server/features/print/public-api';
import { recordDesignEvent } from './design-events';

/**
 * The customer's proof (issue 35, decision 35-04). Staff approving a design puts its proof in
 * front of the customer (the e-mail and the order page); the customer approves it, and only then
 * can production start (the status machine reads the `proof-approved` event), or asks for changes,
 * which sends the design back to "needs changes" with their message (on a team order only the
 * cards they name, decision 35-06) (staff see it in the order's
 * timeline and detail; the customer edits and resubmits as after a staff rejection).
 */

const NO_PROOF_WAITING = 'There is no proof waiting for your answer.';

export async function answerProof(ctx: AppContext, token: string, body: { decision: 'approve' | 'changes'; message?: string; cardIds?: number[] }, origin?: string): Promise<OrderStatusView> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrderByToken(tx, token);
    if (!order) throw notFound('Order not found');
    const proof = (await proofStates(tx, [order])).get(order.id)!;
    if (proof.state === 'approved') throw conflict('You already approved this proof.');
    if (proof.state !== 'awaiting' || !['pending', 'processing'].includes(order.status)) throw conflict(NO_PROOF_WAITING);
    if (body.decision === 'approve') {
      await recordDesignEvent(tx, { orderId: order.id, cardId: proof.cardIds[0], kind: 'proof-approved', actorLabel: 'customer' });
      return;
    }
    const message = body.message!.trim();
    // the cards the customer named (a team order's, decision 35-06), or every card of the proof
    const named = body.cardIds ? [...new Set(body.cardIds)] : proof.cardIds;
    if (named.some((id) => !proof.cardIds.includes(id))) throw badRequest(PROOF_CARDS_MESSAGES.notInProof, { cardIds: PROOF_CARDS_MESSAGES.notInProof });
    // back to "needs changes" with the customer's words: the edit-and-resubmit loop of a rejection;
    // the cards not named keep their approval
    await tx
      .update(cards)
      .set({ status: 'rejected', reviewNotes: message, reviewedAt: new Date() })
      .where(and(inArray(cards.id, named), eq(cards.status, 'approved')));
    for (const cardId of named) {
      await recordDesignEvent(tx, { orderId: order.id, cardId, kind: 'changes-requested', reason: message, actorLabel: 'customer' });
    }
  });
  return getOrderStatusView(ctx, token, origin);
}

/** The proofs rendered last, by card and its review time (a card approved again renders anew). */
const cache = new Map<string, Promise<Record<'front' | 'back', Buffer>>>();
const CACHE_MAX = 32;

/**
 * One side of a card's proof as PNG, for the holder of the order's link: rendered from the print
 * file's own artwork by the print check (300 DPI). Only the order's approved designs.
 */
export async function proofImage(ctx: AppContext, token: string, cardId: number, side: 'front' | 'back', baseUrl: string): Promise<Buffer> {
  const order = await orderCardByToken(ctx.db, token);
  if (!order) throw notFound('Order not found');
  const proof = (await proofStates(ctx.db, [order])).get(order.id)!;
  if (proof.state === 'none' || proof.state === 'changes' || !proof.cardIds.includes(cardId)) throw notFound('This proof is not available');
  const [card] = await ctx.db.select({ reviewedAt: cards.reviewedAt }).from(cards).where(eq(cards.id, cardId)).limit(1);
  const key = `${cardId}:${card?.reviewedAt?.getTime() ?? 0}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = printCheck(ctx, cardId, baseUrl).then((check) => {
      const png = (s: 'front' | 'back') => Buffer.from((check.proofs.find((p) => p.side === s)?.image ?? '').replace(/^data:image\/png;base64,/, ''), 'base64');
      return { front: png('front'), back: png('back') };
    });
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  const images = await hit;
  if (!images[side].length) throw notFound('This proof is not available');
  return images[side];
}
