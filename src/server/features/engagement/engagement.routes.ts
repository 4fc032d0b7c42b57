import type { FastifyInstance } from 'fastify';
import { EngagementStatsGetResponse, EngagementStatsQuery } from '#shared/schemas/engagement';
import type { ZodTypeProvider } from '#server/http/validation';
import { getEngagementStats } from './engagement.service';

export async function engagementRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Views, saves, clicks, leads and save rate per day, and views by source (the owner's own profile only). */
  r.get('/api/stats/engagement', { config: { access: 'user', scopes: ['stats:read'] }, schema: { querystring: EngagementStatsQuery, response: { 200: EngagementStatsGetResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getEngagementStats(app.ctx, req.user!.id, req.query.days);
  });
}
