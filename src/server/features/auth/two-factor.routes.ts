import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/auth';
import type { ZodTypeProvider } from '#server/http/validation';
import type { AppContext, SessionUser } from '#server/context';
import { SSO_MESSAGES } from '#shared/schemas/sso';
import { eq } from 'drizzle-orm';
import { users } from '#server/db/schema/auth';
import { badRequest, forbiddenCode, unauthorized } from '#server/http/http-errors';
import { sessionCookieFor, startSession, toSessionUser } from '#server/plugins/session';
import { clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import { RECENT_AUTH_REQUIRED, TWO_FACTOR_MESSAGES, TWO_FACTOR_SETUP_REQUIRED } from '#shared/schemas/auth';
import { isRecentlyAuthenticated } from '#server/plugins/recent-auth';
import { endSession, verifyPassword, findUserByEmail } from './auth.service';
import {
  checkSecondFactor,
  confirmTotp,
  disableTotp,
  endPendingSignIn,
  factorsOf,
  failPendingSignIn,
  findPendingSignIn,
  forgetSecondFactorIfNone,
  hasSecondFactor,
  markSessionVerified,
  PENDING_SIGN_IN_SECONDS,
  refuseCode,
  startTotpSetup,
} from './two-factor.service';
import { listPasskeys, passkeyRegistrationOptions, passkeySignInOptions, registerPasskey, removePasskey, renamePasskey, verifyPasskeySignIn } from './passkeys.service';
import { recordAuthEvent } from './identity-events';

/** Wrong-code and passkey attempts per IP (on top of the per-account limit on codes). */
const SECOND_STEP_IP_LIMIT = { limit: 30, windowSeconds: 10 * 60 };

/** The cookie that carries a sign-in waiting for its second factor (host-only and Secure behind TLS, like the session's). */
export function pendingCookieFor(app: FastifyInstance, req: FastifyRequest) {
  const s = sessionCookieFor(app, req);
  return { name: s.name.startsWith('__Host-') ? '__Host-tfa' : 'tfa', secure: s.secure };
}

export function setPendingCookie(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, token: string) {
  const c = pendingCookieFor(app, req);
  reply.setCookie(c.name, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: c.secure, maxAge: PENDING_SIGN_IN_SECONDS });
}

function clearPendingCookie(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const c = pendingCookieFor(app, req);
  reply.clearCookie(c.name, { path: '/', httpOnly: true, sameSite: 'lax', secure: c.secure });
}

export interface TwoFactorRoutesOptions {
  /** the same after-sign-in step a password sign-in runs (orders gathered by a verified address) */
  verifiedSignIn: (user: { id: string; emailVerified: boolean }) => Promise<void>;
  /** a team that requires single sign-on (issue 39): a passkey alone does not sign its members in either */
  passwordSignInPolicy?: (ctx: AppContext, user: { id: string; email: string; role: 'admin' | 'user' }) => Promise<'allow' | 'second-factor' | 'refuse'>;
}

