import { useQuery } from '@tanstack/react-query';
import { getAdminAudit, getTeamAudit } from '#shared/contracts/audit';
import type { IdentityEventKind } from '#shared/schemas/audit';
import { endpointQuery } from '#web/lib/endpoint';

/** The identity audit log (issue 39): the team owner's (their team) or the staff's (everything). */
export const useTeamAudit = (page: number, kind: IdentityEventKind | undefined) => useQuery(endpointQuery(getTeamAudit, { query: { page, kind } }));
export const useAdminAudit = (page: number, kind: IdentityEventKind | undefined, email: string | undefined) =>
  useQuery(endpointQuery(getAdminAudit, { query: { page, kind, email } }));
