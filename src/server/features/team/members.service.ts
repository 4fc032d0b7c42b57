import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { users } from '#server/db/schema/auth';
import { profiles } from '#server/db/schema/profile';
import { teamInvites, teamMembers, teams } from '#server/db/schema/team';
import { queryRows } from '#server/db/rows';
import { badRequest, conflict, forbidden, notFound } from '#server/http/http-errors';
import { randomToken, sha256Hex } from '#server/infra/crypto';
import { enqueueEmails } from '#server/infra/mail/outbox';
import { applyTeamLook, createProfile, memberPageChanged } from '#server/features/profile/public-api';
import { deactivateCodesOfTeam, deactivateTeamCodes } from '#server/features/engagement/public-api';
import { markEmailProven } from '#server/features/auth/public-api';
import { revokeTokens } from '#server/features/developer/public-api';
import { teamJoinUrl } from '#shared/routes';
import { brandOf } from '#shared/team/brand';
import { toE164 } from '#shared/profile/phone';
import { isProfileComplete, ProfileSaveBody } from '#shared/schemas/profile';
import {
  TEAM_LIMITS,
  TEAM_MESSAGES,
  type InviteInput,
  type RefusedRow,
  type TeamInvite,
  type TeamInviteReport,
  type TeamJoinInfo,
  type TeamMember,
  type TeamMemberList,
  type TeamRole,
} from '#shared/schemas/team';
import { EVERYONE, MANAGERS, membershipOf, requireRole, seatsTaken, type Membership } from './team.service';
import { teamInviteEmail } from './team-emails';

type InviteRow = typeof teamInvites.$inferSelect;
const DAY_MS = 86_400_000;

