import { and, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { teamInvites, teamMembers, teams } from '#server/db/schema/team';
import { templates } from '#server/db/schema/templates';
import { badRequest, conflict, forbidden, notFound } from '#server/http/http-errors';
import { assertFilesOwned } from '#server/infra/file-ownership';
import { memberPageChanged, teamPagesChanged } from '#server/features/profile/public-api';
import { deactivateCodesOfTeam } from '#server/features/engagement/public-api';
import { brandOf, type TeamBrand } from '#shared/team/brand';
import { TEAM_MESSAGES, type TeamBrandBody, type TeamCreateBody, type TeamInfo, type TeamRole, type TeamUpdateBody, type TeamView } from '#shared/schemas/team';

type TeamRow = typeof teams.$inferSelect;

/** The caller's place in a team (what every team route starts from). */
export interface Membership {
  team: TeamRow;
  role: TeamRole;
  userId: string;
}

export async function membershipOf(db: Db | Tx, userId: string): Promise<Membership | null> {
  const [row] = await db
    .select({ team: teams, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .limit(1);
  return row ? { team: row.team, role: row.role as TeamRole, userId } : null;
}

/**
 * The caller's team, when their role is one of `roles` (404 "You are not in a team" without one;
 * 403 when the role does not allow it). Checked on the server for every team route, whatever the
 * client shows.
 */
export async function requireRole(ctx: AppContext, userId: string, roles: readonly TeamRole[]): Promise<Membership> {
  const m = await membershipOf(ctx.db, userId);
  if (!m) throw notFound(TEAM_MESSAGES.noTeam);
  if (!roles.includes(m.role)) throw forbidden(TEAM_MESSAGES.forbidden);
  return m;
}

export const MANAGERS = ['owner', 'admin'] as const;
export const EVERYONE = ['owner', 'admin', 'member'] as const;

export function toTeamInfo(t: TeamRow): TeamInfo {
  return {
    id: t.id,
    name: t.name,
    companyName: t.companyName,
    companyEmail: t.companyEmail,
    companyPhone: t.companyPhone,
    address: t.address,
    website: t.website,
    brand: brandOf(t.brand),
    createdAt: t.createdAt.toISOString(),
  };
}

async function memberCount(db: Db | Tx, teamId: string): Promise<number> {
  const [r] = await db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return Number(r?.n ?? 0);
}

/** GET /api/team */
export async function getTeamView(ctx: AppContext, userId: string): Promise<TeamView> {
  const m = await membershipOf(ctx.db, userId);
  if (!m) return { team: null, role: null, memberCount: 0 };
  return { team: toTeamInfo(m.team), role: m.role, memberCount: await memberCount(ctx.db, m.team.id) };
}

/** Unique violation of the one-team-per-user rule. */
function isOneTeamViolation(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return (err?.code ?? err?.cause?.code) === '23505' && String(err?.constraint ?? err?.cause?.constraint ?? '').includes('team_members');
}

/** POST /api/team: the caller creates a team and becomes its owner (409 when already in one). */
export async function createTeam(ctx: AppContext, userId: string, body: z.output<typeof TeamCreateBody>): Promise<TeamView> {
  if (await membershipOf(ctx.db, userId)) throw conflict(TEAM_MESSAGES.alreadyInTeam);
  try {
    await ctx.db.transaction(async (tx) => {
      const [team] = await tx
        .insert(teams)
        .values({
          name: body.name,
          companyName: body.companyName ?? body.name,
          companyEmail: body.companyEmail ?? null,
          companyPhone: body.companyPhone ?? null,
          address: body.address ?? null,
          website: body.website ?? null,
          brand: brandOf({}),
          createdBy: userId,
        })
        .returning();
      await tx.insert(teamMembers).values({ teamId: team.id, userId, role: 'owner' });
    });
  } catch (e) {
    if (isOneTeamViolation(e)) throw conflict(TEAM_MESSAGES.alreadyInTeam);
    throw e;
  }
  await memberPageChanged(ctx, userId);
  return getTeamView(ctx, userId);
}

/** The company fields a body sets (absent: unchanged). */
function companyValues(body: Partial<z.output<typeof TeamUpdateBody>>) {
  const out: Partial<typeof teams.$inferInsert> = {};
  for (const k of ['name', 'companyName', 'companyEmail', 'companyPhone', 'address', 'website'] as const) {
    if (body[k] !== undefined) (out as Record<string, unknown>)[k] = body[k];
  }
  return out;
}

/** PATCH /api/team (owner or admin): name and company details; every member's page follows. */
export async function updateTeam(ctx: AppContext, userId: string, body: z.output<typeof TeamUpdateBody>): Promise<TeamView> {
  const m = await requireRole(ctx, userId, MANAGERS);
  await ctx.db.update(teams).set({ ...companyValues(body), updatedAt: new Date() }).where(eq(teams.id, m.team.id));
  teamPagesChanged(ctx, m.team.id);
  return getTeamView(ctx, userId);
}

/**
 * PUT /api/team/brand (owner or admin): the whole brand. The logo must be an upload of the
 * caller's; the card template one that exists and is switched on. Every member's public page shows
 * the change at once, on every instance (the change feed drops their cached pages).
 */
export async function saveBrand(ctx: AppContext, userId: string, body: z.output<typeof TeamBrandBody>): Promise<TeamView> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const current = brandOf(m.team.brand);
  // a logo already in the brand may stay (another admin uploaded it); a new one must be the caller's
  if (body.logoUrl && body.logoUrl !== current.logoUrl) await assertFilesOwned(ctx.db, { userId }, { logoUrl: body.logoUrl });
  if (body.templateId !== null) {
    const [t] = await ctx.db.select({ active: templates.isActive }).from(templates).where(eq(templates.id, body.templateId)).limit(1);
    if (!t?.active) throw badRequest('This template is not available', { templateId: 'This template is not available' });
  }
  const brand: TeamBrand = {
    logoUrl: body.logoUrl,
    primaryColor: body.primaryColor.toLowerCase(),
    accentColor: body.accentColor.toLowerCase(),
    profileLayout: body.profileLayout,
    templateId: body.templateId,
    lockedFields: [...new Set(body.lockedFields)],
  };
  await ctx.db
    .update(teams)
    .set({ ...companyValues(body), brand, updatedAt: new Date() })
    .where(eq(teams.id, m.team.id));
  teamPagesChanged(ctx, m.team.id);
  return getTeamView(ctx, userId);
}

/** POST /api/team/transfer (owner): another member becomes the owner; the old owner an admin. */
export async function transferOwnership(ctx: AppContext, userId: string, toUserId: string): Promise<TeamView> {
  const m = await requireRole(ctx, userId, ['owner']);
  if (toUserId === userId) throw badRequest('You already own this team', { userId: 'Choose another member' });
  await ctx.db.transaction(async (tx) => {
    const moved = await tx
      .update(teamMembers)
      .set({ role: 'owner' })
      .where(and(eq(teamMembers.teamId, m.team.id), eq(teamMembers.userId, toUserId)))
      .returning({ userId: teamMembers.userId });
    if (!moved.length) throw notFound('Member not found');
    await tx.update(teamMembers).set({ role: 'admin' }).where(and(eq(teamMembers.teamId, m.team.id), eq(teamMembers.userId, userId)));
  });
  return getTeamView(ctx, userId);
}

/**
 * DELETE /api/team (owner): the team is gone. Members keep their accounts, profiles and leads (the
 * team's leads go back to the members who collected them); the team's card codes are turned off
 * (with no company left to show, a scan shows the plain "no longer active" page).
 */
export async function deleteTeam(ctx: AppContext, userId: string): Promise<void> {
  const m = await requireRole(ctx, userId, ['owner']);
  const members = await ctx.db.select({ userId: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, m.team.id));
  await ctx.db.transaction(async (tx) => {
    await deactivateCodesOfTeam(tx, m.team.id);
    await tx.delete(teams).where(eq(teams.id, m.team.id));
  });
  teamPagesChanged(ctx, m.team.id);
  for (const member of members) await memberPageChanged(ctx, member.userId);
}

/** Members plus open invitations (the team's seats). */
export async function seatsTaken(db: Db | Tx, teamId: string): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(teamInvites)
    .where(and(eq(teamInvites.teamId, teamId), sql`${teamInvites.acceptedAt} is null`, sql`${teamInvites.revokedAt} is null`, sql`${teamInvites.expiresAt} > now()`));
  return (await memberCount(db, teamId)) + Number(r?.n ?? 0);
}
