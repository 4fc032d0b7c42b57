import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardCode, CardCodeList, CreateCardCodeInput, UpdateCardCodeInput } from '#shared/schemas/engagement';
import type { EngagementStats } from '#shared/schemas/engagement';
import type { LeadBodyInput, LeadFormSetting, LeadList, LeadSubmitted } from '#shared/schemas/engagement';
import { profileLeadsPath } from '#shared/routes';
import type { MessageResponse } from '#shared/schemas/common';
import { api } from '#web/lib/api';

export const LEADS_KEY = '/api/leads';
export const LEAD_FORM_KEY = ['/api/profile/lead-form'] as const;
export const CARD_CODES_KEY = ['/api/card-codes'] as const;
export const ENGAGEMENT_KEY = '/api/stats/engagement';

export const LEADS_PAGE_SIZE = 25;

export const leadsUrl = (page: number) => `${LEADS_KEY}?limit=${LEADS_PAGE_SIZE}&offset=${page * LEADS_PAGE_SIZE}`;

/** One page of the owner's leads (newest first). */
export function useLeads(page: number, enabled = true) {
  return useQuery<LeadList>({ queryKey: [leadsUrl(page)], enabled });
}

function invalidateLeads(qc: ReturnType<typeof useQueryClient>) {
  return qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(LEADS_KEY) || String(q.queryKey[0]).startsWith(ENGAGEMENT_KEY) });
}

export function useDeleteLead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del<MessageResponse>(`/api/leads/${id}`),
    onSuccess: () => invalidateLeads(qc),
  });
}

export function useSetLeadForm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api.put<LeadFormSetting>('/api/profile/lead-form', { enabled }),
    onSuccess: async (setting) => {
      qc.setQueryData(LEAD_FORM_KEY, setting);
      await invalidateLeads(qc);
    },
  });
}

/** Whether a public profile takes contact details (public). */
export function usePublicLeadForm(profileId: string) {
  return useQuery<LeadFormSetting>({ queryKey: [`/api/p/${encodeURIComponent(profileId)}/lead-form`] });
}

/** A visitor's details for a profile's owner (the SPA's render of the public page). */
export function useSubmitLead(profileId: string) {
  return useMutation({
    mutationFn: (body: LeadBodyInput) => api.post<LeadSubmitted>(profileLeadsPath(profileId), body),
  });
}

export function useCardCodes(enabled = true) {
  return useQuery<CardCodeList>({ queryKey: CARD_CODES_KEY, enabled });
}

export function useCreateCardCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCardCodeInput) => api.post<CardCode>('/api/card-codes', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: CARD_CODES_KEY }),
  });
}

export function useUpdateCardCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: UpdateCardCodeInput }) => api.patch<CardCode>(`/api/card-codes/${encodeURIComponent(code)}`, body),
    onSuccess: (updated) => {
      qc.setQueryData<CardCodeList>(CARD_CODES_KEY, (old) => (old ? { codes: old.codes.map((c) => (c.code === updated.code ? updated : c)) } : old));
      return qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(ENGAGEMENT_KEY) });
    },
  });
}

export function useEngagement(days: number, enabled = true) {
  return useQuery<EngagementStats>({ queryKey: [`${ENGAGEMENT_KEY}?days=${days}`], enabled });
}
