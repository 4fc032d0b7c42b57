import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '#server/http/validation';
import { readUpload } from '#server/http/multipart';
import { enforceRateLimit } from '#server/infra/rate-limit';
import {
  TEAM_LIMITS,
  TeamBrandBody,
  TeamCreateBody,
  TeamGetResponse,
  TeamInvite,
  TeamInviteCreateBody,
  TeamInviteIdParams,
  TeamInviteReport,
  TeamInviteTokenParams,
  TeamJoinInfoResponse,
  TeamLeadListResponse,
  TeamLeadsCsvResponse,
  TeamMemberListResponse,
  TeamMemberParams,
  TeamMemberUpdateBody,
  TeamOrderBody,
  TeamOrder,
  TeamOrderListResponse,
  TeamStatsResponse,
  TeamTransferBody,
  TeamUpdateBody,
} from '#shared/schemas/team';
import { MessageResponse } from '#shared/schemas/common';
import { EngagementStatsQuery, LeadListQuery } from '#shared/schemas/engagement';
import { createTeam, deleteTeam, getTeamView, saveBrand, transferOwnership, updateTeam } from './team.service';
import { acceptInvite, changeRole, inviteMany, joinInfo, listMembers, removeMember, resendInvite, revokeInvite } from './members.service';
import { readMembersCsv } from './csv-import';
import { createTeamOrder, listTeamOrders } from './team-orders.service';
import { teamLeads, teamLeadsCsv, teamStats } from './team-stats.service';

/**
 * Teams (issue 21). Every route is `user` access; the caller's role in their team (owner, admin,
 * member) is checked by the services on every call, whatever the client shows.
 */
