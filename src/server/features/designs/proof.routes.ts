import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/designs';
import type { ZodTypeProvider } from '#server/http/validation';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { answerProof, proofImage } from './proof.service';

/**
 * The customer's proof (issue 35, decision 35-04), on the order's page: whoever holds the order's
 * link (a visitor from the e-mail, or the signed-in customer from My orders) sees the proof and
 * answers it.
 */
export async function proofRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  route(r, api.postOrderStatusByTokenProof, async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `order-proof:ip:${clientKey(req)}`, 10, 60, 'Too many answers from this address. Please wait a minute and try again.');
      reply.header('cache-control', 'no-store');
      return answerProof(app.ctx, req.params.token, req.body, app.ctx.publicUrl(req));
    });

  route(r, api.getOrderStatusByTokenProofByCardIdBySide, async (req, reply) => {
      await enforceRateLimit(app.ctx.rateLimiter, `order-proof-image:ip:${clientKey(req)}`, 60, 60, 'Too many proof requests from this address. Please wait a minute and try again.');
      const png = await proofImage(app.ctx, req.params.token, req.params.cardId, req.params.side === 'front.png' ? 'front' : 'back', app.ctx.publicUrl(req));
      return reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=300').header('referrer-policy', 'no-referrer').send(png);
    });
}
