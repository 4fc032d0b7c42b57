import type { FastifyInstance } from 'fastify';
import { DesignCardParams, DesignForEditResponse, DesignResubmitBody, DesignResubmitResponse } from '#shared/schemas/templates';
import type { ZodTypeProvider } from '#server/http/validation';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { designForEdit, resubmitDesign } from './design.service';

/** The design review loop for the design's owner (issue 20): reopen a design that needs changes, resubmit it. */
export async function designReviewRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/cards/:id/design', { config: { access: 'user' }, schema: { params: DesignCardParams, response: { 200: DesignForEditResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return designForEdit(app.ctx, req.user!.id, req.params.id);
  });

  r.post(
    '/api/cards/:id/resubmit',
    { config: { access: 'user' }, schema: { params: DesignCardParams, body: DesignResubmitBody, response: { 200: DesignResubmitResponse } } },
    async (req) => {
      await enforceRateLimit(app.ctx.rateLimiter, `submit-design:user:${req.user!.id}`, 20, 3600, 'Too many designs submitted. Please try again later.');
      return resubmitDesign(app.ctx, req.user!, req.params.id, req.body, app.ctx.publicUrl(req));
    },
  );
}
