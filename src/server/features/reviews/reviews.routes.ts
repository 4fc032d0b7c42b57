import type { FastifyInstance } from 'fastify';
import {
  AdminReviewListQuery,
  AdminReviewListResponse,
  AdminReviewResponse,
  AdminReviewUpdateBody,
  ReviewCreateBody,
  ReviewCreateResponse,
  ReviewListResponse,
  ReviewSummaryGetResponse,
} from '#shared/schemas/reviews';
import { IdParams } from '#shared/schemas/common';
import type { ZodTypeProvider } from '#server/http/validation';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { createReview, listPublishedReviews, listReviewsForAdmin, summarizePublishedReviews, updateReview } from './reviews.service';

/** Public form limit (guide: public forms 5 per minute per IP). */
export const REVIEW_RATE_LIMIT = { limit: 5, windowSeconds: 60 };

export async function reviewsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // published reviews only (verified, not hidden); never an e-mail or order number
  r.get('/api/reviews', { config: { access: 'public' }, schema: { response: { 200: ReviewListResponse } } }, async () => listPublishedReviews(app.ctx));

  r.get('/api/reviews/summary', { config: { access: 'public' }, schema: { response: { 200: ReviewSummaryGetResponse } } }, async () => summarizePublishedReviews(app.ctx));

  r.post('/api/reviews', { config: { access: 'public' }, schema: { body: ReviewCreateBody, response: { 200: ReviewCreateResponse, 201: ReviewCreateResponse } } }, async (req, reply) => {
    await enforceRateLimit(
      app.ctx.rateLimiter,
      `reviews:ip:${req.ip}`,
      REVIEW_RATE_LIMIT.limit,
      REVIEW_RATE_LIMIT.windowSeconds,
      'Too many reviews from this address. Please try again in a minute.',
    );
    const { created, ...result } = await createReview(app.ctx, req.body, { userId: req.user?.id ?? null });
    return reply.status(created ? 201 : 200).send(result);
  });

  r.get('/api/admin/reviews', { config: { access: 'admin' }, schema: { querystring: AdminReviewListQuery, response: { 200: AdminReviewListResponse } } }, async (req) =>
    listReviewsForAdmin(app.ctx, req.query.status),
  );

  r.patch('/api/admin/reviews/:id', { config: { access: 'admin' }, schema: { params: IdParams, body: AdminReviewUpdateBody, response: { 200: AdminReviewResponse } } }, async (req) =>
    updateReview(app.ctx, req.params.id, req.body, req.user!.id),
  );
}
