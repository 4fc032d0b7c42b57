import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { users } from '#server/db/schema/index';
import { badRequest, notFound } from '#server/http/http-errors';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { verifyPassword } from '#server/features/auth/public-api';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';

/** What every account verb shares: rate limits and the current-password check. */

/** Attempts at the current password (change password, change e-mail, delete) per account. */
export const VERIFY_LIMIT = { limit: 10, windowSeconds: 15 * 60 };
/** Reset e-mails per address; over it the answer stays the same but nothing is sent. */
export const FORGOT_PER_EMAIL = { limit: 3, windowSeconds: 3600 };
/** Public form rate (per IP) from the guide. */
export const PUBLIC_FORM_LIMIT = { limit: 5, windowSeconds: 60 };
/** Token-spending calls (reset, confirm e-mail) per IP. */
export const TOKEN_LIMIT = { limit: 10, windowSeconds: 15 * 60 };
/** E-mail change requests per account. */
export const EMAIL_CHANGE_LIMIT = { limit: 5, windowSeconds: 3600 };
/** Forgot-password answers take at least this long, so timing does not tell whether an account exists. */
export const FORGOT_MIN_MS = 250;


export function normEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function checkCurrentPassword(ctx: AppContext, userId: string, password: string, field: string) {
  await enforceRateLimit(
    ctx.rateLimiter,
    `account:verify:${userId}`,
    VERIFY_LIMIT.limit,
    VERIFY_LIMIT.windowSeconds,
    'Too many password attempts. Please wait a few minutes and try again.',
  );
  const [u] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound('Account not found');
  if (!(await verifyPassword(u.passwordHash, password))) {
    throw badRequest(ACCOUNT_MESSAGES.wrongPassword, { [field]: ACCOUNT_MESSAGES.wrongPassword });
  }
  return u;
}
