import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { sessions, users } from '#server/db/schema/auth';
import { isListedAdmin } from './email-verification.service';

/**
 * The writes other features make to accounts (issue 34, decision 34-05): `users` and `sessions`
 * belong to auth, so account settings, team invitations and order claims change them through
 * these verbs, in the caller's transaction.
 */

/** A new password; with `proveEmail` (a reset link reached the mailbox) the address counts as verified. */
export async function setPasswordHash(tx: Db | Tx, userId: string, passwordHash: string, opts: { proveEmail?: boolean } = {}) {
  const [u] = await tx
    .update(users)
    .set({ passwordHash, ...(opts.proveEmail ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` } : {}), updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return u ?? null;
}

/** A confirmed e-mail change: the new address is proven, and ADMIN_EMAILS may apply to it. */
export async function setProvenEmail(ctx: AppContext, tx: Tx, userId: string, email: string) {
  const [u] = await tx
    .update(users)
    .set({ email, emailVerifiedAt: new Date(), ...(isListedAdmin(ctx, email) ? { role: 'admin' } : {}), updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return u ?? null;
}

/**
 * A link sent to the account's address was opened (a team invitation, an order's claim link): the
 * address is proven. `touch` also moves `updated_at` (the claim does, the invitation never did).
 */
export async function markEmailProven(tx: Db | Tx, userId: string, opts: { touch?: boolean } = {}): Promise<void> {
  if (opts.touch) {
    await tx.update(users).set({ emailVerifiedAt: new Date(), updatedAt: new Date() }).where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
  } else {
    await tx.update(users).set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, userId));
  }
}

/** Every session of the account ends (a password reset). */
export async function endAllSessions(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
}

/** The account's row goes; sessions, reset links and e-mail changes go with it (on delete cascade). */
export async function deleteUserRow(tx: Tx, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}
