import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileSaveBodyInput, UserCard, VisitStats } from '#shared/schemas/profile';
import { api } from '#web/lib/api';
import { getQueryFn } from '#web/lib/query-client';

export const PROFILE_KEY = ['/api/profile'] as const;
export const CARDS_KEY = ['/api/cards'] as const;
export const VISITS_KEY = ['/api/stats/visits'] as const;

/** The signed-in user's profile (null when they have none yet, or are signed out). */
export function useProfile(enabled = true) {
  return useQuery<Profile | null>({ queryKey: PROFILE_KEY, queryFn: getQueryFn({ on401: 'returnNull' }), enabled });
}

/** Creates (POST) or updates (PUT /api/profile/{id}) the profile, then refreshes it. */
export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ProfileSaveBodyInput }) =>
      id ? api.put<Profile>(`/api/profile/${encodeURIComponent(id)}`, body) : api.post<Profile>('/api/profile', body),
    onSuccess: async (profile) => {
      qc.setQueryData(PROFILE_KEY, profile);
      await qc.invalidateQueries({ queryKey: PROFILE_KEY });
    },
  });
}

export function useVisitStats(enabled = true) {
  return useQuery<VisitStats>({ queryKey: VISITS_KEY, enabled });
}

export function useCards(enabled = true) {
  return useQuery<UserCard[]>({ queryKey: CARDS_KEY, enabled });
}

