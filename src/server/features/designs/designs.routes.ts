import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/designs';
import type { ZodTypeProvider } from '#server/http/validation';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { designForEdit, resubmitDesign, submitForReview } from './design.service';
import { reorderApprovedDesign } from './reorder.service';
import { approveDesignBatch, listPendingDesigns, reviewDesign, scanCheckDesign } from './design-review.service';

/**
 * A card design's life (issue 34): the customer submits a design, reopens one that needs changes
 * and resubmits it (issue 20); staff review the queue, scan-check, approve or reject, and approve a
 * team order's batch (issues 20-22). Access per route: the design's owner, or staff.
 */
export async function designsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const baseUrl = (req: FastifyRequest) => app.ctx.publicUrl(req);

  route(r, api.postCardsSubmitForReview, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `submit-design:user:${req.user!.id}`, 20, 3600, 'Too many designs submitted. Please try again later.');
    const headerKey = req.headers['idempotency-key'];
    const body = typeof headerKey === 'string' && !req.body.clientToken ? { ...req.body, clientToken: headerKey } : req.body;
    const { result, created } = await submitForReview(app.ctx, req.user!, body, baseUrl(req));
    return reply.status(created ? 201 : 200).send(result);
  });

  // "Reorder" (issue 35): an order's approved design again, as a new order (one confirm on My Orders)
  route(r, api.postOrdersReorder, async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `submit-design:user:${req.user!.id}`, 20, 3600, 'Too many designs submitted. Please try again later.');
      const { result, created } = await reorderApprovedDesign(app.ctx, req.user!, req.body, baseUrl(req));
      return reply.status(created ? 201 : 200).send(result);
    });

  route(r, api.getCardsByIdDesign, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return designForEdit(app.ctx, req.user!.id, req.params.id);
  });

  route(r, api.postCardsByIdResubmit, async (req) => {
      await enforceRateLimit(app.ctx.rateLimiter, `submit-design:user:${req.user!.id}`, 20, 3600, 'Too many designs submitted. Please try again later.');
      return resubmitDesign(app.ctx, req.user!, req.params.id, req.body, app.ctx.publicUrl(req));
    });

  route(r, api.getAdminBusinessCardsPending, async (req) => listPendingDesigns(app.ctx, baseUrl(req)));

  route(r, api.getAdminBusinessCardsByIdScanCheck, async (req) => {
    const cookie = req.headers.cookie;
    // the stored image is read through the app itself (same access rules), never from the network
    const fetchLocal = async (path: string) => {
      const res = await app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
      return { statusCode: res.statusCode, body: res.rawPayload };
    };
    return scanCheckDesign(app.ctx, req.params.id, baseUrl(req), fetchLocal);
  });

  route(r, api.putAdminBusinessCardsByIdReview, async (req) =>
    reviewDesign(app.ctx, req.params.id, req.body, req.user!, baseUrl(req)));

  route(r, api.postAdminBusinessCardsBatchesByOrderIdApprove, async (req) =>
    approveDesignBatch(app.ctx, req.params.orderId, req.user!, baseUrl(req), req.body?.overrideReason));
}
