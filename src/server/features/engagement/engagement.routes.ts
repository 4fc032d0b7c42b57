import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/engagement';
import type { ZodTypeProvider } from '#server/http/validation';
import { getEngagementStats } from './engagement.service';
import { getVisitStats } from './visit-stats.service';

export async function engagementRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Views of the user's own profile (dashboard analytics). */
  route(r, api.getStatsVisits, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getVisitStats(app.ctx, req.user!.id);
  });

  /** Views, saves, clicks, leads and save rate per day, and views by source (the owner's own profile only). */
  route(r, api.getStatsEngagement, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getEngagementStats(app.ctx, req.user!.id, req.query.days);
  });
}