function toInvite(r: InviteRow): TeamInvite {
  return {
    id: r.id,
    email: r.email,
    fullName: r.fullName,
    jobTitle: r.jobTitle,
    role: r.role === 'admin' ? 'admin' : 'member',
    status: r.expiresAt.getTime() > Date.now() ? 'pending' : 'expired',
    sends: r.sends,
    expiresAt: r.expiresAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * GET /api/team/members: every member with role, profile completeness, team card status and last
 * activity; open invitations for owners and admins. A member sees the list without the others'
 * e-mail addresses and without invitations.
 */
export async function listMembers(ctx: AppContext, userId: string): Promise<TeamMemberList> {
  const m = await requireRole(ctx, userId, EVERYONE);
  const manager = m.role !== 'member';
  const rows = await queryRows<{
    user_id: string;
    email: string;
    first_name: string;
    last_name: string;
    username: string;
    role: string;
    joined_at: Date | string;
    profile_id: string | null;
    full_name: string | null;
    job_title: string | null;
    phone_number: string | null;
    card_status: string | null;
    card_active: boolean | null;
    last_active: Date | string | null;
  }>(
    ctx.db,
    sql`select tm.user_id, u.email, u.first_name, u.last_name, u.username, tm.role, tm.joined_at,
               p.id as profile_id, p.full_name, p.job_title, p.phone_number,
               (select c.status from cards c join orders o on o.id = c.order_id
                 where o.team_id = tm.team_id and c.user_id = tm.user_id order by c.id desc limit 1) as card_status,
               exists(select 1 from card_codes cc where cc.team_id = tm.team_id and cc.profile_id = p.id and cc.active) as card_active,
               greatest(p.updated_at, (select max(s.last_seen_at) from sessions s where s.user_id = tm.user_id)) as last_active
          from team_members tm
          join users u on u.id = tm.user_id
          left join profiles p on p.user_id = tm.user_id
         where tm.team_id = ${m.team.id}
         order by case tm.role when 'owner' then 0 when 'admin' then 1 else 2 end, lower(coalesce(p.full_name, u.first_name || ' ' || u.last_name))`,
  );
  const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : null);
  const members: TeamMember[] = rows.map((r) => ({
    userId: r.user_id,
    fullName: r.full_name || `${r.first_name} ${r.last_name}`.trim() || r.username,
    email: manager || r.user_id === userId ? r.email : '',
    jobTitle: r.job_title,
    role: r.role as TeamRole,
    profileId: r.profile_id,
    profileComplete: isProfileComplete(r.profile_id ? { fullName: r.full_name ?? '', jobTitle: r.job_title, phoneNumber: r.phone_number } : null),
    cardStatus: r.card_status === 'pending' || r.card_status === 'approved' || r.card_status === 'rejected' ? r.card_status : 'none',
    cardActive: !!r.card_active,
    lastActiveAt: iso(r.last_active),
    joinedAt: iso(r.joined_at)!,
  }));
  const invites = manager
    ? (
        await ctx.db
          .select()
          .from(teamInvites)
          .where(and(eq(teamInvites.teamId, m.team.id), isNull(teamInvites.acceptedAt), isNull(teamInvites.revokedAt)))
          .orderBy(desc(teamInvites.createdAt))
          .limit(TEAM_LIMITS.maxMembers)
      ).map(toInvite)
    : [];
  return { members, invites };
}

interface CandidateRow {
  row: number;
  input: InviteInput;
}

/**
 * Invites people (POST /api/team/invites and the CSV import): each row is invited whole or refused
 * with its reason (bad address, twice in the list, already a member, already invited, no seats
 * left). Everything accepted is written in one transaction with its e-mail, so a failure leaves
 * nothing half-imported.
 */
export async function inviteMany(
  ctx: AppContext,
  userId: string,
  candidates: CandidateRow[],
  refusedBefore: RefusedRow[],
  baseUrl: string,
): Promise<TeamInviteReport> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const refused = [...refusedBefore];
  const seen = new Set<string>();
  const unique: CandidateRow[] = [];
  for (const c of candidates) {
    const key = c.input.email.toLowerCase();
    if (seen.has(key)) refused.push({ row: c.row, email: c.input.email, reason: 'This address is listed twice' });
    else {
      seen.add(key);
      unique.push(c);
    }
  }
  const emails = unique.map((c) => c.input.email.toLowerCase());
  const members = emails.length
    ? await ctx.db
        .select({ email: sql<string>`lower(${users.email})` })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .where(and(eq(teamMembers.teamId, m.team.id), inArray(sql`lower(${users.email})`, emails)))
    : [];
  const open = emails.length
    ? await ctx.db
        .select({ email: sql<string>`lower(${teamInvites.email})`, expiresAt: teamInvites.expiresAt, id: teamInvites.id })
        .from(teamInvites)
        .where(and(eq(teamInvites.teamId, m.team.id), isNull(teamInvites.acceptedAt), isNull(teamInvites.revokedAt), inArray(sql`lower(${teamInvites.email})`, emails)))
    : [];
  const memberSet = new Set(members.map((r) => r.email));
  const openByEmail = new Map(open.map((r) => [r.email, r]));
  const accepted: CandidateRow[] = [];
  const expiredToReplace: string[] = [];
  for (const c of unique) {
    const key = c.input.email.toLowerCase();
    const invite = openByEmail.get(key);
    if (memberSet.has(key)) refused.push({ row: c.row, email: c.input.email, reason: 'Already a member of the team' });
    else if (invite && invite.expiresAt.getTime() > Date.now()) refused.push({ row: c.row, email: c.input.email, reason: 'Already invited (resend the invitation from the list)' });
    else {
      if (invite) expiredToReplace.push(invite.id);
      accepted.push(c);
    }
  }
  const free = TEAM_LIMITS.maxMembers - (await seatsTaken(ctx.db, m.team.id));
  while (accepted.length > Math.max(0, free)) {
    const c = accepted.pop()!;
    refused.push({ row: c.row, email: c.input.email, reason: `The team is full (${TEAM_LIMITS.maxMembers} people)` });
  }
  refused.sort((a, b) => a.row - b.row);

  const inviter = await ctx.db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).limit(1);
  const inviterName = inviter[0] ? `${inviter[0].firstName} ${inviter[0].lastName}`.trim() || null : null;
  const expiresAt = new Date(Date.now() + TEAM_LIMITS.inviteDays * DAY_MS);
  const tokens = accepted.map(() => randomToken(24));
  const invited = accepted.length
    ? await ctx.db.transaction(async (tx) => {
        if (expiredToReplace.length) await tx.update(teamInvites).set({ revokedAt: new Date() }).where(inArray(teamInvites.id, expiredToReplace));
        const rows: InviteRow[] = [];
        for (let i = 0; i < accepted.length; i += 200) {
          const chunk = accepted.slice(i, i + 200);
          rows.push(
            ...(await tx
              .insert(teamInvites)
              .values(
                chunk.map((c, j) => ({
                  teamId: m.team.id,
                  email: c.input.email,
                  fullName: c.input.fullName ?? null,
                  jobTitle: c.input.jobTitle ?? null,
                  phone: c.input.phone ?? null,
                  role: c.input.role,
                  tokenHash: sha256Hex(tokens[i + j]),
                  invitedBy: userId,
                  expiresAt,
                })),
              )
              .returning()),
          );
        }
        await enqueueEmails(
          tx,
          rows.map((r, i) =>
            teamInviteEmail({ inviteId: r.id, send: 1, to: r.email, fullName: r.fullName, teamName: m.team.name, inviterName, link: teamJoinUrl(baseUrl, tokens[i]), days: TEAM_LIMITS.inviteDays }),
          ),
        );
        return rows;
      })
    : [];
  if (invited.length) ctx.outbox.kick();
  return { rows: candidates.length + refusedBefore.length, invited: invited.map(toInvite), refused };
}

