import type { FastifyInstance } from 'fastify';
import { AdminReviewsQuery, CreateReviewBody, UpdateReviewBody } from '#shared/schemas/reviews';
import { idParam } from '#shared/schemas/common';
import type { ZodTypeProvider } from '../../lib/validation';
import { enforceRateLimit } from '../../lib/rate-limit';
import { createReview, listPublishedReviews, listReviewsForAdmin, summarizePublishedReviews, updateReview } from './reviews.service';

/** Public form limit (guide: public forms 5 per minute per IP). */
export const REVIEW_RATE_LIMIT = { limit: 5, windowSeconds: 60 };

export async function reviewsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // published reviews only (verified, not hidden); never an e-mail or order number
  r.get('/api/reviews', { config: { access: 'public' } }, async () => listPublishedReviews(app.ctx));

  r.get('/api/reviews/summary', { config: { access: 'public' } }, async () => summarizePublishedReviews(app.ctx));

  r.post('/api/reviews', { config: { access: 'public' }, schema: { body: CreateReviewBody } }, async (req, reply) => {
    await enforceRateLimit(
      app.ctx.rateLimiter,
      `reviews:ip:${req.ip}`,
      REVIEW_RATE_LIMIT.limit,
      REVIEW_RATE_LIMIT.windowSeconds,
      'Too many reviews from this address. Please try again in a minute.',
    );
    const { created, ...result } = await createReview(app.ctx, req.body);
    return reply.status(created ? 201 : 200).send(result);
  });

  r.get('/api/admin/reviews', { config: { access: 'admin' }, schema: { querystring: AdminReviewsQuery } }, async (req) =>
    listReviewsForAdmin(app.ctx, req.query.status),
  );

  r.patch('/api/admin/reviews/:id', { config: { access: 'admin' }, schema: { params: idParam, body: UpdateReviewBody } }, async (req) =>
    updateReview(app.ctx, req.params.id, req.body, req.user!.id),
  );
}
