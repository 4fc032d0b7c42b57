import type { FastifyInstance } from 'fastify';
import { SubscribeBody } from '#shared/schemas/auth';
import { subscribers } from '../../db/schema/index';
import type { ZodTypeProvider } from '../../lib/validation';
import { enforceRateLimit } from '../../lib/rate-limit';

export async function subscribeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // idempotent: subscribing twice keeps one row and answers the same
  r.post('/api/subscribe', { config: { access: 'public' }, schema: { body: SubscribeBody } }, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `subscribe:ip:${req.ip}`, 5, 60);
    await app.ctx.db.insert(subscribers).values({ email: req.body.email }).onConflictDoNothing();
    return { message: 'Thanks for subscribing!' };
  });
}
