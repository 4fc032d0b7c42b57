import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { users } from '#server/db/schema/auth';
import { badRequest, forbidden, notFound } from '#server/http/http-errors';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { OWNER_PROOF_MESSAGES } from '#shared/schemas/auth';
import { LOGIN_ACCOUNT_FAILURES, verifyPassword } from './auth.service';

/** Password checks of a signed-in account (re-authentication, account changes), per account. */
export const PASSWORD_CHECK_LIMIT = { limit: 10, windowSeconds: 15 * 60 };

/** The login failure counter of an address: a wrong password anywhere counts toward it. */
export const loginFailureKey = (email: string) => `login:fail:${email.trim().toLowerCase()}`;

/**
 * Checks the account's password again for a signed-in caller. Attempts are limited per account
 * (PASSWORD_CHECK_LIMIT), and a wrong password counts toward the account's login failure limit
 * (a session thief guessing here locks the account as a login guesser would). A wrong password is
 * a 400 on `field`.
 */
export async function checkAccountPassword(ctx: AppContext, userId: string, password: string, field: string, wrongMessage: string) {
  await enforceRateLimit(
    ctx.rateLimiter,
    `account:verify:${userId}`,
    PASSWORD_CHECK_LIMIT.limit,
    PASSWORD_CHECK_LIMIT.windowSeconds,
    'Too many password attempts. Please wait a few minutes and try again.',
  );
  const [u] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound('Account not found');
  const failures = loginFailureKey(u.email);
  if ((await ctx.rateLimiter.peek(failures)) >= LOGIN_ACCOUNT_FAILURES.limit) {
    await enforceRateLimit(ctx.rateLimiter, failures, LOGIN_ACCOUNT_FAILURES.limit, LOGIN_ACCOUNT_FAILURES.windowSeconds, 'Too many failed attempts for this account. Please try again later.');
  }
  if (!(await verifyPassword(u.passwordHash, password))) {
    await ctx.rateLimiter.hit(failures, LOGIN_ACCOUNT_FAILURES.limit, LOGIN_ACCOUNT_FAILURES.windowSeconds);
    throw badRequest(wrongMessage, { [field]: wrongMessage });
  }
  return u;
}

/**
 * Proof that the caller is the account's current, proven owner before lasting access (an API
 * token, a webhook endpoint) is handed out (issue 33, decision 33-01): the address is verified
 * (403 otherwise, before any password attempt is spent) and the password is entered again.
 */
export async function proveOwner(ctx: AppContext, userId: string, password: string) {
  const [v] = await ctx.db.select({ verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!v) throw notFound('Account not found');
  if (!v.verifiedAt) throw forbidden(OWNER_PROOF_MESSAGES.verifyFirst);
  return checkAccountPassword(ctx, userId, password, 'password', OWNER_PROOF_MESSAGES.wrongPassword);
}
