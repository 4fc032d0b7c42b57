import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, sql } from 'drizzle-orm';
import { sessions, users } from '#server/db/schema/index';
import { hmacHex, randomToken } from '#server/infra/crypto';
import { clientAddress } from '#server/infra/rate-limit';
import { forbidden, forbiddenCode, unauthorized } from '#server/http/http-errors';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_SETUP_REQUIRED } from '#shared/schemas/auth';
import type { SessionUser } from '#server/context';
import { isHttpsSite } from './security';
import { authenticateBearer, bearerSecret } from './api-tokens';
import { registerRecentAuth } from './recent-auth';

export const SESSION_COOKIE = 'sid';
/** Behind TLS (PUBLIC_URL https): a host-only, Secure, path=/ cookie that no subdomain or plain-http page can set (issue 19.8). */
export const SECURE_SESSION_COOKIE = '__Host-sid';

/** The session cookie's name and Secure flag for this site: decided by PUBLIC_URL, never by what a proxy says. */
export function sessionCookieFor(app: FastifyInstance, req: FastifyRequest): { name: string; secure: boolean } {
  if (isHttpsSite(app.ctx.config.PUBLIC_URL)) return { name: SECURE_SESSION_COOKIE, secure: true };
  return { name: SESSION_COOKIE, secure: req.protocol === 'https' };
}
const TOUCH_AFTER_MS = 5 * 60 * 1000;

export function hashSessionToken(secret: string, token: string) {
  return hmacHex(secret, `session:${token}`);
}

/** Reads the session cookie into request.user; guards routes by their `config.access`. */
export function registerSession(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('sessionAuth', null);
  app.decorateRequest('apiToken', null);

  app.addHook('onRequest', async (req) => {
    // an API token (Authorization: Bearer on an /api route) replaces the session: such requests never use a cookie
    const bearer = bearerSecret(req);
    if (bearer !== null) {
      req.user = toSessionUser(await authenticateBearer(app, req, bearer));
      return;
    }
    const token = req.cookies[sessionCookieFor(app, req).name];
    if (!token || token.length > 100) return;
    const { db, config, sessionSecret } = app.ctx;
    const id = hashSessionToken(sessionSecret, token);
    const idleMs = config.SESSION_IDLE_DAYS * 86400_000;
    const rows = await db
      .select({ s: sessions, u: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`), gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${idleMs / 1000})`)))
      .limit(1);
    const row = rows[0];
    if (!row) return;
    req.user = toSessionUser(row.u);
    req.sessionId = id;
    req.sessionAuth = { authenticatedAt: row.s.authenticatedAt, secondFactorAt: row.s.secondFactorAt };
    if (Date.now() - row.s.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, id));
    }
  });

  app.addHook('onRoute', (route) => {
    const url = route.url;
    const access = route.config?.access;
    if (!access) {
      if (url.startsWith('/api/') && !url.startsWith('/api/*')) {
        throw new Error(`Route ${route.method} ${url} does not declare config.access`);
      }
      return;
    }
    if (access === 'public') return;
    const guard = access === 'admin' ? requireAdmin : requireUser;
    // checked in onRequest (after the session is read, before the body is parsed or validated), so a
    // caller without access gets 401/403 and never a 400 that reveals what the route expects
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [guard, ...existing];
  });
  registerRecentAuth(app);
}

export async function requireUser(req: FastifyRequest) {
  if (!req.user) throw unauthorized('Authentication required');
}

export async function requireAdmin(req: FastifyRequest) {
  if (!req.user) throw unauthorized('Authentication required');
  if (req.user.role !== 'admin') throw forbidden('Admin access required');
  // STAFF_TWO_FACTOR=required (issue 39): the staff area needs a session that passed a second factor
  if (req.server.ctx.config.STAFF_TWO_FACTOR === 'required' && !req.sessionAuth?.secondFactorAt) {
    throw forbiddenCode(TWO_FACTOR_MESSAGES.setupRequired, TWO_FACTOR_SETUP_REQUIRED);
  }
}

export function toSessionUser(u: typeof users.$inferSelect): SessionUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role === 'admin' ? 'admin' : 'user',
    emailVerified: u.emailVerifiedAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Starts a new session (new random token every time) and sets the cookie. */
export async function startSession(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  /** the sign-in passed a second factor (a code or a passkey) */
  opts: { secondFactor?: boolean } = {},
) {
  const { db, config, sessionSecret } = app.ctx;
  const token = randomToken(32);
  const id = hashSessionToken(sessionSecret, token);
  const maxAgeSec = Math.round(config.SESSION_ABSOLUTE_DAYS * 86400);
  await db.insert(sessions).values({
    id,
    userId,
    expiresAt: new Date(Date.now() + maxAgeSec * 1000),
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
    ip: clientAddress(req),
    secondFactorAt: opts.secondFactor ? new Date() : null,
  });
  const cookie = sessionCookieFor(app, req);
  reply.setCookie(cookie.name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
    maxAge: maxAgeSec,
  });
  return id;
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply) {
  const cookie = sessionCookieFor(req.server, req);
  reply.clearCookie(cookie.name, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookie.secure });
}
