import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/account';
import { ACCOUNT_MESSAGES } from '#shared/schemas/account';
import type { ZodTypeProvider } from '#server/http/validation';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { clearSessionCookie, startSession, toSessionUser } from '#server/plugins/session';
import { endSession } from '#server/features/auth/public-api';
import { FORGOT_MIN_MS, PUBLIC_FORM_LIMIT, TOKEN_LIMIT } from './account-guards';
import { changePassword, requestPasswordReset, resetPassword } from './password.service';
import { confirmEmailChange, pendingEmailChange, requestEmailChange } from './email-change.service';
import { listSessions, revokeOtherSessions } from './sessions.service';
import { deleteAccount } from './deletion.service';
import { accountExport, exportFileName } from './account-export';

export const EXPORT_LIMIT = { limit: 10, windowSeconds: 3600 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  let warned = false;
  // links in e-mails; without PUBLIC_URL the request's Host is used, which a caller controls
  const origin = (req: FastifyRequest) => {
    if (!app.ctx.config.PUBLIC_URL && app.ctx.config.NODE_ENV === 'production' && !warned) {
      warned = true;
      app.log.warn('PUBLIC_URL is not set: account e-mail links use the request Host header; set PUBLIC_URL in production');
    }
    return app.ctx.publicUrl({ protocol: req.protocol, host: req.host });
  };

  // -- password reset (signed out) ---------------------------------------------------------------

  route(r, api.postAuthForgotPassword, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `forgot:ip:${clientKey(req)}`, PUBLIC_FORM_LIMIT.limit, PUBLIC_FORM_LIMIT.windowSeconds);
    const started = Date.now();
    await requestPasswordReset(app.ctx, req.body.email, origin(req));
    // the same answer after (at least) the same time, whether or not the address has an account
    const left = FORGOT_MIN_MS - (Date.now() - started);
    if (left > 0) await sleep(left);
    return { message: ACCOUNT_MESSAGES.forgotSent };
  });

  route(r, api.postAuthResetPassword, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `reset:ip:${clientKey(req)}`, TOKEN_LIMIT.limit, TOKEN_LIMIT.windowSeconds);
    const user = await resetPassword(app.ctx, req.body.token, req.body.password, origin(req));
    // every session of the account is gone; this browser gets a fresh one
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    return { message: ACCOUNT_MESSAGES.resetDone, user: toSessionUser(user) };
  });

  // -- account settings (signed in) --------------------------------------------------------------

  route(r, api.getAccount, async (req) => {
    const u = req.user!;
    return { ...u, pendingEmail: await pendingEmailChange(app.ctx, u.id) };
  });

  route(r, api.getAccountSessions, async (req) => {
    return { sessions: await listSessions(app.ctx, req.user!.id, req.sessionId) };
  });

  route(r, api.postAccountSessionsRevokeOthers, async (req) => {
    const ended = await revokeOtherSessions(app.ctx, req.user!.id, req.sessionId);
    return { message: ACCOUNT_MESSAGES.sessionsEnded, ended };
  });

  route(r, api.postAccountPassword, async (req) => {
    await changePassword(app.ctx, req.user!.id, req.sessionId, req.body, origin(req));
    return { message: ACCOUNT_MESSAGES.passwordChanged };
  });

  route(r, api.postAccountEmail, async (req) => {
    const { pendingEmail } = await requestEmailChange(app.ctx, req.user!.id, req.body.newEmail, req.body.currentPassword, origin(req));
    return { message: ACCOUNT_MESSAGES.emailChangeSent, pendingEmail };
  });

  // the link may be opened on any device, signed in or not: the token is the proof
  route(r, api.postAccountEmailConfirm, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `confirm-email:ip:${clientKey(req)}`, TOKEN_LIMIT.limit, TOKEN_LIMIT.windowSeconds);
    const u = await confirmEmailChange(app.ctx, req.body.token);
    return { message: ACCOUNT_MESSAGES.emailChanged, email: u.email };
  });

  // -- your data -----------------------------------------------------------------------------------

  route(r, api.getAccountExport, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `export:user:${req.user!.id}`, EXPORT_LIMIT.limit, EXPORT_LIMIT.windowSeconds, 'Too many exports. Please try again later.');
    const chunks = await accountExport(app.ctx, req.user!.id, req.sessionId, origin(req));
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName()}"`)
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(chunks));
  });

  route(r, api.deleteAccount, async (req, reply) => {
    await deleteAccount(app.ctx, req.user!.id, req.body.password, origin(req));
    clearSessionCookie(req, reply);
    return { message: ACCOUNT_MESSAGES.accountDeleted };
  });
}
