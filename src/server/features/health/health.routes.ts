import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance) {
  // liveness + database check; cheap enough to be the load balancer's probe
  app.get('/api/health', { config: { access: 'public' }, logLevel: 'warn' }, async (_req, reply) => {
    try {
      await app.ctx.database.ping();
      return { status: 'ok', database: app.ctx.database.kind };
    } catch {
      reply.header('retry-after', '5');
      return reply.status(503).send({ status: 'unavailable', message: 'Database unreachable' });
    }
  });
}
