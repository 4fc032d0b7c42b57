import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getTeamScimSettings, getTeamScimSyncedFields, putTeamScimSettings } from '#shared/contracts/scim';
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
