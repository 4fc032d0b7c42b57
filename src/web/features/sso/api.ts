import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteTeamSsoConnection, deleteTeamSsoDomain, getTeamSso, postAuthSsoDiscover, postTeamSsoDomain, postTeamSsoDomainVerify, putTeamSsoOidc, putTeamSsoRequire } from '#shared/contracts/sso';
import type { SsoConfig, SsoOidcBody } from '#shared/schemas/sso';
import { callEndpoint, endpointQuery } from '#web/lib/endpoint';

/** The team owner's single sign-on settings (issue 39, decision 39-03). */
export const useSsoConfig = () => useQuery(endpointQuery(getTeamSso));

function useRefresh() {
  const qc = useQueryClient();
  return {
    set: (data: SsoConfig) => qc.setQueryData(endpointQuery(getTeamSso).queryKey, data),
    reload: () => qc.invalidateQueries({ queryKey: endpointQuery(getTeamSso).queryKey }),
  };
}

export function useAddDomain() {
  const r = useRefresh();
  return useMutation({ mutationFn: (domain: string) => callEndpoint(postTeamSsoDomain, { body: { domain } }), onSuccess: () => r.reload() });
}

export function useVerifyDomain() {
  const r = useRefresh();
  return useMutation({ mutationFn: (id: string) => callEndpoint(postTeamSsoDomainVerify, { params: { id } }), onSettled: () => r.reload() });
}

export function useRemoveDomain() {
  const r = useRefresh();
  return useMutation({ mutationFn: (id: string) => callEndpoint(deleteTeamSsoDomain, { params: { id } }), onSuccess: () => r.reload() });
}

export function useSaveOidc() {
  const r = useRefresh();
  return useMutation({ mutationFn: (body: SsoOidcBody) => callEndpoint(putTeamSsoOidc, { body }), onSuccess: (data) => r.set(data) });
}

export function useDisconnect() {
  const r = useRefresh();
  return useMutation({ mutationFn: () => callEndpoint(deleteTeamSsoConnection), onSuccess: () => r.reload() });
}

export function useRequireSso() {
  const r = useRefresh();
  return useMutation({ mutationFn: (requireSso: boolean) => callEndpoint(putTeamSsoRequire, { body: { requireSso } }), onSuccess: (data) => r.set(data) });
}

/** Does this address sign in with its company's SSO? */
export const discoverSso = (email: string) => callEndpoint(postAuthSsoDiscover, { body: { email } });
