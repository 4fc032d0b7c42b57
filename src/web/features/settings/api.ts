import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LegalDocument, ShopSettingsPutBody } from '#shared/schemas/settings';
import { getAdminSettings, getSiteLegal, getSiteSettings, getSiteStudio, putAdminSettings } from '#shared/contracts/settings';
import { callEndpoint, endpointKey, endpointPrefix, endpointQuery } from '#web/lib/endpoint';

/** The studio's details for pages (Help, About): the shop settings staff edit (issue 35). */
export function useStudio() {
  return useQuery(endpointQuery(getSiteStudio));
}

/** The claims staff left shown (in order) and the profile link limit (issue 37). */
export function useSiteSettings() {
  return useQuery(endpointQuery(getSiteSettings));
}

/** The privacy policy or the terms of service as staff set them (issue 37). */
export function useLegalText(document: LegalDocument) {
  return useQuery(endpointQuery(getSiteLegal, { params: { document } }));
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
      void qc.invalidateQueries({ queryKey: endpointKey(getSiteSettings) });
      const legal = endpointPrefix(getSiteLegal);
      void qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(legal) });
    },
  });
}