export async function teamRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const user = { access: 'user' as const };

  r.get('/api/team', { config: { ...user, scopes: ['team:read'] }, schema: { response: { 200: TeamGetResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getTeamView(ctx, req.user!.id);
  });

  r.post('/api/team', { config: user, schema: { body: TeamCreateBody, response: { 201: TeamGetResponse } } }, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-create:${req.user!.id}`, 10, 3600);
    return reply.status(201).send(await createTeam(ctx, req.user!.id, req.body));
  });

  r.patch('/api/team', { config: { ...user, scopes: ['team:write'] }, schema: { body: TeamUpdateBody, response: { 200: TeamGetResponse } } }, async (req) => updateTeam(ctx, req.user!.id, req.body));

  r.delete('/api/team', { config: user, schema: { response: { 200: MessageResponse } } }, async (req) => {
    await deleteTeam(ctx, req.user!.id);
    return { message: 'The team was deleted' };
  });

  r.put('/api/team/brand', { config: { ...user, scopes: ['team:write'] }, schema: { body: TeamBrandBody, response: { 200: TeamGetResponse } } }, async (req) => saveBrand(ctx, req.user!.id, req.body));

  r.post('/api/team/transfer', { config: user, schema: { body: TeamTransferBody, response: { 200: TeamGetResponse } } }, async (req) =>
    transferOwnership(ctx, req.user!.id, req.body.userId),
  );

  // ---- members and invitations ----

  r.get('/api/team/members', { config: { ...user, scopes: ['team:read'] }, schema: { response: { 200: TeamMemberListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return listMembers(ctx, req.user!.id);
  });

  r.post('/api/team/invites', { config: { ...user, scopes: ['team:write'] }, schema: { body: TeamInviteCreateBody, response: { 201: TeamInviteReport } } }, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-invite:${req.user!.id}`, 60, 3600, 'Too many invitations. Please try again later.');
    const report = await inviteMany(ctx, req.user!.id, req.body.invites.map((input, i) => ({ row: i + 1, input })), [], ctx.publicUrl(req));
    return reply.status(201).send(report);
  });

  /** The members CSV (multipart field `file`): a stream read with its own size cap, no JSON body. */
  r.post('/api/team/invites/import', { config: { ...user, scopes: ['team:write'] }, schema: { response: { 200: TeamInviteReport } } }, async (req) => {
    await enforceRateLimit(ctx.rateLimiter, `team-invite:${req.user!.id}`, 60, 3600, 'Too many invitations. Please try again later.');
    const file = await readUpload(req, { field: 'file', maxBytes: TEAM_LIMITS.importMaxBytes, tooLargeMessage: 'File too large. Maximum file size is 1MB' });
    const rows = readMembersCsv(file.data.toString('utf8'));
    return inviteMany(ctx, req.user!.id, rows.candidates, rows.refused, ctx.publicUrl(req));
  });

  r.post('/api/team/invites/:id/resend', { config: { ...user, scopes: ['team:write'] }, schema: { params: TeamInviteIdParams, response: { 200: TeamInvite } } }, async (req) => {
    await enforceRateLimit(ctx.rateLimiter, `team-invite:${req.user!.id}`, 60, 3600, 'Too many invitations. Please try again later.');
    return resendInvite(ctx, req.user!.id, req.params.id, ctx.publicUrl(req));
  });

  r.delete('/api/team/invites/:id', { config: { ...user, scopes: ['team:write'] }, schema: { params: TeamInviteIdParams, response: { 200: MessageResponse } } }, async (req) => {
    await revokeInvite(ctx, req.user!.id, req.params.id);
    return { message: 'Invitation revoked' };
  });

  /** The invitation page's details (anyone holding the link; the token is the secret). */
  r.get('/api/team/join/:token', { config: { access: 'public' }, schema: { params: TeamInviteTokenParams, response: { 200: TeamJoinInfoResponse } } }, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-join:${req.ip}`, 60, 60);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return joinInfo(ctx, req.params.token);
  });

  r.post('/api/team/invites/:token/accept', { config: user, schema: { params: TeamInviteTokenParams, response: { 200: TeamGetResponse } } }, async (req) => {
    await enforceRateLimit(ctx.rateLimiter, `team-join:${req.ip}`, 60, 60);
    await acceptInvite(ctx, req.user!, req.params.token);
    return getTeamView(ctx, req.user!.id);
  });

  r.patch('/api/team/members/:userId', { config: { ...user, scopes: ['team:write'] }, schema: { params: TeamMemberParams, body: TeamMemberUpdateBody, response: { 200: TeamMemberListResponse } } }, async (req) => {
    await changeRole(ctx, req.user!.id, req.params.userId, req.body.role);
    return listMembers(ctx, req.user!.id);
  });

  r.delete('/api/team/members/:userId', { config: { ...user, scopes: ['team:write'] }, schema: { params: TeamMemberParams, response: { 200: MessageResponse } } }, async (req) => {
    await removeMember(ctx, req.user!.id, req.params.userId);
    return { message: 'Removed from the team' };
  });

  // ---- team cards ----

  r.get('/api/team/orders', { config: { ...user, scopes: ['team:read'] }, schema: { response: { 200: TeamOrderListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return listTeamOrders(ctx, req.user!.id);
  });

  r.post('/api/team/orders', { config: user, schema: { body: TeamOrderBody, response: { 200: TeamOrder, 201: TeamOrder } } }, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-order:${req.user!.id}`, 20, 3600, 'Too many orders. Please try again later.');
    const { order, created } = await createTeamOrder(ctx, req.user!.id, req.body, ctx.publicUrl(req));
    return reply.status(created ? 201 : 200).send(order);
  });

  // ---- analytics and leads ----

  r.get('/api/team/stats', { config: { ...user, scopes: ['team:read'] }, schema: { querystring: EngagementStatsQuery, response: { 200: TeamStatsResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return teamStats(ctx, req.user!.id, req.query.days);
  });

  r.get('/api/team/leads', { config: { ...user, scopes: ['team:read'] }, schema: { querystring: LeadListQuery, response: { 200: TeamLeadListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return teamLeads(ctx, req.user!.id, req.query);
  });

  r.get('/api/team/leads.csv', { config: { ...user, scopes: ['team:read'] }, schema: { response: { 200: TeamLeadsCsvResponse } } }, async (req, reply) => {
    const csv = await teamLeadsCsv(ctx, req.user!.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="team-leads-${new Date().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
