import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/team';
import type { ZodTypeProvider } from '#server/http/validation';
import { readUpload } from '#server/http/multipart';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { runTask } from '#server/infra/worker-pool';
import { TEAM_LIMITS } from '#shared/schemas/team';
import { createTeam, deleteTeam, getTeamView, saveBrand, transferOwnership, updateTeam } from './team.service';
import { acceptInvite, changeRole, inviteMany, joinInfo, listMembers, removeMember, resendInvite, revokeInvite } from './members.service';
import type { ImportRows } from './csv-import';
import { createTeamOrder, listTeamOrders } from './team-orders.service';
import { teamLeads, teamLeadsCsv, teamStats } from './team-stats.service';
import { mailMembersOnMilestone } from './member-card-mail';
import { joinWithNewAccount } from './join-new-account';
import { endSession } from '#server/features/auth/public-api';
import { startSession } from '#server/plugins/session';
import { onOrderStatusChanged } from '#server/features/orders/public-api';

/**
 * Teams (issue 21). Every route is `user` access; the caller's role in their team (owner, admin,
 * member) is checked by the services on every call, whatever the client shows.
 */
export async function teamRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  // members hear about their own cards when the team's order ships or is ready (issue 37; once per process)
  onOrderStatusChanged(mailMembersOnMilestone);

  route(r, api.getTeam, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getTeamView(ctx, req.user!.id);
  });

  route(r, api.postTeam, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-create:${req.user!.id}`, 10, 3600);
    return reply.status(201).send(await createTeam(ctx, req.user!.id, req.body));
  });

  route(r, api.patchTeam, async (req) => updateTeam(ctx, req.user!.id, req.body));

  route(r, api.deleteTeam, async (req) => {
    await deleteTeam(ctx, req.user!.id);
    return { message: 'The team was deleted' };
  });

  route(r, api.putTeamBrand, async (req) => saveBrand(ctx, req.user!.id, req.body));

  route(r, api.postTeamTransfer, async (req) =>
    transferOwnership(ctx, req.user!.id, req.body.userId));

  // ---- members and invitations ----

  route(r, api.getTeamMembers, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return listMembers(ctx, req.user!.id);
  });

  route(r, api.postTeamInvites, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-invite:${req.user!.id}`, 60, 3600, 'Too many invitations. Please try again later.');
    const report = await inviteMany(ctx, req.user!.id, req.body.invites.map((input, i) => ({ row: i + 1, input })), [], ctx.publicUrl(req));
    return reply.status(201).send(report);
  });

  /** The members CSV (multipart field `file`): a stream read with its own size cap, no JSON body. */
  route(r, api.postTeamInvitesImport, async (req) => {
    await enforceRateLimit(ctx.rateLimiter, `team-invite:${req.user!.id}`, 60, 3600, 'Too many invitations. Please try again later.');
    const file = await readUpload(req, { field: 'file', maxBytes: TEAM_LIMITS.importMaxBytes, tooLargeMessage: 'File too large. Maximum file size is 1MB' });
    // parsed in the sandbox, never on this thread (issue 32): csv-import.task.ts
    const rows = await runTask<ImportRows>('upload', 'readMembersCsv', { bytes: file.data }, { tooComplex: 'The file could not be read. Please check it is a CSV text file.' });
    return inviteMany(ctx, req.user!.id, rows.candidates, rows.refused, ctx.publicUrl(req));
  });

  route(r, api.postTeamInvitesByIdResend, async (req) => {
    await enforceRateLimit(ctx.rateLimiter, `team-invite:${req.user!.id}`, 60, 3600, 'Too many invitations. Please try again later.');
    return resendInvite(ctx, req.user!.id, req.params.id, ctx.publicUrl(req));
  });

  route(r, api.deleteTeamInvitesById, async (req) => {
    await revokeInvite(ctx, req.user!.id, req.params.id);
    return { message: 'Invitation revoked' };
  });

  /** The invitation page's details (anyone holding the link; the token is the secret). */
  route(r, api.getTeamJoinByToken, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-join:${clientKey(req)}`, 60, 60);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return joinInfo(ctx, req.params.token);
  });

  // a new account from the invitation: only a password is asked; the invited address is proven (issue 37)
  route(r, api.postTeamJoinByTokenAccount, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-join:${clientKey(req)}`, 60, 60);
    await enforceRateLimit(ctx.rateLimiter, `register:ip:${clientKey(req)}`, 20, 3600, 'Too many sign-ups from this address. Please try again later.');
    const user = await joinWithNewAccount(ctx, req.params.token, req.body, ctx.publicUrl({ protocol: req.protocol, host: req.host }));
    if (req.sessionId) await endSession(ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    return reply.status(201).send(await getTeamView(ctx, user.id));
  });

  route(r, api.postTeamInvitesByTokenAccept, async (req) => {
    await enforceRateLimit(ctx.rateLimiter, `team-join:${clientKey(req)}`, 60, 60);
    await acceptInvite(ctx, req.user!, req.params.token);
    return getTeamView(ctx, req.user!.id);
  });

  route(r, api.patchTeamMembersByUserId, async (req) => {
    await changeRole(ctx, req.user!.id, req.params.userId, req.body.role);
    return listMembers(ctx, req.user!.id);
  });

  route(r, api.deleteTeamMembersByUserId, async (req) => {
    await removeMember(ctx, req.user!.id, req.params.userId);
    return { message: 'Removed from the team' };
  });

  // ---- team cards ----

  route(r, api.getTeamOrders, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return listTeamOrders(ctx, req.user!.id);
  });

  route(r, api.postTeamOrders, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `team-order:${req.user!.id}`, 20, 3600, 'Too many orders. Please try again later.');
    const { order, created } = await createTeamOrder(ctx, req.user!.id, req.body, ctx.publicUrl(req));
    return reply.status(created ? 201 : 200).send(order);
  });

  // ---- analytics and leads ----

  route(r, api.getTeamStats, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return teamStats(ctx, req.user!.id, req.query.days);
  });

  route(r, api.getTeamLeads, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return teamLeads(ctx, req.user!.id, req.query);
  });

  route(r, api.getTeamLeadsCsv, async (req, reply) => {
    const csv = await teamLeadsCsv(ctx, req.user!.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="team-leads-${new Date().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
