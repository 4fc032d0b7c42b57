import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { InviteInput, TeamBrandBody, TeamCreateBody, TeamInviteCreateBody, TeamOrderBody } from '#shared/schemas/team';
import {
  deleteTeam,
  deleteTeamInvitesById,
  deleteTeamMembersByUserId,
  getTeam,
  getTeamJoinByToken,
  getTeamLeads,
  getTeamMembers,
  getTeamOrders,
  getTeamStats,
  patchTeamMembersByUserId,
  postTeam,
  postTeamInvites,
  postTeamInvitesByIdResend,
  postTeamInvitesByTokenAccept,
  postTeamJoinByTokenAccount,
  postTeamInvitesImport,
  postTeamOrders,
  postTeamTransfer,
  putTeamBrand,
} from '#shared/contracts/team';
import { getProfile } from '#shared/contracts/profile';
import { callEndpoint, endpointPrefix, endpointQuery, uploadToEndpoint } from '#web/lib/endpoint';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';

export const TEAM_LEADS_PAGE = 25;

/** The caller's team and role (team null: not in one). */
export function useTeam(enabled = true) {
  return useQuery({ ...endpointQuery(getTeam), enabled });
}

export const useTeamMembers = (enabled = true) => useQuery({ ...endpointQuery(getTeamMembers), enabled });
export const useTeamOrders = (enabled = true) => useQuery({ ...endpointQuery(getTeamOrders), enabled });
export const useTeamStats = (days: number, enabled = true) => useQuery({ ...endpointQuery(getTeamStats, { query: { days } }), enabled });
export const useTeamLeads = (page: number, enabled = true) =>
  useQuery({ ...endpointQuery(getTeamLeads, { query: { limit: TEAM_LEADS_PAGE, offset: page * TEAM_LEADS_PAGE } }), enabled });
export const useJoinInfo = (token: string) => useQuery(endpointQuery(getTeamJoinByToken, { params: { token } }));

/** Everything a team change can move (members, team, cards, the own profile's locked fields). */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(endpointPrefix(getTeam)) || String(q.queryKey[0]).startsWith(endpointPrefix(getProfile)) });
}

function useTeamMutation<I, O>(fn: (input: I) => Promise<O>) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: fn, onSuccess: () => refresh() });
}

export const useCreateTeam = () => useTeamMutation((body: z.input<typeof TeamCreateBody>) => callEndpoint(postTeam, { body }));
export const useSaveBrand = () => useTeamMutation((body: z.input<typeof TeamBrandBody>) => callEndpoint(putTeamBrand, { body }));
export const useInvite = () => useTeamMutation((invites: Partial<InviteInput>[]) => callEndpoint(postTeamInvites, { body: { invites } as z.input<typeof TeamInviteCreateBody> }));
export const useImportMembers = () => useTeamMutation((file: File) => uploadToEndpoint(postTeamInvitesImport, file));
export const useResendInvite = () => useTeamMutation((id: string) => callEndpoint(postTeamInvitesByIdResend, { params: { id } }));
export const useRevokeInvite = () => useTeamMutation((id: string) => callEndpoint(deleteTeamInvitesById, { params: { id } }));
export const useChangeRole = () =>
  useTeamMutation(({ userId, role }: { userId: string; role: 'admin' | 'member' }) => callEndpoint(patchTeamMembersByUserId, { params: { userId }, body: { role } }));
export const useRemoveMember = () => useTeamMutation((userId: string) => callEndpoint(deleteTeamMembersByUserId, { params: { userId } }));
export const useTransferTeam = () => useTeamMutation((userId: string) => callEndpoint(postTeamTransfer, { body: { userId } }));
export const useDeleteTeam = () => useTeamMutation(() => callEndpoint(deleteTeam));
export const usePlaceTeamOrder = () => useTeamMutation((body: z.input<typeof TeamOrderBody>) => callEndpoint(postTeamOrders, { body }));
export const useAcceptInvite = () => {
  const qc = useQueryClient();
  // accepting proves the invited address: the signed-in user reads as verified again (no "verify your e-mail" left)
  return useTeamMutation((token: string) => callEndpoint(postTeamInvitesByTokenAccept, { params: { token } }).finally(() => qc.invalidateQueries({ queryKey: AUTH_USER_KEY })));
};

/** A new account from the invitation (password only; the invitation proved the address): signed in and in the team. */
export const useJoinWithNewAccount = (token: string) => {
  const qc = useQueryClient();
  return useTeamMutation((body: { password: string; fullName?: string }) =>
    callEndpoint(postTeamJoinByTokenAccount, { params: { token }, body }).finally(() => qc.invalidateQueries({ queryKey: AUTH_USER_KEY })),
  );
};
