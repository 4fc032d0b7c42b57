import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShopSettingsPutBody } from '#shared/schemas/settings';
import { getAdminSettings, getSiteStudio, putAdminSettings } from '#shared/contracts/settings';
import { callEndpoint, endpointKey, endpointQuery } from '#web/lib/endpoint';

/** The studio's details for pages (Help, About): the shop settings staff edit (issue 35). */
export function useStudio() {
  return useQuery(endpointQuery(getSiteStudio));
}

/** Staff: every section of the shop settings, with the fields still on a placeholder. */
export function useShopSettings() {
  return useQuery(endpointQuery(getAdminSettings));
}

/** Saves the sections (or fields) that changed. */
export function useSaveShopSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ShopSettingsPutBody) => callEndpoint(putAdminSettings, { body }),
    onSuccess: (saved) => {
      qc.setQueryData(endpointKey(getAdminSettings), saved);
      void qc.invalidateQueries({ queryKey: endpointKey(getSiteStudio) });
    },
  });
}
