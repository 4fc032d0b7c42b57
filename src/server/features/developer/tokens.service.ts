import crypto from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { apiTokens } from '#server/db/schema/developer';
import type { AppContext } from '#server/context';
import { badRequest, forbidden, notFound } from '#server/http/http-errors';
import { sha256Hex } from '#server/infra/crypto';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { proveOwner } from '#server/features/auth/public-api';
import { teamMembershipOf } from '#server/features/team/reads';
import {
  API_SCOPE_LABELS,
  PERSONAL_SCOPES,
  TEAM_SCOPES,
  TOKEN_PREFIX,
  type ApiScope,
  type ApiTokenSummary,
  type TokenCreateBody,
  type TokenCreateResponse,
} from '#shared/schemas/developer';

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

/** The owner's notice of a new token (issue 33): what it may do, when, and what to do if it was not them. */
function tokenCreatedEmail(to: string, origin: string, token: { name: string; scopes: ApiScope[]; team: boolean; createdAt: Date; expiresAt: Date | null }) {
  return renderEmail({
    preheader: 'A new API token was created for your account',
    heading: 'A new API token was created',
    paragraphs: [
      `An API token was just created for the Metal Cards NYC account ${to}. Whoever holds it can use your account through the API within its scopes, without signing in.`,
      'If this was not you, reset your password right away: a password reset ends every API token and webhook of the account.',
    ],
    rows: [
      ['Name', token.name],
      ['Kind', token.team ? 'Team token' : 'Personal token'],
      ['Scopes', token.scopes.map((s) => `${s} (${API_SCOPE_LABELS[s]})`).join(', ')],
      ['Created', token.createdAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'],
      ['Expires', token.expiresAt ? token.expiresAt.toISOString().slice(0, 10) : 'Never (until revoked)'],
    ],
    button: { label: 'Reset password', url: `${origin}/forgot-password` },
  });
}

/**
 * A new token for a verified account whose password was just entered again (issue 33); the owner
 * is e-mailed in the same transaction.
 */
export async function createToken(ctx: AppContext, userId: string, input: TokenCreateBody, origin: string): Promise<TokenCreateResponse> {
  const scopes = [...new Set(input.scopes)];
  let teamId: string | null = null;
  if (input.team) {
    const wrong = scopes.filter((s) => !TEAM_SCOPES.includes(s));
    if (wrong.length) throw badRequest(`A team token takes team scopes only (not ${wrong.join(', ')})`, { scopes: 'A team token takes team:read and team:write only' });
    const m = await teamMembershipOf(ctx.db, userId);
    if (!m) throw badRequest('You are not in a team', { team: 'You are not in a team' });
    if (m.role !== 'owner' && m.role !== 'admin') throw forbidden('Only team owners and admins can create team tokens');
    teamId = m.teamId;
  } else {
    const wrong = scopes.filter((s) => !PERSONAL_SCOPES.includes(s));
    if (wrong.length) throw badRequest(`Team scopes need a team token (${wrong.join(', ')})`, { scopes: 'Team scopes need a team token' });
  }
  const owner = await proveOwner(ctx, userId, input.password);
  const live = await ctx.db.select({ id: apiTokens.id }).from(apiTokens).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  if (live.length >= MAX_TOKENS) throw badRequest(`You can have at most ${MAX_TOKENS} tokens; revoke one first`);
  const secret = newSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
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
    const { text, html } = tokenCreatedEmail(owner.email, origin, { name: created!.name, scopes, team: teamId !== null, createdAt: created!.createdAt, expiresAt: created!.expiresAt });
    await enqueueEmail(tx, { dedupeKey: `api-token-created:${created!.id}`, kind: 'api-token-created', to: owner.email, subject: 'A new API token was created for your Metal Cards NYC account', text, html });
    return created!;
  });
  ctx.outbox.kick();
  return { token: toSummary(row), secret, message: 'Copy this token now: it will not be shown again.' };
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
