import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import { forbidden, notFound } from '#server/http/http-errors';
import type { ZodTypeProvider } from '#server/http/validation';
import type { AppContext } from '#server/context';
import * as api from '#shared/contracts/audit';
import { TEAM_MESSAGES } from '#shared/schemas/team';
import { identityEventsCsv, listIdentityEvents } from './audit.service';

/** The team verbs the audit log needs, passed in by the composition root (routes.ts): audit sits below team. */
export interface AuditRoutesOptions {
  teamRoleOf: (ctx: AppContext, userId: string) => Promise<{ teamId: string; role: string } | null>;
  teamMembersSince: (ctx: AppContext, teamId: string) => Promise<Array<{ userId: string; joinedAt: Date }>>;
}

export const ONLY_OWNER = 'Only the team owner can read the audit log';

/** The identity audit log (issue 39, decision 39-02): the team owner reads their team's, staff everything. */
export async function auditRoutes(app: FastifyInstance, opts: AuditRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  async function ownersScope(userId: string) {
    const m = await opts.teamRoleOf(ctx, userId);
    if (!m) throw notFound(TEAM_MESSAGES.noTeam);
    if (m.role !== 'owner') throw forbidden(ONLY_OWNER);
    return { teamId: m.teamId, members: await opts.teamMembersSince(ctx, m.teamId) };
  }
  const day = () => new Date().toISOString().slice(0, 10);

  route(r, api.getTeamAudit, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const scope = await ownersScope(req.user!.id);
    return listIdentityEvents(ctx, { ...scope, kind: req.query.kind }, req.query.page);
  });

  route(r, api.getTeamAuditCsv, async (req, reply) => {
    const scope = await ownersScope(req.user!.id);
    const csv = await identityEventsCsv(ctx, { ...scope, kind: req.query.kind });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="team-audit-log-${day()}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  route(r, api.getAdminAudit, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { page, ...filters } = req.query;
    return listIdentityEvents(ctx, filters, page);
  });

  route(r, api.getAdminAuditCsv, async (req, reply) => {
    const csv = await identityEventsCsv(ctx, req.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-log-${day()}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
