import crypto from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { apiTokens, teamMembers } from '#server/db/schema/index';
import type { AppContext } from '#server/context';
import { badRequest, forbidden, notFound } from '#server/http/http-errors';
import { sha256Hex } from '#server/infra/crypto';
import { PERSONAL_SCOPES, TEAM_SCOPES, TOKEN_PREFIX, type ApiScope, type ApiTokenSummary, type TokenCreateBody, type TokenCreateResponse } from '#shared/schemas/developer';

/** How many live tokens one person may hold (a guard against a runaway script). */
const MAX_TOKENS = 50;

type TokenRow = typeof apiTokens.$inferSelect;

function toSummary(row: TokenRow, now = Date.now()): ApiTokenSummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiScope[],
    teamId: row.teamId,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now,
  };
}

/** A new secret: `mc_` + 32 random bytes (base64url, 43 characters). */
function newSecret(): string {
  return TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
}

export async function createToken(ctx: AppContext, userId: string, input: TokenCreateBody): Promise<TokenCreateResponse> {
  const scopes = [...new Set(input.scopes)];
  let teamId: string | null = null;
  if (input.team) {
    const wrong = scopes.filter((s) => !TEAM_SCOPES.includes(s));
    if (wrong.length) throw badRequest(`A team token takes team scopes only (not ${wrong.join(', ')})`, { scopes: 'A team token takes team:read and team:write only' });
    const [m] = await ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, userId)).limit(1);
    if (!m) throw badRequest('You are not in a team', { team: 'You are not in a team' });
    if (m.role !== 'owner' && m.role !== 'admin') throw forbidden('Only team owners and admins can create team tokens');
    teamId = m.teamId;
  } else {
    const wrong = scopes.filter((s) => !PERSONAL_SCOPES.includes(s));
    if (wrong.length) throw badRequest(`Team scopes need a team token (${wrong.join(', ')})`, { scopes: 'Team scopes need a team token' });
  }
  const live = await ctx.db.select({ id: apiTokens.id }).from(apiTokens).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  if (live.length >= MAX_TOKENS) throw badRequest(`You can have at most ${MAX_TOKENS} tokens; revoke one first`);
  const secret = newSecret();
  const [row] = await ctx.db
    .insert(apiTokens)
    .values({
      userId,
      teamId,
      name: input.name,
      prefix: secret.slice(0, TOKEN_PREFIX.length + 6),
      tokenHash: sha256Hex(secret),
      scopes,
      expiresAt: input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * 86400_000),
    })
    .returning();
  return { token: toSummary(row!), secret, message: 'Copy this token now: it will not be shown again.' };
}

export async function listTokens(ctx: AppContext, userId: string): Promise<ApiTokenSummary[]> {
  const rows = await ctx.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt));
  const now = Date.now();
  return rows.map((r) => toSummary(r, now));
}

export async function revokeToken(ctx: AppContext, userId: string, id: string): Promise<void> {
  const rows = await ctx.db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (!rows.length) throw notFound('Token not found');
}
