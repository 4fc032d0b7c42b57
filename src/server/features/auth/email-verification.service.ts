import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { VERIFY_EMAIL_TTL_HOURS, VERIFY_MESSAGES, VERIFY_RESEND_SECONDS } from '#shared/auth-rules';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { emailVerifications, users } from '#server/db/schema/auth';
import { badRequest, conflict, notFound } from '#server/http/http-errors';
import { randomToken, sha256Hex } from '#server/infra/crypto';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';

type UserRow = typeof users.$inferSelect;

/** "Resend" presses per account: one a minute, five an hour. */
export const RESEND_LIMITS = [
  { limit: 1, windowSeconds: VERIFY_RESEND_SECONDS },
  { limit: 5, windowSeconds: 3600 },
];

const norm = (email: string) => email.trim().toLowerCase();

/** True when the address is listed in ADMIN_EMAILS (the role is granted only once it is verified). */
export function isListedAdmin(ctx: AppContext, email: string) {
  return ctx.config.ADMIN_EMAILS.includes(norm(email));
}

/**
 * Makes a new single-use link for the account's current address and queues its e-mail, in the
 * caller's transaction. Earlier links of the account stop working: only the latest one counts.
 */
export async function queueVerificationEmail(tx: Db | Tx, user: Pick<UserRow, 'id' | 'email'>, origin: string) {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + VERIFY_EMAIL_TTL_HOURS * 3600_000);
  await tx.update(emailVerifications).set({ usedAt: sql`now()` }).where(and(eq(emailVerifications.userId, user.id), isNull(emailVerifications.usedAt)));
  const [row] = await tx
    .insert(emailVerifications)
    .values({ userId: user.id, email: user.email, tokenHash: sha256Hex(token), expiresAt })
    .returning({ id: emailVerifications.id });
  const { text, html } = renderEmail({
    preheader: 'Verify your email address',
    heading: 'Verify your email address',
    paragraphs: [
      `Welcome to Metal Cards NYC! Please confirm that ${user.email} is your address.`,
      `Open the link below and press the button. It works once, for ${VERIFY_EMAIL_TTL_HOURS} hours.`,
      'If you did not sign up, ignore this e-mail.',
    ],
    button: { label: 'Verify email address', url: `${origin.replace(/\/+$/, '')}/confirm-email?verify=${token}` },
  });
  await enqueueEmail(tx, { dedupeKey: `verify-email:${row.id}`, kind: 'verify-email', to: user.email, subject: 'Verify your Metal Cards NYC email address', text, html });
}

/** Sends a new link to a signed-in account that is not verified yet; throttled per account. */
export async function resendVerificationEmail(ctx: AppContext, userId: string, origin: string) {
  const [u] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound('Account not found');
  if (u.emailVerifiedAt) throw conflict(VERIFY_MESSAGES.already);
  for (const l of RESEND_LIMITS) {
    await enforceRateLimit(ctx.rateLimiter, `verify-resend:${l.windowSeconds}:${u.id}`, l.limit, l.windowSeconds, VERIFY_MESSAGES.tooSoon);
  }
  await ctx.db.transaction((tx) => queueVerificationEmail(tx, u, origin));
  ctx.outbox.kick();
}

/**
 * Spends a verification link (once, within its lifetime, and only for the address the account
 * still has) and marks the address verified. An address listed in ADMIN_EMAILS gets the admin role
 * here, and only here or at a later login once verified.
 */
export async function verifyEmailToken(ctx: AppContext, token: string): Promise<UserRow> {
  const invalid = () => badRequest(VERIFY_MESSAGES.invalid, { token: VERIFY_MESSAGES.invalid });
  const user = await ctx.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(emailVerifications)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailVerifications.tokenHash, sha256Hex(token)), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, sql`now()`)))
      .returning();
    if (!spent) return null;
    const [u] = await tx.select().from(users).where(eq(users.id, spent.userId)).limit(1);
    // the account changed its address since: this link proves nothing about the new one
    if (!u || norm(u.email) !== norm(spent.email)) return null;
    const [updated] = await tx
      .update(users)
      .set({
        emailVerifiedAt: u.emailVerifiedAt ?? new Date(),
        ...(isListedAdmin(ctx, u.email) ? { role: 'admin' } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, u.id))
      .returning();
    return updated ?? null;
  });
  if (!user) throw invalid();
  return user;
}
