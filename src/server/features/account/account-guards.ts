import type { AppContext } from '#server/context';
import { checkAccountPassword } from '#server/features/auth/public-api';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';

/** What every account verb shares: rate limits and the current-password check (attempts limited per account: auth's PASSWORD_CHECK_LIMIT). */

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

/** The current password of a signed-in account (a wrong one counts toward the login failure limit). */
export async function checkCurrentPassword(ctx: AppContext, userId: string, password: string, field: string) {
  return checkAccountPassword(ctx, userId, password, field, ACCOUNT_MESSAGES.wrongPassword);
}