async function managedInvite(ctx: AppContext, userId: string, inviteId: string): Promise<{ m: Membership; invite: InviteRow }> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const [invite] = await ctx.db
    .select()
    .from(teamInvites)
    .where(and(eq(teamInvites.id, inviteId), eq(teamInvites.teamId, m.team.id), isNull(teamInvites.acceptedAt), isNull(teamInvites.revokedAt)))
    .limit(1);
  if (!invite) throw notFound('Invitation not found');
  return { m, invite };
}

/** POST /api/team/invites/{id}/resend: a new link (the old one stops working), valid 7 more days. */
export async function resendInvite(ctx: AppContext, userId: string, inviteId: string, baseUrl: string): Promise<TeamInvite> {
  const { m, invite } = await managedInvite(ctx, userId, inviteId);
  const token = randomToken(24);
  const [inviter] = await ctx.db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).limit(1);
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(teamInvites)
      .set({ tokenHash: sha256Hex(token), sends: sql`${teamInvites.sends} + 1`, expiresAt: new Date(Date.now() + TEAM_LIMITS.inviteDays * DAY_MS) })
      .where(and(eq(teamInvites.id, invite.id), isNull(teamInvites.acceptedAt), isNull(teamInvites.revokedAt)))
      .returning();
    if (!updated) throw notFound('Invitation not found');
    await enqueueEmails(tx, [
      teamInviteEmail({
        inviteId: updated.id,
        send: updated.sends,
        to: updated.email,
        fullName: updated.fullName,
        teamName: m.team.name,
        inviterName: inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() || null : null,
        link: teamJoinUrl(baseUrl, token),
        days: TEAM_LIMITS.inviteDays,
      }),
    ]);
    return updated;
  });
  ctx.outbox.kick();
  return toInvite(row);
}

/** DELETE /api/team/invites/{id}: the link stops working. */
export async function revokeInvite(ctx: AppContext, userId: string, inviteId: string): Promise<void> {
  const { invite } = await managedInvite(ctx, userId, inviteId);
  await ctx.db.update(teamInvites).set({ revokedAt: new Date() }).where(eq(teamInvites.id, invite.id));
}

