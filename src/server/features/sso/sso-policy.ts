import type { AppContext } from '#server/context';
import { teamRoleOf } from '#server/features/team/public-api';
import { connectionRow } from './sso-connection.service';
import { teamOfEmailDomain } from './sso-domains.service';

/**
 * May this account sign in with its password (decision 39-03)? A team that requires SSO closes
 * the password to its members and to every address of its verified domains. The team owner and
 * staff keep a break-glass way in: the password plus their second factor (`second-factor`: the
 * sign-in goes on only through the two-factor step; without a factor it is refused).
 */
export type PasswordSignIn = 'allow' | 'second-factor' | 'refuse';

async function requires(ctx: AppContext, teamId: string): Promise<boolean> {
  const row = await connectionRow(ctx, teamId);
  return Boolean(row?.requireSso && row.kind);
}

export async function passwordSignInPolicy(ctx: AppContext, user: { id: string; email: string; role: 'admin' | 'user' }): Promise<PasswordSignIn> {
  const membership = await teamRoleOf(ctx, user.id);
  const domainTeam = await teamOfEmailDomain(ctx, user.email);
  const teams = [membership?.teamId, domainTeam].filter((t): t is string => Boolean(t));
  let required = false;
  for (const t of new Set(teams)) if (await requires(ctx, t)) required = true;
  if (!required) return 'allow';
  if (user.role === 'admin') return 'second-factor';
  // the owner of the team that requires it (not the owner of some other team who has an address on this domain)
  if (membership?.role === 'owner' && (await requires(ctx, membership.teamId)) && (!domainTeam || domainTeam === membership.teamId)) return 'second-factor';
  return 'refuse';
}
