import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import type { ZodTypeProvider } from '#server/http/validation';
import { isHttpsSite } from '#server/plugins/security';
import { clientAddress, clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import * as api from '#shared/contracts/sso';
import { ownedTeamId, type SsoActor } from './sso-owner';
import { addDomain, emailDomain, removeDomain, teamOfEmailDomain, verifyDomain } from './sso-domains.service';
import { connectionRow, oidcConnectionOf, oidcRedirectUri, removeConnection, saveOidcConnection, setRequireSso, ssoConfigOf } from './sso-connection.service';
import { completeOidcSignIn, startOidcSignIn } from './oidc.service';
import { finishSsoSignIn, safeReturnTo, ssoFailure } from './sso-sign-in';
import { registerSamlRoutes } from './saml.routes';

/** The browser's half of a pending OIDC sign-in (decision 39-03): HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET), ten minutes. */
const STATE_COOKIE = 'sso_state';
const SECURE_STATE_COOKIE = '__Host-sso_state';
const STATE_SECONDS = 10 * 60;

function stateCookie(app: FastifyInstance, req: FastifyRequest) {
  if (isHttpsSite(app.ctx.config.PUBLIC_URL)) return { name: SECURE_STATE_COOKIE, secure: true };
  return { name: STATE_COOKIE, secure: req.protocol === 'https' };
}

const origin = (app: FastifyInstance, req: FastifyRequest) => app.ctx.publicUrl({ protocol: req.protocol, host: req.host });
const actor = (req: FastifyRequest): SsoActor => ({ actorId: req.user!.id, ip: clientAddress(req) });
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/** Does this address's domain sign in with SSO? One bit, no team named. */
async function ssoTeamFor(app: FastifyInstance, email: string): Promise<string | null> {
  const teamId = await teamOfEmailDomain(app.ctx, email);
  if (!teamId) return null;
  const row = await connectionRow(app.ctx, teamId);
  return row?.kind ? teamId : null;
}

export async function ssoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  // ---- sign-in (public)
  route(r, api.postAuthSsoDiscover, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `sso-discover:ip:${clientKey(req)}`, 60, 600);
    noStore(reply);
    return { sso: Boolean(await ssoTeamFor(app, req.body.email)) };
  });

  route(r, api.getAuthSsoStart, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `sso-start:ip:${clientKey(req)}`, 30, 600);
    noStore(reply);
    const email = (req.query.email ?? '').trim();
    const returnTo = safeReturnTo(req.query.returnTo);
    const teamId = email && emailDomain(email) ? await ssoTeamFor(app, email) : null;
    if (!teamId) return reply.redirect('/login?sso_error=not-available', 303);
    const row = await connectionRow(ctx, teamId);
    if (row?.kind === 'saml') return reply.redirect(`/api/sso/saml/${teamId}/login?returnTo=${encodeURIComponent(returnTo)}`, 303);
    const conn = await oidcConnectionOf(ctx, teamId);
    if (!conn) return reply.redirect('/login?sso_error=not-available', 303);
    try {
      const { url, browserToken } = await startOidcSignIn(ctx, conn, oidcRedirectUri(origin(app, req)), returnTo, email);
      const c = stateCookie(app, req);
      reply.setCookie(c.name, browserToken, { path: '/', httpOnly: true, sameSite: 'lax', secure: c.secure, maxAge: STATE_SECONDS });
      return reply.redirect(url, 303);
    } catch (e) {
      return ssoFailure(app, req, reply, { teamId, kind: 'oidc', reason: `start: ${(e as Error).message}`, email });
    }
  });

  route(r, api.getAuthSsoOidcCallback, async (req, reply) => {
    await enforceRateLimit(ctx.rateLimiter, `sso-callback:ip:${clientKey(req)}`, 30, 600);
    noStore(reply);
    const c = stateCookie(app, req);
    const token = req.cookies[c.name];
    reply.clearCookie(c.name, { path: '/', httpOnly: true, sameSite: 'lax', secure: c.secure });
    const outcome = await completeOidcSignIn(ctx, token, oidcRedirectUri(origin(app, req)), req.query as Record<string, unknown>, (teamId) => oidcConnectionOf(ctx, teamId));
    if (!outcome.ok) return ssoFailure(app, req, reply, { teamId: outcome.teamId, kind: 'oidc', reason: outcome.reason, code: outcome.code });
    return finishSsoSignIn(app, req, reply, { teamId: outcome.teamId, identity: outcome.identity, returnTo: outcome.returnTo });
  });

  // ---- the team owner's settings
  route(r, api.getTeamSso, async (req, reply) => {
    noStore(reply);
    const teamId = await ownedTeamId(ctx, req.user!.id);
    return ssoConfigOf(ctx, teamId, req.user!.id, origin(app, req));
  });

  route(r, api.postTeamSsoDomain, async (req, reply) => {
    const teamId = await ownedTeamId(ctx, req.user!.id);
    return reply.status(201).send(await addDomain(ctx, teamId, req.body.domain, actor(req)));
  });

  route(r, api.postTeamSsoDomainVerify, async (req) => {
    const teamId = await ownedTeamId(ctx, req.user!.id);
    await enforceRateLimit(ctx.rateLimiter, `sso-verify:team:${teamId}`, 30, 600, 'Too many look-ups. Please wait a few minutes and try again.');
    return verifyDomain(ctx, teamId, req.params.id, actor(req));
  });

  route(r, api.deleteTeamSsoDomain, async (req, reply) => {
    const teamId = await ownedTeamId(ctx, req.user!.id);
    await removeDomain(ctx, teamId, req.params.id, actor(req));
    return reply.status(204).send(null);
  });

  route(r, api.putTeamSsoOidc, async (req) => {
    const teamId = await ownedTeamId(ctx, req.user!.id);
    await enforceRateLimit(ctx.rateLimiter, `sso-oidc:team:${teamId}`, 20, 600, 'Too many attempts. Please wait a few minutes and try again.');
    await saveOidcConnection(ctx, teamId, req.body, actor(req));
    return ssoConfigOf(ctx, teamId, req.user!.id, origin(app, req));
  });

  route(r, api.deleteTeamSsoConnection, async (req) => {
    const teamId = await ownedTeamId(ctx, req.user!.id);
    await removeConnection(ctx, teamId, actor(req));
    return { message: 'Single sign-on is disconnected' };
  });

  route(r, api.putTeamSsoRequire, async (req) => {
    const teamId = await ownedTeamId(ctx, req.user!.id);
    await setRequireSso(ctx, teamId, req.body.requireSso, actor(req));
    return ssoConfigOf(ctx, teamId, req.user!.id, origin(app, req));
  });

  // SAML 2.0 (decision 39-04): its own scope (the ACS reads a form)
  await registerSamlRoutes(app);
}