export async function openInviteByToken(ctx: AppContext, token: string) {
  const [row] = await ctx.db
    .select({ invite: teamInvites, teamName: teams.name, inviterFirst: users.firstName, inviterLast: users.lastName })
    .from(teamInvites)
    .innerJoin(teams, eq(teams.id, teamInvites.teamId))
    .leftJoin(users, eq(users.id, teamInvites.invitedBy))
    .where(and(eq(teamInvites.tokenHash, sha256Hex(token)), isNull(teamInvites.acceptedAt), isNull(teamInvites.revokedAt), gt(teamInvites.expiresAt, new Date())))
    .limit(1);
  if (!row) throw notFound(TEAM_MESSAGES.inviteGone);
  return row;
}

/** GET /api/team/join/{token}: the invitation page (anyone holding the link). */
export async function joinInfo(ctx: AppContext, token: string): Promise<TeamJoinInfo> {
  const row = await openInviteByToken(ctx, token);
  return {
    teamName: row.teamName,
    email: row.invite.email,
    fullName: row.invite.fullName ?? null,
    role: row.invite.role === 'admin' ? 'admin' : 'member',
    invitedBy: `${row.inviterFirst ?? ''} ${row.inviterLast ?? ''}`.trim() || null,
    expiresAt: row.invite.expiresAt.toISOString(),
  };
}

/**
 * POST /api/team/invites/{token}/accept: the signed-in account joins the team. The account's
 * address must be the invited one (the link was sent there, so accepting also proves the mailbox).
 * A user already in a team gets 409. Without a profile, one is made from the invitation's details,
 * in the team's layout and card template.
 */
export async function acceptInvite(ctx: AppContext, user: { id: string; email: string; firstName: string; lastName: string; username: string }, token: string) {
  const row = await openInviteByToken(ctx, token);
  if (row.invite.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden(TEAM_MESSAGES.inviteOtherEmail);
  if (await membershipOf(ctx.db, user.id)) throw conflict(TEAM_MESSAGES.alreadyInTeam);
  try {
    await ctx.db.transaction(async (tx) => {
      const [taken] = await tx
        .update(teamInvites)
        .set({ acceptedAt: new Date(), acceptedBy: user.id })
        .where(and(eq(teamInvites.id, row.invite.id), isNull(teamInvites.acceptedAt), isNull(teamInvites.revokedAt)))
        .returning({ id: teamInvites.id });
      if (!taken) throw notFound(TEAM_MESSAGES.inviteGone);
      await tx.insert(teamMembers).values({ teamId: row.invite.teamId, userId: user.id, role: row.invite.role === 'admin' ? 'admin' : 'member' });
      // the link reached this mailbox: the address is proven
      await markEmailProven(tx, user.id);
    });
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string } };
    if ((err.code ?? err.cause?.code) === '23505') throw conflict(TEAM_MESSAGES.alreadyInTeam);
    throw e;
  }
  const [team] = await ctx.db.select({ brand: teams.brand }).from(teams).where(eq(teams.id, row.invite.teamId)).limit(1);
  const brand = brandOf(team?.brand);
  const [existing] = await ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, user.id)).limit(1);
  if (!existing) {
    const name = row.invite.fullName || `${user.firstName} ${user.lastName}`.trim() || user.username;
    const body = ProfileSaveBody.safeParse({
      fullName: (name.length >= 2 ? name : `${name} ${user.username}`.trim()).slice(0, 100),
      jobTitle: row.invite.jobTitle,
      email: user.email,
      // the profile stores E.164 (decision 37-09): an invitation's number that cannot be read so is left out, not the profile
      phoneNumber: row.invite.phone ? toE164(row.invite.phone) : null,
      profileTemplate: brand.profileLayout ?? undefined,
    });
    // the membership stands either way: without a profile the member makes one on /profile
    if (body.success) await createProfile(ctx, user.id, body.data).catch(() => undefined);
  }
  // a profile that was there takes the team's layout; the page shows the brand (profile's verb drops its cache)
  await applyTeamLook(ctx, user.id, { profileLayout: existing ? brand.profileLayout : null, templateId: brand.templateId });
}

