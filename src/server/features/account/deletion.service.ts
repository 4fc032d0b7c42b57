import { eq, inArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { cards, files, orders, profiles, rateLimits, users } from '#server/db/schema/index';
import { randomToken } from '#server/infra/crypto';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { invalidatePublicProfile } from '#server/features/profile/public-api';
import { normEmail, checkCurrentPassword } from './account-guards';

const ANONYMIZED_NAME = 'Deleted customer';


/**
 * Deletes the account after checking its password: profile (and with it links, visits, clicks,
 * contact saves, leads, card codes), cards, the stored files it owns, sessions and tokens are removed; orders
 * stay for the business's records with the customer's personal fields blanked and `anonymized_at`
 * set. The e-mail address is free to register again afterwards.
 */
export async function deleteAccount(ctx: AppContext, userId: string, password: string, origin: string) {
  const u = await checkCurrentPassword(ctx, userId, password, 'password');

  const removed = await ctx.db.transaction(async (tx) => {
    const [profile] = await tx.select().from(profiles).where(eq(profiles.userId, u.id)).limit(1);
    // only files this account owns (issue 19): a URL in one of its records proves nothing, since
    // another account's file could have been referenced there
    const fileRows = await tx.select({ key: files.key }).from(files).where(eq(files.userId, u.id));

    await tx
      .update(orders)
      .set({
        userId: null,
        customerName: ANONYMIZED_NAME,
        email: '',
        phone: null,
        companyName: null,
        position: null,
        address: null,
        specialRequests: null,
        artworkUrl: null,
        checkoutUrl: null,
        idempotencyKey: null,
        // the old status link (sent by e-mail) stops working
        statusToken: sql`${randomToken(24)} || '-' || ${orders.id}::text`,
        anonymizedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(orders.userId, u.id));

    await tx.delete(cards).where(profile ? or(eq(cards.userId, u.id), eq(cards.profileId, profile.id)) : eq(cards.userId, u.id));
    if (fileRows.length) await tx.delete(files).where(inArray(files.key, fileRows.map((f) => f.key)));
    if (profile) await tx.delete(profiles).where(eq(profiles.id, profile.id));
    await tx.delete(rateLimits).where(eq(rateLimits.key, `login:fail:${normEmail(u.email)}`));

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
    await tx.delete(users).where(eq(users.id, u.id));
    return { keys: fileRows.map((f) => f.key), profileId: profile?.id ?? null };
  });
  const { keys, profileId } = removed;
  // the public page (cached in this process) answers 404 from now on
  if (profileId) invalidatePublicProfile(ctx, profileId);

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
