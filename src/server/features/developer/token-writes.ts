import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { apiTokens } from '#server/db/schema/developer';

/**
 * Ends API tokens for good (revoked, never suspended), in the caller's transaction: every live
 * token the user created, or with `teamId` only the ones they created for that team (issue 33).
 * Account settings (password reset or change) and teams (a person stops running the team) call it.
 */
export async function revokeTokens(tx: Db | Tx, of: { userId: string; teamId?: string }, reason: string): Promise<number> {
  const rows = await tx
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(...(of.teamId ? [eq(apiTokens.teamId, of.teamId)] : []), eq(apiTokens.userId, of.userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length;
}
