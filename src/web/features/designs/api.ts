import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ADMIN_POLL_MS } from '#shared/admin/poll';
import type { ProfileDesignSaveBodyInput } from '#shared/schemas/profile';
import type { DesignResubmitInput, PendingDesign, SubmitForReviewInput } from '#shared/schemas/designs';
import {
  getAdminBusinessCardsByIdScanCheck,
  getAdminBusinessCardsPending,
  getCardsByIdDesign,
  postAdminBusinessCardsBatchesByOrderIdApprove,
  postCardsByIdResubmit,
  postCardsSubmitForReview,
  putAdminBusinessCardsByIdReview,
} from '#shared/contracts/designs';
import { getCards, getProfile, putProfile } from '#shared/contracts/profile';
import { getAdminOrdersById, getAdminOutbox } from '#shared/contracts/admin';
import { postUploadLogo } from '#shared/contracts/uploads';
import { postPhotoroomRemoveBackground } from '#shared/contracts/ai';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { callEndpoint, endpointHref, endpointKey, endpointPrefix, endpointQuery, uploadToEndpoint } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';

/**
 * The card's life on the web (issue 34): the customer's submit, edit and resubmit, their cards
 * with the review status, and the staff's design review. Query keys come from the contracts.
 */
export const PROFILE_KEY = endpointKey(getProfile);
export const CARDS_KEY = endpointKey(getCards);
const PENDING_KEY = endpointKey(getAdminBusinessCardsPending);
const designKeys = {
  pending: PENDING_KEY[0],
  order: (id: number) => endpointHref(getAdminOrdersById, { params: { id } }),
  outbox: endpointPrefix(getAdminOutbox),
};

// ---- customer: my cards, submit, edit and resubmit

/** The signed-in user's submitted card designs with their review status (dashboard tab Card). */
export function useCards(enabled = true) {
  return useQuery({ ...endpointQuery(getCards), enabled });
}

export function useSaveDesignerProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileDesignSaveBodyInput) => callEndpoint(putProfile, { body }),
    onSuccess: (profile) => qc.setQueryData(PROFILE_KEY, profile),
  });
}

export function useSubmitDesign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitForReviewInput) => callEndpoint(postCardsSubmitForReview, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: CARDS_KEY }),
  });
}

/** The owner's design that needs changes, as the designer reopens it. */
export function useDesignForEdit(cardId: number | null) {
  return useQuery({ ...endpointQuery(getCardsByIdDesign, { params: { id: cardId ?? 0 } }), enabled: cardId !== null, retry: false });
}

export function useResubmitDesign(cardId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DesignResubmitInput) => callEndpoint(postCardsByIdResubmit, { params: { id: cardId ?? 0 }, body }),
    onSuccess: () => qc.invalidateQueries(),
  });
}

/** A logo uploaded in the designer (the uploads feature's logo upload): its stored file's URL. */
export function useUploadDesignLogo() {
  return useMutation({ mutationFn: (file: Blob) => uploadToEndpoint(postUploadLogo, file, { fileName: file instanceof File ? file.name : 'logo.png' }).then((r) => r.url) });
}

/**
 * The logo with its background removed by the AI image tools' endpoint (PhotoRoom when configured,
 * else the built-in cut-out in the sandbox lane): the stored PNG's URL, a file of the caller's.
 */
export function useRemoveLogoBackground() {
  return useMutation({
    mutationFn: async (logoHref: string) => {
      const res = await fetch(logoHref, { credentials: 'same-origin' });
      if (!res.ok) throw new Error('Your logo could not be read. Upload it again.');
      const out = await uploadToEndpoint(postPhotoroomRemoveBackground, await res.blob(), { fileName: 'logo.png' });
      return out.processedImageUrl;
    },
  });
}

// ---- staff: the design review

const startsWith = (qc: QueryClient, prefix: string) => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(prefix) });

/** A failed staff action: a destructive toast with the server's reason. */
function failToast(title: string, err: unknown, fallback = 'Please try again.') {
  toast({ title, description: errorMessage(err, fallback), variant: 'destructive' });
}

export const usePendingDesigns = () => useQuery({ ...endpointQuery(getAdminBusinessCardsPending), refetchInterval: ADMIN_POLL_MS.pendingReviews });

/** Approves every waiting design of a team order at once (issue 21). */
export function useApproveBatch() {
  const qc = useQueryClient();
  return useMutation({
    // a failing print check needs an override reason (issue 22)
    mutationFn: ({ orderId, overrideReason }: { orderId: number; overrideReason?: string }) =>
      callEndpoint(postAdminBusinessCardsBatchesByOrderIdApprove, { params: { orderId }, body: overrideReason ? { overrideReason } : undefined }),
    onSuccess: (r) => {
      void startsWith(qc, designKeys.pending);
      void startsWith(qc, designKeys.outbox);
      void startsWith(qc, designKeys.order(r.orderId));
      toast({ title: `${r.approved} ${r.approved === 1 ? 'design' : 'designs'} approved`, description: 'The team admin is being e-mailed.' });
    },
    onError: (err) => {
      void startsWith(qc, designKeys.pending);
      if (fieldErrors(err).overrideReason) return; // shown beside the button
      failToast('Batch approval failed', err);
    },
  });
}

export const useScanCheck = (id: number) => useQuery(endpointQuery(getAdminBusinessCardsByIdScanCheck, { params: { id } }));

export function useReviewDesign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, reviewNotes, overrideReason }: { id: number; status: 'approved' | 'rejected'; reviewNotes: string; overrideReason?: string }) =>
      callEndpoint(putAdminBusinessCardsByIdReview, { params: { id }, body: overrideReason ? { status, reviewNotes, overrideReason } : { status, reviewNotes } }),
    onSuccess: (r) => {
      qc.setQueryData<PendingDesign[]>(PENDING_KEY, (list) => list?.filter((d) => d.id !== r.id));
      void startsWith(qc, designKeys.pending);
      void startsWith(qc, designKeys.outbox);
      if (r.orderId) void startsWith(qc, designKeys.order(r.orderId));
      toast({
        title: r.status === 'approved' ? 'Design approved' : 'Design rejected',
        description: 'The customer is being e-mailed.',
      });
    },
    onError: (err) => {
      void startsWith(qc, designKeys.pending);
      failToast('Review failed', err);
    },
  });
}