/**
 * The team tokens a person created end for good when they stop running the team (issue 33): revoked,
 * not suspended, so being made an admin again does not bring them back.
 */
async function revokeTeamTokensOf(tx: Db | Tx, teamId: string, memberId: string, reason: string): Promise<void> {
  await revokeTokens(tx, { userId: memberId, teamId }, reason);
}

/** PATCH /api/team/members/{userId}: admin or member (the owner's role moves only by transfer). */
export async function changeRole(ctx: AppContext, userId: string, memberId: string, role: 'admin' | 'member'): Promise<void> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const [target] = await ctx.db.select({ role: teamMembers.role }).from(teamMembers).where(and(eq(teamMembers.teamId, m.team.id), eq(teamMembers.userId, memberId))).limit(1);
  if (!target) throw notFound('Member not found');
  if (target.role === 'owner') throw badRequest('The owner stays owner until they transfer the team', { role: 'Transfer the ownership first' });
  await ctx.db.transaction(async (tx) => {
    await tx.update(teamMembers).set({ role }).where(and(eq(teamMembers.teamId, m.team.id), eq(teamMembers.userId, memberId)));
    if (role === 'member') await revokeTeamTokensOf(tx, m.team.id, memberId, 'no longer a team admin');
  });
}

/**
 * DELETE /api/team/members/{userId} (owner or admin; a member may remove themselves: leave).
 * Offboarding: the member's team card codes are turned off (a scan shows the company's contact
 * page), the brand leaves their profile, the leads they collected stay with the team. They keep
 * their account, profile and personal data. The owner cannot be removed (transfer first).
 */
export async function removeMember(ctx: AppContext, userId: string, memberId: string): Promise<void> {
  const m = await requireRole(ctx, userId, memberId === userId ? EVERYONE : MANAGERS);
  const [target] = await ctx.db.select({ role: teamMembers.role }).from(teamMembers).where(and(eq(teamMembers.teamId, m.team.id), eq(teamMembers.userId, memberId))).limit(1);
  if (!target) throw notFound('Member not found');
  if (target.role === 'owner') throw badRequest('The owner cannot leave the team. Transfer the ownership first, or delete the team.', { userId: 'Transfer the ownership first' });
  const [profile] = await ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, memberId)).limit(1);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, m.team.id), eq(teamMembers.userId, memberId)));
    await revokeTeamTokensOf(tx, m.team.id, memberId, memberId === userId ? 'left the team' : 'removed from the team');
    if (profile) await deactivateTeamCodes(ctx, tx, m.team.id, profile.id);
  });
  await memberPageChanged(ctx, memberId);
}

/**
 * Before an account is deleted (issue 33, decision 33-01), in its transaction: a team it owns
 * must keep an owner. With other members the deletion is refused (409, transfer first); a team
 * with no one else goes with the account, as DELETE /api/team does (its card codes turned off,
 * its rows removed). Returns the id of a deleted team (its pages are refreshed after the commit).
 */
export async function settleOwnedTeam(tx: Tx, userId: string, transferFirst: (teamName: string) => string): Promise<string | null> {
  const [own] = await tx
    .select({ id: teams.id, name: teams.name })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.userId, userId), eq(teamMembers.role, 'owner')))
    // the team's row is held until this transaction ends (a transfer or a second deletion waits)
    .for('update', { of: teams })
    .limit(1);
  if (!own) return null;
  const [others] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, own.id), sql`${teamMembers.userId} <> ${userId}`));
  if (Number(others?.n ?? 0) > 0) throw conflict(transferFirst(own.name));
  await deactivateCodesOfTeam(tx, own.id);
  await tx.delete(teams).where(eq(teams.id, own.id));
  return own.id;
}
