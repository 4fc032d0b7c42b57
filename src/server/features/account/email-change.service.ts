import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { emailChanges } from '#server/db/schema/account';
import { users } from '#server/db/schema/auth';
import { badRequest, conflict } from '#server/http/http-errors';
import { randomToken, sha256Hex } from '#server/infra/crypto';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { findUserByEmail, setProvenEmail } from '#server/features/auth/public-api';
import { ACCOUNT_MESSAGES, EMAIL_CHANGE_TTL_HOURS } from '#shared/schemas/account';
import { EMAIL_CHANGE_LIMIT, normEmail, checkCurrentPassword } from './account-guards';

/** Stores a pending change and mails a confirmation link to the new address; nothing changes until it is opened. */
export async function requestEmailChange(ctx: AppContext, userId: string, newEmail: string, currentPassword: string, origin: string) {
  const u = await checkCurrentPassword(ctx, userId, currentPassword, 'currentPassword');
  const email = newEmail.trim();
  if (normEmail(email) === normEmail(u.email)) throw badRequest(ACCOUNT_MESSAGES.emailSame, { newEmail: ACCOUNT_MESSAGES.emailSame });
  const other = await findUserByEmail(ctx, email);
  if (other && other.id !== u.id) throw conflict(ACCOUNT_MESSAGES.emailTaken, { newEmail: ACCOUNT_MESSAGES.emailTaken });
  await enforceRateLimit(ctx.rateLimiter, `account:email-change:${u.id}`, EMAIL_CHANGE_LIMIT.limit, EMAIL_CHANGE_LIMIT.windowSeconds, 'Too many email change requests. Please try again later.');

  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_HOURS * 3600_000);
  await ctx.db.transaction(async (tx) => {
    // only the latest request can be confirmed
    await tx.update(emailChanges).set({ usedAt: sql`now()` }).where(and(eq(emailChanges.userId, u.id), isNull(emailChanges.usedAt)));
    const [row] = await tx.insert(emailChanges).values({ userId: u.id, newEmail: email, tokenHash: sha256Hex(token), expiresAt }).returning({ id: emailChanges.id });
    const confirm = renderEmail({
      preheader: 'Confirm your new email address',
      heading: 'Confirm your new email address',
      paragraphs: [
        `Someone signed in to the Metal Cards NYC account of ${u.email} asked to use ${email} from now on.`,
        `Open the link below to confirm. It works once, for ${EMAIL_CHANGE_TTL_HOURS} hours. Until then the account keeps its current address.`,
        'If you did not ask for this, ignore this e-mail.',
      ],
      button: { label: 'Confirm new email', url: `${origin}/confirm-email?token=${token}` },
    });
    await enqueueEmail(tx, { dedupeKey: `email-change:${row.id}`, kind: 'email-change', to: email, subject: 'Confirm your new Metal Cards NYC email address', text: confirm.text, html: confirm.html });
    const notice = renderEmail({
      preheader: 'A change of your email address was requested',
      heading: 'Email change requested',
      paragraphs: [
        `A change of your Metal Cards NYC account's email address to ${email} was requested from your account settings.`,
        'It takes effect only once the new address is confirmed. If this was not you, change your password right away.',
      ],
      button: { label: 'Reset password', url: `${origin}/forgot-password` },
    });
    await enqueueEmail(tx, { dedupeKey: `email-change-notice:${row.id}`, kind: 'email-change-notice', to: u.email, subject: 'Your Metal Cards NYC email address is about to change', text: notice.text, html: notice.html });
  });
  ctx.outbox.kick();
  return { pendingEmail: email };
}

/** Spends an e-mail change token (once) and switches the account to the new address. */
export async function confirmEmailChange(ctx: AppContext, token: string) {
  const invalid = () => badRequest(ACCOUNT_MESSAGES.emailLinkInvalid, { token: ACCOUNT_MESSAGES.emailLinkInvalid });
  try {
    const result = await ctx.db.transaction(async (tx) => {
      const [spent] = await tx
        .update(emailChanges)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailChanges.tokenHash, sha256Hex(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, sql`now()`)))
        .returning();
      if (!spent) return null;
      const taken = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${normEmail(spent.newEmail)}`, ne(users.id, spent.userId)))
        .limit(1);
      if (taken.length) throw conflict(ACCOUNT_MESSAGES.emailTaken, { token: ACCOUNT_MESSAGES.emailTaken });
      // the link proves the new address (issue 19): it is verified, and ADMIN_EMAILS may apply to it
      return setProvenEmail(ctx, tx, spent.userId, spent.newEmail);
    });
    if (!result) throw invalid();
    return result;
  } catch (e: any) {
    // two accounts racing for the same address: the unique index decides
    if (e?.code === '23505' || /unique/i.test(String(e?.message)) || e?.cause?.code === '23505') {
      throw conflict(ACCOUNT_MESSAGES.emailTaken, { token: ACCOUNT_MESSAGES.emailTaken });
    }
    throw e;
  }
}

/** The account's pending e-mail change (if any), for the settings page. */
export async function pendingEmailChange(ctx: AppContext, userId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ newEmail: emailChanges.newEmail })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, sql`now()`)))
    .orderBy(sql`${emailChanges.createdAt} desc`)
    .limit(1);
  return row?.newEmail ?? null;
}
