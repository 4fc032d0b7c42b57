import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardCodeList, CreateCardCodeInput, UpdateCardCodeInput } from '#shared/schemas/engagement';
import type { LeadBodyInput } from '#shared/schemas/engagement';
import {
  deleteLeadsById,
  getCardCodes,
  getLeads,
  getPByIdLeadForm,
  getProfileLeadForm,
  getStatsEngagement,
  patchCardCodesByCode,
  postCardCodes,
  postPByIdLeads,
  putProfileLeadForm,
} from '#shared/contracts/engagement';
import { callEndpoint, endpointKey, endpointPrefix, endpointQuery } from '#web/lib/endpoint';

export const LEAD_FORM_KEY = endpointKey(getProfileLeadForm);
export const CARD_CODES_KEY = endpointKey(getCardCodes);
const LEADS_PREFIX = endpointPrefix(getLeads);
const ENGAGEMENT_PREFIX = endpointPrefix(getStatsEngagement);

export const LEADS_PAGE_SIZE = 25;

/** One page of the owner's leads (newest first). */
export function useLeads(page: number, enabled = true) {
  return useQuery({ ...endpointQuery(getLeads, { query: { limit: LEADS_PAGE_SIZE, offset: page * LEADS_PAGE_SIZE } }), enabled });
}

function invalidateLeads(qc: ReturnType<typeof useQueryClient>) {
  return qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(LEADS_PREFIX) || String(q.queryKey[0]).startsWith(ENGAGEMENT_PREFIX) });
}

export function useDeleteLead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(deleteLeadsById, { params: { id } }),
    onSuccess: () => invalidateLeads(qc),
  });
}

export function useSetLeadForm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => callEndpoint(putProfileLeadForm, { body: { enabled } }),
    onSuccess: async (setting) => {
      qc.setQueryData(LEAD_FORM_KEY, setting);
      await invalidateLeads(qc);
    },
  });
}

/** Whether a public profile takes contact details (public). */
export function usePublicLeadForm(profileId: string) {
  return useQuery(endpointQuery(getPByIdLeadForm, { params: { id: profileId } }));
}

/** A visitor's details for a profile's owner (the SPA's render of the public page). */
export function useSubmitLead(profileId: string) {
  return useMutation({
    mutationFn: (body: LeadBodyInput) => callEndpoint(postPByIdLeads, { params: { id: profileId }, body }),
  });
}

export function useCardCodes(enabled = true) {
  return useQuery({ ...endpointQuery(getCardCodes), enabled });
}

export function useCreateCardCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCardCodeInput) => callEndpoint(postCardCodes, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: CARD_CODES_KEY }),
  });
}

export function useUpdateCardCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: UpdateCardCodeInput }) => callEndpoint(patchCardCodesByCode, { params: { code }, body }),
    onSuccess: (updated) => {
      qc.setQueryData<CardCodeList>(CARD_CODES_KEY, (old) => (old ? { codes: old.codes.map((c) => (c.code === updated.code ? updated : c)) } : old));
      return qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(ENGAGEMENT_PREFIX) });
    },
  });
}

export function useEngagement(days: number, enabled = true) {
  return useQuery({ ...endpointQuery(getStatsEngagement, { query: { days } }), enabled });
}