export async function twoFactorRoutes(app: FastifyInstance, opts: TwoFactorRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  /** Adding a factor to an account that already has one needs a session that passed one (no password-only escalation). */
  const assertMayAddFactor = async (req: FastifyRequest) => {
    if (hasSecondFactor(await factorsOf(ctx, req.user!.id)) && !req.sessionAuth?.secondFactorAt) {
      throw forbiddenCode(TWO_FACTOR_MESSAGES.secondFactorFirst, TWO_FACTOR_SETUP_REQUIRED);
    }
  };

  route(r, api.getAccountTwoFactor, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const f = await factorsOf(ctx, req.user!.id);
    return {
      totp: f.totp,
      recoveryCodesLeft: f.recoveryCodesLeft,
      passkeys: f.passkeys,
      sessionVerified: !!req.sessionAuth?.secondFactorAt,
      staffSetupRequired: req.user!.role === 'admin' && ctx.config.STAFF_TWO_FACTOR === 'required' && !req.sessionAuth?.secondFactorAt,
      authenticatedAt: req.sessionAuth?.authenticatedAt.toISOString() ?? null,
    };
  });

  route(r, api.postAccountTwoFactorTotp, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    await assertMayAddFactor(req);
    return startTotpSetup(ctx, req.user!);
  });

  route(r, api.postAccountTwoFactorTotpConfirm, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    await assertMayAddFactor(req);
    const recoveryCodes = await confirmTotp(ctx, req.user!.id, req.body.code);
    // the code just typed is a factor check: this session now counts as verified
    if (req.sessionId) await markSessionVerified(ctx, req.sessionId, { secondFactor: true });
    await recordAuthEvent(ctx, req, { kind: 'two-factor-enabled', userId: req.user!.id });
    return { recoveryCodes };
  });

  route(r, api.deleteAccountTwoFactorTotp, async (req) => {
    await disableTotp(ctx, req.user!.id, req.body.password);
    await recordAuthEvent(ctx, req, { kind: 'two-factor-disabled', userId: req.user!.id });
    return { message: 'Two-factor sign-in with an authenticator app is off.' };
  });

  route(r, api.getAccountPasskeys, async (req) => ({ passkeys: await listPasskeys(ctx, req.user!.id) }));

  route(r, api.postAccountPasskeysOptions, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    await assertMayAddFactor(req);
    return { options: (await passkeyRegistrationOptions(ctx, req, req.user!)) as unknown as Record<string, unknown> };
  });

  route(r, api.postAccountPasskeys, async (req, reply) => {
    await assertMayAddFactor(req);
    const item = await registerPasskey(ctx, req, req.user!.id, req.body);
    // made with user verification in this session: it counts as a factor check here
    if (req.sessionId) await markSessionVerified(ctx, req.sessionId, { secondFactor: true });
    await recordAuthEvent(ctx, req, { kind: 'passkey-added', userId: req.user!.id, detail: { passkeyId: item.id } });
    return reply.status(201).send(item);
  });

  route(r, api.patchAccountPasskey, async (req) => renamePasskey(ctx, req.user!.id, req.params.id, req.body.name));

  route(r, api.deleteAccountPasskey, async (req) => {
    // a factor is removed only by a session that proved itself lately (RECENT_AUTH_MINUTES)
    if (!isRecentlyAuthenticated(req)) throw forbiddenCode(TWO_FACTOR_MESSAGES.recentAuth, RECENT_AUTH_REQUIRED);
    await removePasskey(ctx, req.user!.id, req.params.id);
    await forgetSecondFactorIfNone(ctx, req.user!.id);
    await recordAuthEvent(ctx, req, { kind: 'passkey-removed', userId: req.user!.id, detail: { passkeyId: req.params.id } });
    return { message: 'Passkey removed.' };
  });

  /** Ends any older session and starts the signed-in one (a new token: no session fixation). */
  const completeSignIn = async (req: FastifyRequest, reply: FastifyReply, user: SessionUser) => {
    if (req.sessionId) await endSession(ctx, req.sessionId);
    await startSession(app, req, reply, user.id, { secondFactor: true });
    await opts.verifiedSignIn(user);
    return user;
  };

  route(r, api.postAuthLoginTwoFactor, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `2fa:ip:${clientKey(req)}`, SECOND_STEP_IP_LIMIT.limit, SECOND_STEP_IP_LIMIT.windowSeconds, TWO_FACTOR_MESSAGES.tooManyCodes);
    const pending = await findPendingSignIn(ctx, req.cookies[pendingCookieFor(app, req).name]);
    if (!pending) throw unauthorized(TWO_FACTOR_MESSAGES.noPending);
    const result = await checkSecondFactor(ctx, pending.userId, req.body.code);
    if (result === 'wrong' || result === 'used') {
      await recordAuthEvent(ctx, req, { kind: 'two-factor-failed', userId: pending.userId, detail: { reason: result } });
      if (!(await failPendingSignIn(ctx, pending.id))) {
        clearPendingCookie(app, req, reply);
        throw unauthorized(TWO_FACTOR_MESSAGES.tooManyCodes);
      }
      refuseCode(result);
    }
    if (!(await endPendingSignIn(ctx, pending.id))) throw unauthorized(TWO_FACTOR_MESSAGES.noPending);
    clearPendingCookie(app, req, reply);
    const user = await userById(pending.userId);
    if (result === 'recovery') await recordAuthEvent(ctx, req, { kind: 'recovery-code-used', userId: user.id });
    await recordAuthEvent(ctx, req, { kind: 'sign-in', userId: user.id, email: user.email, detail: { method: result === 'recovery' ? 'password+recovery-code' : 'password+totp' } });
    return completeSignIn(req, reply, user);
  });

  route(r, api.postAuthPasskeyOptions, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    // every sign-in page asks once (autofill), so the limit is generous; each answer stores a 5-minute challenge
    await enforceRateLimit(ctx.rateLimiter, `passkey-options:ip:${clientKey(req)}`, 300, 10 * 60);
    return { options: (await passkeySignInOptions(ctx, req)) as unknown as Record<string, unknown> };
  });

  route(r, api.postAuthPasskey, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `2fa:ip:${clientKey(req)}`, SECOND_STEP_IP_LIMIT.limit, SECOND_STEP_IP_LIMIT.windowSeconds, TWO_FACTOR_MESSAGES.tooManyCodes);
    let signed;
    try {
      signed = await verifyPasskeySignIn(ctx, req, req.body.credential);
    } catch (e) {
      await recordAuthEvent(ctx, req, { kind: 'sign-in-failed', detail: { method: 'passkey' } });
      throw e;
    }
    // a passkey also answers a sign-in that waits for its second factor
    const pending = await findPendingSignIn(ctx, req.cookies[pendingCookieFor(app, req).name]);
    // a passkey is both factors, so the owner's and staff's break-glass passes; a member of a team requiring SSO does not
    if (!pending && opts.passwordSignInPolicy && (await opts.passwordSignInPolicy(ctx, toSessionUser(signed.user))) === 'refuse') {
      await recordAuthEvent(ctx, req, { kind: 'sign-in-failed', userId: signed.user.id, email: signed.user.email, detail: { method: 'passkey', reason: 'sso-required' } });
      throw forbiddenCode(SSO_MESSAGES.required, 'sso_required');
    }
    if (pending) await endPendingSignIn(ctx, pending.id);
    clearPendingCookie(app, req, reply);
    await recordAuthEvent(ctx, req, { kind: 'sign-in', userId: signed.user.id, email: signed.user.email, detail: { method: 'passkey' } });
    return completeSignIn(req, reply, toSessionUser(signed.user));
  });

  route(r, api.postAuthReauthenticate, async (req) => {
    const userId = req.user!.id;
    if (!req.sessionId) throw unauthorized('Sign in with your password or a passkey.');
    const factors = await factorsOf(ctx, userId);
    let secondFactor = false;
    if (req.body.credential !== undefined) {
      // one of this account's passkeys (a passkey of another account proves nothing here, and signs no one in)
      const proof = await verifyPasskeySignIn(ctx, req, req.body.credential).catch(async (e) => {
        await recordAuthEvent(ctx, req, { kind: 'two-factor-failed', userId, detail: { reason: 'passkey', step: 'reauthenticate' } });
        throw e;
      });
      if (proof.user?.id !== userId) {
        await recordAuthEvent(ctx, req, { kind: 'two-factor-failed', userId, detail: { reason: 'other-account-passkey', step: 'reauthenticate' } });
        throw badRequest(TWO_FACTOR_MESSAGES.passkeyOtherAccount, { credential: TWO_FACTOR_MESSAGES.passkeyOtherAccount });
      }
      secondFactor = true;
    } else if (req.body.code !== undefined) {
      const result = await checkSecondFactor(ctx, userId, req.body.code);
      if (result === 'wrong' || result === 'used') {
        await recordAuthEvent(ctx, req, { kind: 'two-factor-failed', userId, detail: { reason: result, step: 'reauthenticate' } });
        refuseCode(result);
      }
      if (result === 'recovery') await recordAuthEvent(ctx, req, { kind: 'recovery-code-used', userId });
      secondFactor = true;
    } else {
      // an account with a second factor confirms with it; a password alone re-proves a password-only account
      if (hasSecondFactor(factors)) throw badRequest(TWO_FACTOR_MESSAGES.codeNeeded, { code: TWO_FACTOR_MESSAGES.codeNeeded });
      await enforceRateLimit(ctx.rateLimiter, `reauth:user:${userId}`, 10, 15 * 60, TWO_FACTOR_MESSAGES.tooManyCodes);
      const u = await findUserByEmail(ctx, req.user!.email);
      if (!(await verifyPassword(u?.passwordHash ?? null, req.body.password ?? ''))) {
        throw badRequest(TWO_FACTOR_MESSAGES.wrongPassword, { password: TWO_FACTOR_MESSAGES.wrongPassword });
      }
    }
    const at = await markSessionVerified(ctx, req.sessionId, { secondFactor });
    return { authenticatedAt: at.toISOString() };
  });

  async function userById(id: string): Promise<SessionUser> {
    const [u] = await ctx.db.select().from(users).where(eq(users.id, id));
    if (!u) throw unauthorized(TWO_FACTOR_MESSAGES.noPending);
    return toSessionUser(u);
  }
}

