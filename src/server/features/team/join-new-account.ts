import { sql } from 'drizzle-orm';
import type { AppContext, SessionUser } from '#server/context';
import { users } from '#server/db/schema/auth';
import { badRequest, conflict } from '#server/http/http-errors';
import { shortId } from '#server/infra/crypto';
import { findUserByEmail, registerUser } from '#server/features/auth/public-api';
import { splitPersonName } from '#shared/person-name';
import { TEAM_MESSAGES, type TeamJoinAccountBody } from '#shared/schemas/team';
import type { z } from 'zod';
import { acceptInvite, openInviteByToken } from './members.service';

/** A free username from the address's local part (nobody is asked to invent one). */
async function freeUsername(ctx: AppContext, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 30) || 'member';
  for (let i = 0; i < 8; i++) {
    const candidate = i === 0 ? base : `${base}-${shortId(5, '0123456789')}`;
    const [taken] = await ctx.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`).limit(1);
    if (!taken) return candidate;
  }
  return `${base}-${shortId(10, '0123456789')}`;
}

/**
 * POST /api/team/join/{token}/account (issue 37, decision 37-09): the invited person creates their
 * account from the invitation link. The link was sent to the invited address, so that address is
 * the account's and is verified at once (no second e-mail to confirm it); the name is the one the
 * invitation was sent with (asked only when it has none); the username is made from the address.
 * Then the invitation is accepted as by a signed-in account. An address that already has an account
 * answers 409 (log in and accept instead): nobody takes over an account through an invitation.
 */
export async function joinWithNewAccount(ctx: AppContext, token: string, body: z.output<typeof TeamJoinAccountBody>, origin: string): Promise<SessionUser> {
  const row = await openInviteByToken(ctx, token);
  const email = row.invite.email;
  if (await findUserByEmail(ctx, email)) throw conflict(TEAM_MESSAGES.accountExists, { email: TEAM_MESSAGES.accountExists });
  const name = row.invite.fullName?.trim() || body.fullName;
  if (!name) throw badRequest(TEAM_MESSAGES.nameNeeded, { fullName: TEAM_MESSAGES.nameNeeded });
  const { given, family } = splitPersonName(name);
  const user = await registerUser(
    ctx,
    { username: await freeUsername(ctx, email), email, password: body.password, firstName: given.slice(0, 80), lastName: family.slice(0, 80) },
    origin,
    { emailProven: true },
  );
  await acceptInvite(ctx, user, token);
  return user;
}
