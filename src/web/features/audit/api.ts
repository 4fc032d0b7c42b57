import { useMutation, useQuery } from '@tanstack/react-query';
import { getAdminAudit, getAdminAuditCsv, getTeamAudit } from '#shared/contracts/audit';
import type { IdentityEventKind } from '#shared/schemas/audit';
import { errorMessage } from '#web/lib/api';
import { saveResponse } from '#web/lib/download';
import { endpointQuery, fetchEndpoint } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';

/** The identity audit log (issue 39): the team owner's (their team) or the staff's (everything). */
export const useTeamAudit = (page: number, kind: IdentityEventKind | undefined) => useQuery(endpointQuery(getTeamAudit, { query: { page, kind } }));
export const useAdminAudit = (page: number, kind: IdentityEventKind | undefined, email: string | undefined) =>
  useQuery(endpointQuery(getAdminAudit, { query: { page, kind, email } }));

/**
 * The staff's audit log as CSV. Fetched, not linked: after the 15-minute window the server answers
 * `recent_auth_required`, which opens "Confirm it is you", and the download goes on once confirmed.
 */
export function useExportAdminAudit() {
  return useMutation({
    mutationFn: async (kind: IdentityEventKind | undefined) => saveResponse(await fetchEndpoint(getAdminAuditCsv, { query: { kind } }), 'audit-log.csv'),
    onSuccess: (name) => toast({ title: 'Export ready', description: name }),
    onError: (err) => toast({ title: 'Export failed', description: errorMessage(err), variant: 'destructive' }),
  });
}
