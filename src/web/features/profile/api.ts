import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProfileSaveBodyInput } from '#shared/schemas/profile';
import { getProfile, postProfile, putProfileById, putProfileHandle } from '#shared/contracts/profile';
import { getStatsVisits } from '#shared/contracts/engagement';
import { getSiteSettings } from '#shared/contracts/settings';
import { MAX_PROFILE_LINKS } from '#shared/catalogue';
import { callEndpoint, endpointKey, endpointQuery, endpointQueryOrNull } from '#web/lib/endpoint';

export const PROFILE_KEY = endpointKey(getProfile);

/** The signed-in user's profile (null when they have none yet, or are signed out). */
export function useProfile(enabled = true) {
  return useQuery({ ...endpointQueryOrNull(getProfile), enabled });
}

/** Creates or updates the profile, then refreshes it. */
export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ProfileSaveBodyInput }) =>
      id ? callEndpoint(putProfileById, { params: { id }, body }) : callEndpoint(postProfile, { body }),
    onSuccess: async (profile) => {
      qc.setQueryData(PROFILE_KEY, profile);
      await qc.invalidateQueries({ queryKey: PROFILE_KEY });
    },
  });
}

/** Sets (or, with null, removes) the short address /@{handle}, then refreshes the profile. */
export function useSaveHandle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (handle: string | null) => callEndpoint(putProfileHandle, { body: { handle } }),
    onSuccess: async (profile) => {
      qc.setQueryData(PROFILE_KEY, profile);
      await qc.invalidateQueries({ queryKey: PROFILE_KEY });
    },
  });
}

export function useVisitStats(enabled = true) {
  return useQuery({ ...endpointQuery(getStatsVisits), enabled });
}

/** How many links a profile may have: the shop's setting (public GET /api/site/settings), the spec's 3 until it loads. */
export function useMaxProfileLinks(): number {
  const q = useQuery(endpointQuery(getSiteSettings));
  return q.data?.maxProfileLinks ?? MAX_PROFILE_LINKS;
}
