import type { FastifyInstance } from 'fastify';
import { HealthGetResponse } from '#shared/schemas/health';
import type { ZodTypeProvider } from '#server/http/validation';

export async function healthRoutes(app: FastifyInstance) {
  // liveness + database check; cheap enough to be the load balancer's probe. Probes that arrive
  // while a ping is under way share it: a flood of probes (the route is public) costs the
  // database one statement at a time, not one each. Nothing is remembered between pings, so the
  // first probe after the database goes away answers 503.
  let running: Promise<void> | null = null;
  const ping = () =>
    (running ??= app.ctx.database.ping().finally(() => {
      running = null;
    }));
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/health', { config: { access: 'public' }, logLevel: 'warn', schema: { response: HealthGetResponse } }, async (_req, reply) => {
    try {
      await ping();
      return { status: 'ok' as const, database: app.ctx.database.kind };
    } catch {
      reply.header('retry-after', '5');
      return reply.status(503).send({ status: 'unavailable', message: 'Database unreachable' });
    }
  });
}
