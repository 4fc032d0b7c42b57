import { eq, or } from 'drizzle-orm';
import type { CardLook } from '#shared/templates/look';
import type { AppContext } from '#server/context';
import type { Tx } from '#server/db/client';
import { cards } from '#server/db/schema/designs';
import { saveFile } from '#server/infra/files';
import { recordDesignEvent } from './design-events';

/** One member's card of a team order: their branded details, rendered sides and card-code QR. */
export interface TeamCardInput {
  userId: string;
  profileId: string;
  quantity: number;
  data: Record<string, string | null>;
  front: Buffer;
  back: Buffer;
  qrCodeUrl: string;
}

/**
 * The cards of a team order (issue 21), in the caller's transaction: each member's rendered sides
 * stored (JPEG files owned by the member), the card waiting for review (one batch in the queue),
 * and its `submitted` design event. The storage keys written go into `savedKeys`, so the caller
 * can delete them when its transaction fails. Answers the card ids, in the members' order.
 */
export async function createCardsForTeamOrder(
  ctx: AppContext,
  tx: Tx,
  order: { orderId: number; teamId: string; template: { id: number; version: number }; cardType: string; look: CardLook },
  members: TeamCardInput[],
  savedKeys: string[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const p of members) {
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
        templateId: order.template.id,
        cardType: order.cardType,
        customerProfile: { ...p.data, templateVersion: order.template.version, quantity: p.quantity },
        customizations: { look: order.look, team: { teamId: order.teamId, quantity: p.quantity } },
        frontImageUrl: await save(p.front),
        backImageUrl: await save(p.back),
        qrCodeUrl: p.qrCodeUrl,
        status: 'pending',
        orderId: order.orderId,
      })
      .returning({ id: cards.id });
    await recordDesignEvent(tx, { orderId: order.orderId, cardId: card.id, kind: 'submitted', actorLabel: 'team admin' });
    ids.push(card.id);
  }
  return ids;
}

/** Account deletion (in its transaction): the user's cards, by owner or by their profile. */
export async function deleteCardsOfUser(tx: Tx, userId: string, profileId: string | null): Promise<void> {
  await tx.delete(cards).where(profileId ? or(eq(cards.userId, userId), eq(cards.profileId, profileId)) : eq(cards.userId, userId));
}
