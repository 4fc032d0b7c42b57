import type { FastifyInstance } from 'fastify';
import { SubscriptionCreateBody, SubscriptionCreateResponse } from '#shared/schemas/site';
import { subscribers } from '#server/db/schema/index';
import type { ZodTypeProvider } from '#server/http/validation';
import { enforceRateLimit } from '#server/infra/rate-limit';

export async function subscribeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // idempotent: subscribing twice keeps one row and answers the same
  r.post('/api/subscribe', { config: { access: 'public' }, schema: { body: SubscriptionCreateBody, response: { 200: SubscriptionCreateResponse } } }, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `subscribe:ip:${req.ip}`, 5, 60);
    await app.ctx.db.insert(subscribers).values({ email: req.body.email }).onConflictDoNothing();
    return { message: 'Thanks for subscribing!' };
  });
}
