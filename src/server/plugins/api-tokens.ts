import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { apiTokens, teamMembers, users } from '#server/db/schema/index';
import { forbidden, unauthorized } from '#server/http/http-errors';
import { sha256Hex } from '#server/infra/crypto';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { TOKEN_PATTERN, type ApiScope } from '#shared/schemas/developer';

/** last_used_at is written at most once a minute per token (no write per request). */
const TOUCH_AFTER_MS = 60_000;

export const TOKEN_MESSAGES = {
  invalid: 'Invalid or expired API token',
  teamEnded: "This team token no longer works: its creator is no longer an owner or admin of the team",
  staff: 'API tokens cannot reach staff routes',
  notForTokens: 'This route is not available to API tokens',
  missingScope: (scope: string) => `This token does not have the ${scope} scope`,
};

/**
 * The secret from `Authorization: Bearer <secret>` on an `/api/` feature route ('' for a malformed
 * Bearer header); null without one, and on other routes (GET /metrics checks its own bearer token).
 */
export function bearerSecret(req: FastifyRequest): string | null {
  const url = req.routeOptions?.url;
  if (!url?.startsWith('/api/') || !(req.routeOptions.config as { access?: string } | undefined)?.access) return null;
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(.*)$/i.exec(h.trim());
  return m ? m[1]!.trim() : null;
}

/**
 * Authenticates a request that carries an API token (decision 23-01): the token must exist, be
 * neither revoked nor expired, and the route must declare the scopes it needs (`config.scopes`),
 * all of which the token holds. Staff routes and routes without scopes are never reached by a
 * token. The caller (session.ts) then runs the request as the token's creator, with no session
 * and no cookie.
 */
export async function authenticateBearer(app: FastifyInstance, req: FastifyRequest, secret: string): Promise<typeof users.$inferSelect> {
  const config = req.routeOptions?.config as { access?: string; scopes?: readonly ApiScope[] } | undefined;
  if (!TOKEN_PATTERN.test(secret)) throw unauthorized(TOKEN_MESSAGES.invalid);
  const { db, config: settings, rateLimiter } = app.ctx;
  const hash = sha256Hex(secret);
  const rows = await db
    .select({ t: apiTokens, u: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, hash), sql`${apiTokens.revokedAt} is null`, sql`(${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > now())`))
    .limit(1);
  const row = rows[0];
  // the index finds the row by hash; the comparison of the stored hash is constant-time as well
  if (!row || !crypto.timingSafeEqual(Buffer.from(row.t.tokenHash), Buffer.from(hash))) throw unauthorized(TOKEN_MESSAGES.invalid);
  const token = row.t;
  if (config?.access === 'admin') throw forbidden(TOKEN_MESSAGES.staff);
  const needed = config?.scopes ?? [];
  if (needed.length === 0) throw forbidden(TOKEN_MESSAGES.notForTokens);
  const missing = needed.find((s) => !token.scopes.includes(s));
  if (missing) throw forbidden(TOKEN_MESSAGES.missingScope(missing));
  if (token.teamId) {
    const [m] = await db
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, token.teamId), eq(teamMembers.userId, token.userId)))
      .limit(1);
    if (!m || (m.role !== 'owner' && m.role !== 'admin')) throw unauthorized(TOKEN_MESSAGES.teamEnded);
  }
  await enforceRateLimit(rateLimiter, `api-token:${token.id}`, settings.API_TOKEN_RATE_LIMIT_PER_MINUTE, 60, 'Too many requests with this API token. Please slow down.');
  req.apiToken = { id: token.id, scopes: token.scopes as ApiScope[], teamId: token.teamId };
  if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, token.id));
  }
  return row.u;
}
