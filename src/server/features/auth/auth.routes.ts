import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/auth';
import { VERIFY_MESSAGES } from '#shared/auth-rules';
import type { ZodTypeProvider } from '#server/http/validation';
import type { AppContext } from '#server/context';
import { forbiddenCode, unauthorized } from '#server/http/http-errors';
import { SSO_MESSAGES } from '#shared/schemas/sso';
import { clearSessionCookie, startSession, toSessionUser } from '#server/plugins/session';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { authenticate, endSession, registerUser } from './auth.service';
import { resendVerificationEmail, verifyEmailToken } from './email-verification.service';
import { factorsOf, hasSecondFactor, startPendingSignIn } from './two-factor.service';
import { setPendingCookie, twoFactorRoutes } from './two-factor.routes';
import { recordAuthEvent } from './identity-events';

/** Verification links spent per IP (a token is unguessable; this only keeps junk traffic cheap). */
const VERIFY_IP_LIMIT = { limit: 10, windowSeconds: 15 * 60 };

export interface AuthRoutesOptions {
  /** called after a sign-in or a verification by an account whose address is verified (never fails the request) */
  onVerifiedSignIn?: (ctx: AppContext, userId: string) => Promise<unknown>;
  /** may this account sign in with its password (a team requiring single sign-on, issue 39): 'second-factor' lets only the two-factor path through */
  passwordSignInPolicy?: (ctx: AppContext, user: { id: string; email: string; role: 'admin' | 'user' }) => Promise<'allow' | 'second-factor' | 'refuse'>;
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

  route(r, api.postAuthRegister, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `register:ip:${clientKey(req)}`, 20, 3600, 'Too many sign-ups from this address. Please try again later.');
    const user = await registerUser(app.ctx, req.body, origin(req));
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    return reply.status(201).send(user);
  });

  route(r, api.postAuthLogin, async (req, reply) => {
    let user;
    try {
      user = await authenticate(app.ctx, clientKey(req), req.body.email, req.body.password);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 401) await recordAuthEvent(app.ctx, req, { kind: 'sign-in-failed', email: req.body.email, detail: { method: 'password' } });
      throw e;
    }
    // a second factor on the account (issue 39): no session yet; POST /api/auth/login/two-factor completes it
    const factors = await factorsOf(app.ctx, user.id);
    // a team that requires single sign-on: its people use it; its owner and staff keep the password with a second factor
    const policy = opts.passwordSignInPolicy ? await opts.passwordSignInPolicy(app.ctx, user) : 'allow';
    if (policy === 'refuse' || (policy === 'second-factor' && !hasSecondFactor(factors))) {
      await recordAuthEvent(app.ctx, req, { kind: 'sign-in-failed', userId: user.id, email: user.email, detail: { method: 'password', reason: 'sso-required' } });
      throw forbiddenCode(policy === 'refuse' ? SSO_MESSAGES.required : SSO_MESSAGES.breakGlassNeedsFactor, 'sso_required');
    }
    if (hasSecondFactor(factors)) {
      setPendingCookie(app, req, reply, await startPendingSignIn(app.ctx, user.id));
      const methods: Array<'totp' | 'passkey'> = [];
      if (factors.totp === 'on') methods.push('totp');
      if (factors.passkeys > 0) methods.push('passkey');
      return { twoFactorRequired: true as const, methods };
    }
    // a new token at every login; the old session (if any) is ended (no session fixation)
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    await recordAuthEvent(app.ctx, req, { kind: 'sign-in', userId: user.id, email: user.email, detail: { method: 'password' } });
    await verifiedSignIn(user);
    return user;
  });

  route(r, api.postAuthLogout, async (req, reply) => {
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    clearSessionCookie(req, reply);
    return { message: 'Logged out' };
  });

  route(r, api.getAuthUser, async (req) => {
    if (!req.user) throw unauthorized('Not signed in');
    return req.user;
  });

  // the same question for the web client, answered 200 for visitors too (no failed request logged in their browser)
  route(r, api.getAuthSession, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { user: req.user ?? null };
  });

  // the link may be opened on any device, signed in or not: the token is the proof
  route(r, api.postAuthVerifyEmail, async (req) => {
    await enforceRateLimit(app.ctx.rateLimiter, `verify-email:ip:${clientKey(req)}`, VERIFY_IP_LIMIT.limit, VERIFY_IP_LIMIT.windowSeconds);
    const u = await verifyEmailToken(app.ctx, req.body.token);
    await verifiedSignIn({ id: u.id, emailVerified: true });
    return { message: VERIFY_MESSAGES.verified, user: req.user?.id === u.id ? toSessionUser(u) : null };
  });

  route(r, api.postAuthVerifyEmailResend, async (req) => {
    await resendVerificationEmail(app.ctx, req.user!.id, origin(req));
    return { message: VERIFY_MESSAGES.sent };
  });

  // passkeys and two-factor sign-in (issue 39): the second step runs the same after-sign-in step
  await twoFactorRoutes(app, { verifiedSignIn, passwordSignInPolicy: opts.passwordSignInPolicy });
}
