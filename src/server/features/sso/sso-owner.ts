import type { AppContext } from '#server/context';
import { forbidden, notFound } from '#server/http/http-errors';
import { teamRoleOf } from '#server/features/team/public-api';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import { TEAM_MESSAGES } from '#shared/schemas/team';
import { SSO_MESSAGES } from '#shared/schemas/sso';

/** Who changed what: the owner and the request's client address (the audit log keeps both). */
export interface SsoActor {
  actorId: string;
  ip: string;
}

/**
 * The team the caller owns. Single sign-on decides who gets into the team, so only its owner
 * changes it (as with SCIM, decision 39-02): no team 404, an admin or member 403.
 */
export async function ownedTeamId(ctx: AppContext, userId: string): Promise<string> {
  const m = await teamRoleOf(ctx, userId);
  if (!m) throw notFound(TEAM_MESSAGES.noTeam);
  if (m.role !== 'owner') throw forbidden(SSO_MESSAGES.onlyOwner);
  return m.teamId;
}

/** An SSO configuration change in the identity audit log. */
export async function auditSsoChange(
  ctx: AppContext,
  teamId: string,
  who: SsoActor,
  kind: 'sso-configured' | 'sso-removed',
  detail: Record<string, string | number | boolean | null>,
  outcome: 'success' | 'failure' = 'success',
) {
  await recordIdentityEvent(ctx, { kind, outcome, teamId, actorId: who.actorId, userId: who.actorId, ip: who.ip, detail });
}
