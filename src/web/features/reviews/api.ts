import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateReviewInput } from '#shared/schemas/reviews';
import { getReviews, getReviewsSummary, postReviews } from '#shared/contracts/reviews';
import { callEndpoint, callEndpointOrNull, endpointKey, endpointQuery } from '#web/lib/endpoint';

export const REVIEWS_KEY = endpointKey(getReviews);
export const REVIEW_SUMMARY_KEY = endpointKey(getReviewsSummary);

/** Published reviews; a 401 is treated as an empty list (spec). */
export function useReviews() {
  return useQuery({ queryKey: REVIEWS_KEY, queryFn: async () => (await callEndpointOrNull(getReviews)) ?? [] });
}

export function useReviewSummary() {
  return useQuery(endpointQuery(getReviewsSummary));
}

export function useCreateReview() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReviewInput) => callEndpoint(postReviews, { body: input }),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: REVIEWS_KEY }), qc.invalidateQueries({ queryKey: REVIEW_SUMMARY_KEY })]);
    },
  });
}
