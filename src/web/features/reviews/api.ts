import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateReviewInput, CreateReviewResult, PublicReview, ReviewSummary } from '#shared/schemas/reviews';
import { api } from '#web/lib/api';
import { getQueryFn } from '#web/lib/query-client';

export const REVIEWS_KEY = ['/api/reviews'] as const;
export const REVIEW_SUMMARY_KEY = ['/api/reviews/summary'] as const;

/** Published reviews; a 401 is treated as an empty list (spec). */
export function useReviews() {
  return useQuery<PublicReview[]>({
    queryKey: REVIEWS_KEY,
    queryFn: async (ctx) => ((await getQueryFn<PublicReview[] | null>({ on401: 'returnNull' })(ctx)) ?? []),
  });
}

export function useReviewSummary() {
  return useQuery<ReviewSummary>({ queryKey: REVIEW_SUMMARY_KEY });
}

export function useCreateReview() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReviewInput) => api.post<CreateReviewResult>('/api/reviews', input),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: REVIEWS_KEY }), qc.invalidateQueries({ queryKey: REVIEW_SUMMARY_KEY })]);
    },
  });
}
