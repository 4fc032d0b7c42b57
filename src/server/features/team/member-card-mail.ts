import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { cards } from '#server/db/schema/designs';
import { profiles } from '#server/db/schema/profile';
import { teams } from '#server/db/schema/team';
import { enqueueEmails } from '#server/infra/mail/outbox';
import type { OrderStatusListener } from '#server/features/orders/public-api';
import { memberCardEmail, type MemberCardEvent } from './team-emails';

/**
 * Tells each member whose card is in a team order what happened to it (issue 37, decision 37-09):
 * ordered for them, shipped, ready for pickup. Queued in the caller's transaction (the e-mails
 * exist exactly when the event does; a retry of the same event queues nothing twice). The person
 * who placed the order gets the order's own e-mails and is left out here.
 */
export async function mailMembersAboutCards(
  tx: Db | Tx,
  p: { orderId: number; teamId: string; event: MemberCardEvent; baseUrl: string; exceptUserId?: string | null },
): Promise<number> {
  const [team] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, p.teamId)).limit(1);
  if (!team) return 0;
  const rows = await tx
    .select({ userId: users.id, email: users.email, firstName: users.firstName, profileName: profiles.fullName, customerProfile: cards.customerProfile })
    .from(cards)
    .innerJoin(users, eq(users.id, cards.userId))
    .leftJoin(profiles, eq(profiles.id, cards.profileId))
    .where(and(eq(cards.orderId, p.orderId), isNotNull(cards.userId)));
  const link = `${p.baseUrl.replace(/\/+$/, '')}/dashboard?tab=card`;
  const mails = rows
    .filter((r) => r.userId !== p.exceptUserId)
    .map((r) => {
      const cp = (r.customerProfile ?? {}) as { quantity?: unknown };
      return memberCardEmail({
        orderId: p.orderId,
        userId: r.userId,
        event: p.event,
        to: r.email,
        fullName: r.profileName || r.firstName || null,
        teamName: team.name,
        quantity: typeof cp.quantity === 'number' && cp.quantity > 0 ? cp.quantity : 1,
        link,
      });
    });
  if (mails.length) await enqueueEmails(tx, mails);
  return mails.length;
}

/** Orders' status listener: a team order that ships or is ready tells each member about their cards. */
export const mailMembersOnMilestone: OrderStatusListener = async (tx, { order, to, baseUrl }) => {
  if (!order.teamId || (to !== 'shipped' && to !== 'ready-for-pickup')) return;
  await mailMembersAboutCards(tx, { orderId: order.id, teamId: order.teamId, event: to, baseUrl, exceptUserId: order.userId });
};
