import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/site';
import { subscribers } from '#server/db/schema/site';
import type { ZodTypeProvider } from '#server/http/validation';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';

export async function subscribeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // idempotent: subscribing twice keeps one row and answers the same
  route(r, api.postSubscribe, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `subscribe:ip:${clientKey(req)}`, 5, 60);
    await app.ctx.db.insert(subscribers).values({ email: req.body.email }).onConflictDoNothing();
    return { message: 'Thanks for subscribing!' };
  });
}
