import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AuthLoginBody,
  AuthLogoutResponse,
  AuthRegisterBody,
  AuthUserResponse,
  AuthVerifyEmailResponse,
  AuthVerifyResendResponse,
  VerifyEmailBody,
} from '#shared/schemas/auth';
import { VERIFY_MESSAGES } from '#shared/auth-rules';
import type { ZodTypeProvider } from '#server/http/validation';
import type { AppContext } from '#server/context';
import { unauthorized } from '#server/http/http-errors';
import { clearSessionCookie, startSession, toSessionUser } from '#server/plugins/session';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { authenticate, endSession, registerUser } from './auth.service';
import { resendVerificationEmail, verifyEmailToken } from './email-verification.service';

/** Verification links spent per IP (a token is unguessable; this only keeps junk traffic cheap). */
const VERIFY_IP_LIMIT = { limit: 10, windowSeconds: 15 * 60 };

export interface AuthRoutesOptions {
  /** called after a sign-in or a verification by an account whose address is verified (never fails the request) */
  onVerifiedSignIn?: (ctx: AppContext, userId: string) => Promise<unknown>;
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions = {}) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const verifiedSignIn = async (user: { id: string; emailVerified: boolean }) => {
    if (!user.emailVerified || !opts.onVerifiedSignIn) return;
    try {
      await opts.onVerifiedSignIn(app.ctx, user.id);
    } catch (e) {
      app.log.warn({ err: e }, 'could not attach orders at sign-in');
    }
  };
  // links in e-mails (PUBLIC_URL when set, otherwise this request's origin)
  const origin = (req: FastifyRequest) => app.ctx.publicUrl({ protocol: req.protocol, host: req.host });

  r.post('/api/auth/register', { config: { access: 'public' }, schema: { body: AuthRegisterBody, response: { 201: AuthUserResponse } } }, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `register:ip:${req.ip}`, 20, 3600, 'Too many sign-ups from this address. Please try again later.');
    const user = await registerUser(app.ctx, req.body, origin(req));
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    return reply.status(201).send(user);
  });

  r.post('/api/auth/login', { config: { access: 'public' }, schema: { body: AuthLoginBody, response: { 200: AuthUserResponse } } }, async (req, reply) => {
    const user = await authenticate(app.ctx, req.ip, req.body.email, req.body.password);
    // a new token at every login; the old session (if any) is ended (no session fixation)
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    await verifiedSignIn(user);
    return user;
  });

  r.post('/api/auth/logout', { config: { access: 'public' }, schema: { response: { 200: AuthLogoutResponse } } }, async (req, reply) => {
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    clearSessionCookie(req, reply);
    return { message: 'Logged out' };
  });

  r.get('/api/auth/user', { config: { access: 'public' }, schema: { response: { 200: AuthUserResponse } } }, async (req) => {
    if (!req.user) throw unauthorized('Not signed in');
    return req.user;
  });

  // the link may be opened on any device, signed in or not: the token is the proof
  r.post('/api/auth/verify-email', { config: { access: 'public' }, schema: { body: VerifyEmailBody, response: { 200: AuthVerifyEmailResponse } } }, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `verify-email:ip:${req.ip}`, VERIFY_IP_LIMIT.limit, VERIFY_IP_LIMIT.windowSeconds);
    const u = await verifyEmailToken(app.ctx, req.body.token);
    await verifiedSignIn({ id: u.id, emailVerified: true });
    return { message: VERIFY_MESSAGES.verified, user: req.user?.id === u.id ? toSessionUser(u) : null };
  });

  r.post('/api/auth/verify-email/resend', { config: { access: 'user' }, schema: { response: { 200: AuthVerifyResendResponse } } }, async (req) => {
    await resendVerificationEmail(app.ctx, req.user!.id, origin(req));
    return { message: VERIFY_MESSAGES.sent };
  });
}
