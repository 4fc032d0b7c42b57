import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { ssoConnections, ssoDomains } from '#server/db/schema/sso';
import { badRequest, conflict } from '#server/http/http-errors';
import { factorsOf, hasSecondFactor } from '#server/features/auth/public-api';
import { SSO_MESSAGES, type SsoConfig } from '#shared/schemas/sso';
import { auditSsoChange, type SsoActor } from './sso-owner';
import { listDomains } from './sso-domains.service';
import { sealClientSecret } from './sso-secret';
import { discoverIssuer, type OidcConnection } from './oidc.service';
import { IdpRequestError } from './oidc-fetch';

/**
 * A team's identity provider connection (decision 39-03): one row per team, the active kind
 * ('oidc' or 'saml'), the OIDC client (its secret sealed, never answered), the SAML settings
 * (decision 39-04, written through `saveSamlConfig`), and whether SSO is required.
 */

type Row = typeof ssoConnections.$inferSelect;

export async function connectionRow(ctx: AppContext, teamId: string): Promise<Row | null> {
  const [row] = await ctx.db.select().from(ssoConnections).where(eq(ssoConnections.teamId, teamId)).limit(1);
  return row ?? null;
}

/** The team's OIDC client when OIDC is its active kind. */
export async function oidcConnectionOf(ctx: AppContext, teamId: string): Promise<OidcConnection | null> {
  const row = await connectionRow(ctx, teamId);
  if (!row || row.kind !== 'oidc' || !row.oidcIssuer || !row.oidcClientId) return null;
  return { teamId, issuer: row.oidcIssuer, clientId: row.oidcClientId, clientSecret: row.oidcClientSecret, updatedAt: row.updatedAt };
}

export const oidcRedirectUri = (origin: string) => `${origin}/api/auth/sso/oidc/callback`;

async function upsert(ctx: AppContext, teamId: string, who: SsoActor, set: Partial<Row>) {
  await ctx.db
    .insert(ssoConnections)
    .values({ teamId, ...set, updatedBy: who.actorId, updatedAt: new Date() })
    .onConflictDoUpdate({ target: ssoConnections.teamId, set: { ...set, updatedBy: who.actorId, updatedAt: new Date() } });
}

export async function ssoConfigOf(ctx: AppContext, teamId: string, ownerId: string, origin: string): Promise<SsoConfig> {
  const [row, domains, factors] = await Promise.all([connectionRow(ctx, teamId), listDomains(ctx, teamId), factorsOf(ctx, ownerId)]);
  const kind = row?.kind === 'oidc' || row?.kind === 'saml' ? row.kind : null;
  return {
    domains,
    kind,
    oidc: row?.oidcIssuer && row.oidcClientId ? { issuer: row.oidcIssuer, clientId: row.oidcClientId, hasClientSecret: Boolean(row.oidcClientSecret) } : null,
    requireSso: Boolean(row?.requireSso && kind),
    oidcRedirectUri: oidcRedirectUri(origin),
    canRequire: Boolean(kind) && domains.some((d) => d.verifiedAt) && hasSecondFactor(factors),
  };
}

/** Connects (or changes) the OIDC provider: the issuer's discovery document must load and name the issuer. */
export async function saveOidcConnection(ctx: AppContext, teamId: string, body: { issuer: string; clientId: string; clientSecret?: string }, who: SsoActor): Promise<void> {
  const row = await connectionRow(ctx, teamId);
  const secretIn = body.clientSecret?.trim() ? body.clientSecret.trim() : null;
  // a new issuer or client needs its secret again (the stored one belongs to the old client)
  const sameClient = row?.oidcIssuer === body.issuer && row?.oidcClientId === body.clientId;
  if (!secretIn && !(sameClient && row?.oidcClientSecret)) throw badRequest('Enter the client secret', { clientSecret: 'Enter the client secret' });
  try {
    await discoverIssuer(ctx, body.issuer, body.clientId, secretIn ?? 'unused');
  } catch (e) {
    const msg = e instanceof IdpRequestError ? e.message : `The issuer's discovery document could not be loaded or does not match the issuer (${String((e as { code?: string }).code ?? (e as Error).message).slice(0, 150)})`;
    throw badRequest(msg, { issuer: msg });
  }
  const sealed = secretIn ? await sealClientSecret(ctx, secretIn) : row!.oidcClientSecret;
  await upsert(ctx, teamId, who, { kind: 'oidc', oidcIssuer: body.issuer, oidcClientId: body.clientId, oidcClientSecret: sealed });
  await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: 'oidc-connected', issuer: body.issuer, clientId: body.clientId, secretChanged: Boolean(secretIn) });
}

/** Disconnects the identity provider (both kinds' settings go); SSO is no longer required. */
export async function removeConnection(ctx: AppContext, teamId: string, who: SsoActor): Promise<void> {
  const row = await connectionRow(ctx, teamId);
  if (!row) return;
  await upsert(ctx, teamId, who, { kind: null, oidcIssuer: null, oidcClientId: null, oidcClientSecret: null, saml: null, requireSso: false });
  await auditSsoChange(ctx, teamId, who, 'sso-removed', { change: 'connection-removed', kind: row.kind });
}

/** Requires SSO (or not). Requiring needs a connection, a verified domain and a second factor on the owner's account (their break-glass way in). */
export async function setRequireSso(ctx: AppContext, teamId: string, requireSso: boolean, who: SsoActor): Promise<void> {
  if (requireSso) {
    const row = await connectionRow(ctx, teamId);
    const [domain] = await ctx.db.select({ id: ssoDomains.id }).from(ssoDomains).where(and(eq(ssoDomains.teamId, teamId), isNotNull(ssoDomains.verifiedAt))).limit(1);
    if (!row?.kind || !domain) throw conflict(SSO_MESSAGES.requireNeedsConnection, { requireSso: SSO_MESSAGES.requireNeedsConnection });
    if (!hasSecondFactor(await factorsOf(ctx, who.actorId))) throw conflict(SSO_MESSAGES.requireNeedsFactor, { requireSso: SSO_MESSAGES.requireNeedsFactor });
  }
  await upsert(ctx, teamId, who, { requireSso });
  await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: requireSso ? 'sso-required' : 'sso-not-required' });
}

/** The team's SAML settings as stored (decision 39-04 validates their shape); null: none. */
export async function getSamlConfig(ctx: AppContext, teamId: string): Promise<unknown | null> {
  return (await connectionRow(ctx, teamId))?.saml ?? null;
}

/** Stores the team's SAML settings and makes SAML the active kind; null removes them (and SAML stops being active). */
export async function saveSamlConfig(ctx: AppContext, teamId: string, config: unknown | null, who: SsoActor): Promise<void> {
  const row = await connectionRow(ctx, teamId);
  if (config === null) {
    if (!row?.saml) return;
    const stillActive = row.kind === 'saml' ? { kind: null, requireSso: false } : {};
    await upsert(ctx, teamId, who, { saml: null, ...stillActive });
    await auditSsoChange(ctx, teamId, who, 'sso-removed', { change: 'saml-removed' });
    return;
  }
  await upsert(ctx, teamId, who, { saml: config, kind: 'saml' });
  await auditSsoChange(ctx, teamId, who, 'sso-configured', { change: 'saml-connected' });
}
