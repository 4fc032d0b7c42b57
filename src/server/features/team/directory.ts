import { and, eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { profiles } from '#server/db/schema/profile';
import { teamMembers, teams } from '#server/db/schema/team';
import { applyTeamLook, createProfile, memberPageChanged } from '#server/features/profile/public-api';
import { deactivateTeamCodes } from '#server/features/engagement/public-api';
import { revokeTokens } from '#server/features/developer/public-api';
import { brandOf } from '#shared/team/brand';
import { ProfileSaveBody, type ProfileSaveBodyInput } from '#shared/schemas/profile';
import { TEAM_LIMITS, type TeamRole } from '#shared/schemas/team';
import { membershipOf, seatsTaken } from './team.service';

/**
 * The team verbs of directory provisioning (SCIM, issue 39, decision 39-02): the company's
 * directory adds people, changes their role and offboards them without a person clicking in the
 * team page. The checks a person's call gets from `requireRole` are the caller's (a team token
 * with the `scim` scope, bound to one team); the rules of the team stay here.
 */

export type DirectoryJoin = 'joined' | 'already' | 'other-team' | 'full';

/** The team and role of a user (null: in no team). */
export async function teamRoleOf(ctx: AppContext, userId: string): Promise<{ teamId: string; role: TeamRole } | null> {
  const m = await membershipOf(ctx.db, userId);
  return m ? { teamId: m.team.id, role: m.role } : null;
}

/** The team's members and since when (the audit log shows a member's own events from then on). */
export async function teamMembersSince(ctx: AppContext, teamId: string): Promise<Array<{ userId: string; joinedAt: Date }>> {
  return ctx.db.select({ userId: teamMembers.userId, joinedAt: teamMembers.joinedAt }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
}

/**
 * Adds a user to the team as a member (the directory provisioned them). A user in another team is
 * refused ('other-team'), a full team too. Without a profile, one is made from `profile` in the
 * team's layout; the team's look applies either way.
 */
export async function addDirectoryMember(ctx: AppContext, teamId: string, userId: string, profile: ProfileSaveBodyInput | null): Promise<DirectoryJoin> {
  const m = await membershipOf(ctx.db, userId);
  if (m) return m.team.id === teamId ? 'already' : 'other-team';
  if ((await seatsTaken(ctx.db, teamId)) >= TEAM_LIMITS.maxMembers) return 'full';
  const inserted = await ctx.db.insert(teamMembers).values({ teamId, userId, role: 'member' }).onConflictDoNothing().returning({ userId: teamMembers.userId });
  if (!inserted.length) return (await membershipOf(ctx.db, userId))?.team.id === teamId ? 'already' : 'other-team';
  const [team] = await ctx.db.select({ brand: teams.brand }).from(teams).where(eq(teams.id, teamId)).limit(1);
  const brand = brandOf(team?.brand);
  const [existing] = await ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  if (!existing && profile) {
    const body = ProfileSaveBody.safeParse({ ...profile, profileTemplate: brand.profileLayout ?? undefined });
    // the membership stands either way: without a profile the member makes one on /profile
    if (body.success) await createProfile(ctx, userId, body.data).catch(() => undefined);
  }
  await applyTeamLook(ctx, userId, { profileLayout: existing ? brand.profileLayout : null, templateId: brand.templateId });
  return 'joined';
}

/** Admin or member, as the directory's groups say (the owner keeps their role). */
export async function setDirectoryRole(ctx: AppContext, teamId: string, userId: string, role: 'admin' | 'member'): Promise<void> {
  const [target] = await ctx.db.select({ role: teamMembers.role }).from(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId))).limit(1);
  if (!target || target.role === 'owner' || target.role === role) return;
  await ctx.db.transaction(async (tx) => {
    await tx.update(teamMembers).set({ role }).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
    if (role === 'member') await revokeTokens(tx, { userId, teamId }, 'no longer a team admin');
  });
}

/**
 * Offboarding by the directory (deactivated or deleted), as DELETE /api/team/members/{userId}
 * does: the membership ends, the member's team card codes are turned off (a scan shows the
 * company's page), their team tokens end, the leads stay with the team. The owner is never
 * offboarded this way ('owner'); a user not in the team is left alone ('absent').
 */
export async function offboardDirectoryMember(ctx: AppContext, teamId: string, userId: string): Promise<'done' | 'owner' | 'absent'> {
  const [target] = await ctx.db.select({ role: teamMembers.role }).from(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId))).limit(1);
  if (!target) return 'absent';
  if (target.role === 'owner') return 'owner';
  const [profile] = await ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
    await revokeTokens(tx, { userId, teamId }, 'offboarded by the directory');
    if (profile) await deactivateTeamCodes(ctx, tx, teamId, profile.id);
  });
  await memberPageChanged(ctx, userId);
  return 'done';
}
