import { defineEndpoint } from './endpoint';
import { IdParams } from '#shared/schemas/common';
import { AdminReviewListQuery, AdminReviewListResponse, AdminReviewResponse, AdminReviewUpdateBody, ReviewCreateBody, ReviewCreateResponse, ReviewListResponse, ReviewSummaryGetResponse } from '#shared/schemas/reviews';

export const getReviews = defineEndpoint({
  method: 'GET',
  path: '/api/reviews',
  summary: 'Published customer reviews',
  access: 'public',
  responses: { 200: ReviewListResponse },
});

export const getReviewsSummary = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/summary',
  summary: 'The average rating and review count',
  access: 'public',
  responses: { 200: ReviewSummaryGetResponse },
});

export const postReviews = defineEndpoint({
  method: 'POST',
  path: '/api/reviews',
  summary: 'Send a review',
  access: 'public',
  body: ReviewCreateBody,
  responses: { 200: ReviewCreateResponse, 201: ReviewCreateResponse },
});

export const getAdminReviews = defineEndpoint({
  method: 'GET',
  path: '/api/admin/reviews',
  access: 'admin',
  query: AdminReviewListQuery,
  responses: { 200: AdminReviewListResponse },
});

export const patchAdminReviewsById = defineEndpoint({
  method: 'PATCH',
  path: '/api/admin/reviews/:id',
  access: 'admin',
  params: IdParams,
  body: AdminReviewUpdateBody,
  responses: { 200: AdminReviewResponse },
});
