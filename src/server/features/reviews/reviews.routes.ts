import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/reviews';
import type { ZodTypeProvider } from '#server/http/validation';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { createReview, listPublishedReviews, listReviewsForAdmin, summarizePublishedReviews, updateReview } from './reviews.service';

/** Public form limit (guide: public forms 5 per minute per IP). */
export const REVIEW_RATE_LIMIT = { limit: 5, windowSeconds: 60 };

export async function reviewsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // published reviews only (verified, not hidden); never an e-mail or order number
  route(r, api.getReviews, async () => listPublishedReviews(app.ctx));

  route(r, api.getReviewsSummary, async () => summarizePublishedReviews(app.ctx));

  route(r, api.postReviews, async (req, reply) => {
    await enforceRateLimit(
      app.ctx.rateLimiter,
      `reviews:ip:${clientKey(req)}`,
      REVIEW_RATE_LIMIT.limit,
      REVIEW_RATE_LIMIT.windowSeconds,
      'Too many reviews from this address. Please try again in a minute.',
    );
    const { created, ...result } = await createReview(app.ctx, req.body, { userId: req.user?.id ?? null });
    return reply.status(created ? 201 : 200).send(result);
  });

  route(r, api.getAdminReviews, async (req) =>
    listReviewsForAdmin(app.ctx, req.query.status));

  route(r, api.patchAdminReviewsById, async (req) =>
    updateReview(app.ctx, req.params.id, req.body, req.user!.id));
}
