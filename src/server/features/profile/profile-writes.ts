import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Tx } from '#server/db/client';
import { profiles } from '#server/db/schema/profile';
import { invalidatePublicProfile, invalidateTeamPages } from './public-profile.cache';

/**
 * The writes other features make to a profile, and the news of changes its public page shows
 * (issue 34, decision 34-05). `profiles` belongs to profile, and every write here drops the cached
 * public page (on every instance, through the change feed): the invariant lives in this feature
 * only, so a caller cannot forget it.
 */

/** Turns the public page's contact exchange form on or off (engagement's lead settings). */
export async function setLeadFormEnabled(ctx: AppContext, profileId: string, enabled: boolean): Promise<void> {
  await ctx.db.update(profiles).set({ leadFormEnabled: enabled }).where(eq(profiles.id, profileId));
  invalidatePublicProfile(ctx, profileId);
}

/**
 * A new team member's profile takes the team's page layout and card template (when the brand sets
 * them); the member's page shows the brand at once.
 */
export async function applyTeamLook(ctx: AppContext, userId: string, look: { profileLayout: string | null; templateId: number | null }): Promise<void> {
  const [p] = await ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (p && look.profileLayout) await ctx.db.update(profiles).set({ profileTemplate: look.profileLayout }).where(eq(profiles.id, p.id));
  if (look.templateId) await ctx.db.update(profiles).set({ templateId: look.templateId }).where(eq(profiles.userId, userId));
  await memberPageChanged(ctx, userId);
}

/**
 * Deletes the user's profile in the caller's transaction (account deletion); its links, visits,
 * clicks, saves, leads and card codes go with it. Returns its id and `afterCommit`, which drops the
 * cached page: call it once the transaction has committed.
 */
export async function deleteProfileOfUser(tx: Tx, userId: string): Promise<{ profileId: string | null; afterCommit: (ctx: AppContext) => void }> {
  const [p] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (p) await tx.delete(profiles).where(eq(profiles.id, p.id));
  return { profileId: p?.id ?? null, afterCommit: (ctx) => p && invalidatePublicProfile(ctx, p.id) };
}

/** The user joined or left a team (or the team went): their public page shows the brand, or stops showing it. */
export async function memberPageChanged(ctx: AppContext, userId: string): Promise<void> {
  const [p] = await ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (p) invalidatePublicProfile(ctx, p.id);
}

/** A team's brand or company details changed (or the team went): every member's public page follows. */
export function teamPagesChanged(ctx: AppContext, teamId: string): void {
  invalidateTeamPages(ctx, teamId);
}
