import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MessageResponse } from '#shared/schemas/common';
import type {
  InviteInput,
  TeamBrandBody,
  TeamCreateBody,
  TeamInvite,
  TeamInviteReport,
  TeamJoinInfo,
  TeamLeadList,
  TeamMemberList,
  TeamOrder,
  TeamOrderBody,
  TeamStats,
  TeamView,
} from '#shared/schemas/team';
import { api, uploadFile } from '#web/lib/api';

export const TEAM_KEY = ['/api/team'] as const;
const MEMBERS_KEY = ['/api/team/members'] as const;
const ORDERS_KEY = ['/api/team/orders'] as const;
export const TEAM_LEADS_PAGE = 25;

/** The caller's team and role (team null: not in one). */
export function useTeam(enabled = true) {
  return useQuery<TeamView>({ queryKey: TEAM_KEY, enabled });
}

export const useTeamMembers = (enabled = true) => useQuery<TeamMemberList>({ queryKey: MEMBERS_KEY, enabled });
export const useTeamOrders = (enabled = true) => useQuery<{ orders: TeamOrder[] }>({ queryKey: ORDERS_KEY, enabled });
export const useTeamStats = (days: number, enabled = true) => useQuery<TeamStats>({ queryKey: [`/api/team/stats?days=${days}`], enabled });
export const useTeamLeads = (page: number, enabled = true) =>
  useQuery<TeamLeadList>({ queryKey: [`/api/team/leads?limit=${TEAM_LEADS_PAGE}&offset=${page * TEAM_LEADS_PAGE}`], enabled });
export const useJoinInfo = (token: string) => useQuery<TeamJoinInfo>({ queryKey: [`/api/team/join/${encodeURIComponent(token)}`] });

/** Everything a team change can move (members, team, cards, the own profile's locked fields). */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/team') || String(q.queryKey[0]).startsWith('/api/profile') });
}

function useTeamMutation<I, O>(fn: (input: I) => Promise<O>) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: fn, onSuccess: () => refresh() });
}

export const useCreateTeam = () => useTeamMutation((body: z.input<typeof TeamCreateBody>) => api.post<TeamView>('/api/team', body));
export const useSaveBrand = () => useTeamMutation((body: z.input<typeof TeamBrandBody>) => api.put<TeamView>('/api/team/brand', body));
export const useInvite = () => useTeamMutation((invites: Partial<InviteInput>[]) => api.post<TeamInviteReport>('/api/team/invites', { invites }));
export const useImportMembers = () => useTeamMutation((file: File) => uploadFile<TeamInviteReport>('/api/team/invites/import', 'file', file));
export const useResendInvite = () => useTeamMutation((id: string) => api.post<TeamInvite>(`/api/team/invites/${id}/resend`));
export const useRevokeInvite = () => useTeamMutation((id: string) => api.del<MessageResponse>(`/api/team/invites/${id}`));
export const useChangeRole = () =>
  useTeamMutation(({ userId, role }: { userId: string; role: 'admin' | 'member' }) => api.patch<TeamMemberList>(`/api/team/members/${userId}`, { role }));
export const useRemoveMember = () => useTeamMutation((userId: string) => api.del<MessageResponse>(`/api/team/members/${userId}`));
export const useTransferTeam = () => useTeamMutation((userId: string) => api.post<TeamView>('/api/team/transfer', { userId }));
export const useDeleteTeam = () => useTeamMutation(() => api.del<MessageResponse>('/api/team'));
export const usePlaceTeamOrder = () => useTeamMutation((body: z.input<typeof TeamOrderBody>) => api.post<TeamOrder>('/api/team/orders', body));
export const useAcceptInvite = () => useTeamMutation((token: string) => api.post<TeamView>(`/api/team/invites/${encodeURIComponent(token)}/accept`));
