import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getTeamScimSettings, getTeamScimSyncedFields, putTeamScimSettings } from '#shared/contracts/scim';
import { deleteTokensById, getTokens, postTokens } from '#shared/contracts/developer';
import type { ScimSettingsBody } from '#shared/schemas/scim';
import { callEndpoint, endpointQuery } from '#web/lib/endpoint';

/** The team owner's provisioning settings (issue 39): field rules and the admin group. */
export const useScimSettings = () => useQuery(endpointQuery(getTeamScimSettings));

export function useSaveScimSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ScimSettingsBody) => callEndpoint(putTeamScimSettings, { body }),
    onSuccess: (data) => {
      qc.setQueryData(endpointQuery(getTeamScimSettings).queryKey, data);
      void qc.invalidateQueries({ queryKey: endpointQuery(getTeamScimSyncedFields).queryKey });
    },
  });
}

/** The caller's profile fields their company's directory keeps in sync (shown locked in the editor). */
export const useSyncedFields = (enabled = true) => useQuery({ ...endpointQuery(getTeamScimSyncedFields), enabled });

/** The owner's team tokens with the scim scope (the same list as Account > API tokens). */
export const useScimTokens = () => {
  const q = useQuery(endpointQuery(getTokens));
  return { ...q, data: q.data?.tokens.filter((t) => t.teamId !== null && t.scopes.includes('scim')) };
};

export function useCreateScimToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; password: string }) => callEndpoint(postTokens, { body: { name: input.name, password: input.password, scopes: ['scim'], team: true, expiresInDays: null } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: endpointQuery(getTokens).queryKey }),
  });
}

export function useRevokeScimToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(deleteTokensById, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: endpointQuery(getTokens).queryKey }),
  });
}
