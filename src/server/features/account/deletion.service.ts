import type { AppContext } from '#server/context';
import { deleteFileRows, fileKeysOfUser } from '#server/infra/files';
import { clearRateLimitIn } from '#server/infra/rate-limit';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { deleteProfileOfUser, findProfileRowByUser, teamPagesChanged } from '#server/features/profile/public-api';
import { deleteUserRow } from '#server/features/auth/public-api';
import { anonymizeOrdersOfUser } from '#server/features/orders/public-api';
import { settleOwnedTeam } from '#server/features/team/public-api';
import { deleteCardsOfUser } from '#server/features/designs/public-api';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';
import { normEmail, checkCurrentPassword } from './account-guards';


/**
 * Deletes the account after checking its password: profile (and with it links, visits, clicks,
 * contact saves, leads, card codes), cards, the stored files it owns, sessions and tokens are removed; orders
 * stay for the business's records with the customer's personal fields blanked and `anonymized_at`
 * set. The e-mail address is free to register again afterwards. The owner of a team with other
 * members is refused (409) until they transfer it; a team they are alone in goes with the account.
 */
export async function deleteAccount(ctx: AppContext, userId: string, password: string, origin: string) {
  const u = await checkCurrentPassword(ctx, userId, password, 'password');

  const removed = await ctx.db.transaction(async (tx) => {
    // a team always has an owner (issue 33): 409 until ownership moves, unless nobody else is in it
    const deletedTeamId = await settleOwnedTeam(tx, u.id, ACCOUNT_MESSAGES.transferFirst);
    const profileId = (await findProfileRowByUser(tx, u.id))?.id ?? null;
    // only files this account owns (issue 19): a URL in one of its records proves nothing, since
    // another account's file could have been referenced there
    const keys = await fileKeysOfUser(tx, u.id);

    await anonymizeOrdersOfUser(tx, u.id);

    await deleteCardsOfUser(tx, u.id, profileId);
    await deleteFileRows(tx, keys);
    // profile's verb: the cached public page is dropped after the commit (profileGone below)
    const profileGone = await deleteProfileOfUser(tx, u.id);
    await clearRateLimitIn(tx, `login:fail:${normEmail(u.email)}`);

    const { text, html } = renderEmail({
      preheader: 'Your account has been deleted',
      heading: 'Your account has been deleted',
      paragraphs: [
        `The Metal Cards NYC account of ${u.email} was deleted at your request, together with its profile, images, cards and statistics.`,
        'Past orders are kept for our business records without your name or contact details.',
        'You are welcome back any time: the address can be used to sign up again.',
      ],
      button: { label: 'Visit Metal Cards NYC', url: `${origin}/` },
    });
    await enqueueEmail(tx, { dedupeKey: `account-deleted:${u.id}`, kind: 'account-deleted', to: u.email, subject: 'Your Metal Cards NYC account has been deleted', text, html });

    // sessions, reset links and e-mail changes go with the user row (on delete cascade)
    await deleteUserRow(tx, u.id);
    return { keys, profileGone, deletedTeamId };
  });
  const { keys, profileGone, deletedTeamId } = removed;
  // the public page (cached on every instance) answers 404 from now on
  profileGone.afterCommit(ctx);
  if (deletedTeamId) teamPagesChanged(ctx, deletedTeamId);

  // the bytes are removed once the rows are gone; a failure leaves an orphan file, never a broken row
  for (const key of keys) {
    try {
      await ctx.storage.delete(key);
    } catch (err: any) {
      ctx.log.warn({ key, err: err?.message }, 'could not delete a stored file of a deleted account');
    }
  }
  ctx.outbox.kick();
  return { deletedFiles: keys.length };
}
