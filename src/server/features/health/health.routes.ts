import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/health';
import type { ZodTypeProvider } from '#server/http/validation';

export async function healthRoutes(app: FastifyInstance) {
  // liveness + database check; cheap enough to be the load balancer's probe
  const r = app.withTypeProvider<ZodTypeProvider>();
  route(r, api.getHealth, { logLevel: 'warn' }, async (_req, reply) => {
    try {
      await app.ctx.database.ping();
      return { status: 'ok' as const, database: app.ctx.database.kind };
    } catch {
      reply.header('retry-after', '5');
      return reply.status(503).send({ status: 'unavailable', message: 'Database unreachable' });
    }
  });
}
