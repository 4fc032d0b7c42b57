import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { passwordResets } from '#server/db/schema/account';
import { users } from '#server/db/schema/auth';
import { badRequest } from '#server/http/http-errors';
import { randomToken, sha256Hex } from '#server/infra/crypto';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { assertPasswordAllowed, endAllSessions, endOtherSessions, findUserByEmail, hashPassword, setPasswordHash } from '#server/features/auth/public-api';
import { ACCOUNT_MESSAGES, RESET_TOKEN_TTL_MINUTES } from '#shared/schemas/account';
import { FORGOT_PER_EMAIL, normEmail, checkCurrentPassword } from './account-guards';
import { endAccountAccess } from './account-access';

function passwordChangedEmail(to: string, origin: string, how: 'reset' | 'change', ended: { tokens: number; endpoints: number } | null) {
  return renderEmail({
    preheader: 'Your password was changed',
    heading: 'Your password was changed',
    paragraphs: [
      how === 'reset'
        ? `The password of your Metal Cards NYC account (${to}) was just reset with a link sent to this address.`
        : `The password of your Metal Cards NYC account (${to}) was just changed from your account settings.`,
      'Every other device signed in to your account has been signed out.',
      ...(ended && (ended.tokens || ended.endpoints)
        ? [
            `With it, ${ended.tokens} API token${ended.tokens === 1 ? ' was' : 's were'} revoked and ${ended.endpoints} webhook endpoint${ended.endpoints === 1 ? ' was' : 's were'} disabled. Create new tokens you need, and enable the endpoints you recognise again in your account settings.`,
          ]
        : []),
      'If this was not you, reset your password right away and contact us.',
    ],
    button: { label: 'Reset password', url: `${origin}/forgot-password` },
  });
}


/**
 * Sends a reset link when the address belongs to an account. Always resolves the same way
 * (the caller answers the same message for every address) and sends at most
 * FORGOT_PER_EMAIL reset e-mails per address per hour.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, origin: string): Promise<void> {
  const key = `forgot:email:${sha256Hex(normEmail(email))}`;
  const r = await ctx.rateLimiter.hit(key, FORGOT_PER_EMAIL.limit, FORGOT_PER_EMAIL.windowSeconds);
  if (!r.allowed) return;
  const user = await findUserByEmail(ctx, email);
  if (!user) return;
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(passwordResets).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt }).returning({ id: passwordResets.id });
    const { text, html } = renderEmail({
      preheader: 'Reset the password of your Metal Cards NYC account',
      heading: 'Reset your password',
      paragraphs: [
        `We received a request to reset the password of the Metal Cards NYC account for ${user.email}.`,
        'Open the link below to choose a new password. It works once, for 1 hour.',
        'If you did not ask for this, ignore this e-mail: your password stays the same.',
      ],
      button: { label: 'Choose a new password', url: `${origin}/reset-password?token=${token}` },
    });
    await enqueueEmail(tx, {
      dedupeKey: `password-reset:${row.id}`,
      kind: 'password-reset',
      to: user.email,
      subject: 'Reset your Metal Cards NYC password',
      text,
      html,
    });
  });
  ctx.outbox.kick();
}

/** Spends a reset token (once), sets the new password and ends every session of the account. */
export async function resetPassword(ctx: AppContext, token: string, password: string, origin: string) {
  const tokenHash = sha256Hex(token);
  const invalid = () => badRequest(ACCOUNT_MESSAGES.resetInvalid, { token: ACCOUNT_MESSAGES.resetInvalid });
  // cheap check first, so a junk token never costs an argon2 hash
  const [pending] = await ctx.db
    .select({ id: passwordResets.id, email: users.email, username: users.username })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .limit(1);
  if (!pending) throw invalid();
  assertPasswordAllowed(password, pending);
  const passwordHash = await hashPassword(password);

  const user = await ctx.db.transaction(async (tx) => {
    // the guarded update is what makes the token single-use, even for two requests at once
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.id, pending.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
      .returning({ userId: passwordResets.userId });
    if (!spent) return null;
    // the link reached this mailbox: the address is proven
    const u = await setPasswordHash(tx, spent.userId, passwordHash, { proveEmail: true });
    if (!u) return null;
    // every other reset link of the account dies with this one
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, u.id), isNull(passwordResets.usedAt)));
    await endAllSessions(tx, u.id);
    // whoever held the account before the mailbox's owner took it back keeps no token or webhook (issue 33)
    const ended = await endAccountAccess(tx, u.id, 'reset');
    const { text, html } = passwordChangedEmail(u.email, origin, 'reset', ended);
    await enqueueEmail(tx, { dedupeKey: `password-changed:reset:${pending.id}`, kind: 'password-changed', to: u.email, subject: 'Your Metal Cards NYC password was changed', text, html });
    return u;
  });
  if (!user) throw invalid();
  // whoever holds the mailbox may sign in again at once
  await ctx.rateLimiter.reset(`login:fail:${normEmail(user.email)}`);
  ctx.outbox.kick();
  return user;
}



/** Changes the password; with `revokeAccess` (the default) every API token and webhook endpoint of the account ends too (issue 33). */
export async function changePassword(
  ctx: AppContext,
  userId: string,
  sessionId: string | null,
  input: { currentPassword: string; newPassword: string; revokeAccess: boolean },
  origin: string,
) {
  const u = await checkCurrentPassword(ctx, userId, input.currentPassword, 'currentPassword');
  assertPasswordAllowed(input.newPassword, u, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await setPasswordHash(tx, u.id, passwordHash);
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, u.id), isNull(passwordResets.usedAt)));
    const ended = input.revokeAccess ? await endAccountAccess(tx, u.id, 'change') : null;
    const { text, html } = passwordChangedEmail(u.email, origin, 'change', ended);
    await enqueueEmail(tx, { dedupeKey: `password-changed:${u.id}:${randomToken(8)}`, kind: 'password-changed', to: u.email, subject: 'Your Metal Cards NYC password was changed', text, html });
  });
  await endOtherSessions(ctx, u.id, sessionId);
  ctx.outbox.kick();
}
