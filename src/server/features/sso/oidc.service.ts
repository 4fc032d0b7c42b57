import * as client from 'openid-client';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { ssoSignInStates } from '#server/db/schema/sso';
import { hmacHex, randomToken } from '#server/infra/crypto';
import { guardedFetch } from './oidc-fetch';
import { openClientSecret } from './sso-secret';
import type { SsoIdentity } from './sso-sign-in';

/**
 * The OpenID Connect relying party (decision 39-03), through openid-client 6: discovery of the
 * issuer, the authorization code flow with PKCE (S256), state and nonce, the ID token checked by
 * the library (signature against the issuer's keys, issuer, audience, expiry, nonce), then the
 * user info endpoint for the profile claims (its subject must match the ID token's).
 */

export interface OidcConnection {
  teamId: string;
  issuer: string;
  clientId: string;
  /** sealed */
  clientSecret: string | null;
  updatedAt: Date;
}

const SIGN_IN_TTL_MS = 10 * 60 * 1000;
const CONFIG_TTL_MS = 10 * 60 * 1000;
const configs = new Map<string, { at: number; config: Promise<client.Configuration> }>();

function discoveryOptions(ctx: AppContext): client.DiscoveryRequestOptions {
  const allow = ctx.config.SSO_ALLOW_PRIVATE_NETWORKS;
  // the ID token's signature is checked against the issuer's keys too (openid-client leaves that
  // out for tokens from the token endpoint unless asked: the TLS connection would vouch for them)
  return { [client.customFetch]: guardedFetch(allow), execute: allow ? [client.allowInsecureRequests, client.enableNonRepudiationChecks] : [client.enableNonRepudiationChecks], timeout: 10 };
}

/** Discovers the issuer (checks its document names the same issuer) with the client's credentials. */
export async function discoverIssuer(ctx: AppContext, issuer: string, clientId: string, clientSecret: string | null): Promise<client.Configuration> {
  const auth = clientSecret ? client.ClientSecretPost(clientSecret) : client.None();
  return client.discovery(new URL(issuer), clientId, clientSecret ? { client_secret: clientSecret } : undefined, auth, discoveryOptions(ctx));
}

async function configOf(ctx: AppContext, c: OidcConnection): Promise<client.Configuration> {
  const key = `${c.teamId}|${c.issuer}|${c.clientId}|${c.updatedAt.getTime()}`;
  const hit = configs.get(key);
  if (hit && Date.now() - hit.at < CONFIG_TTL_MS) return hit.config;
  for (const k of configs.keys()) if (k.startsWith(`${c.teamId}|`) || configs.size > 200) configs.delete(k);
  const config = (async () => discoverIssuer(ctx, c.issuer, c.clientId, c.clientSecret ? await openClientSecret(ctx, c.clientSecret) : null))();
  configs.set(key, { at: Date.now(), config });
  config.catch(() => configs.delete(key));
  return config;
}

const stateId = (ctx: AppContext, token: string) => hmacHex(ctx.sessionSecret, `sso-state:${token}`);

/**
 * Starts a sign-in: a pending row (state, nonce, PKCE verifier, where to go after) named by the
 * HMAC of a random token the browser keeps in a cookie. Answers the provider's authorization URL.
 */
export async function startOidcSignIn(ctx: AppContext, c: OidcConnection, redirectUri: string, returnTo: string | null, loginHint: string | null): Promise<{ url: string; browserToken: string }> {
  const config = await configOf(ctx, c);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const browserToken = randomToken(32);
  await ctx.db.delete(ssoSignInStates).where(lt(ssoSignInStates.expiresAt, new Date()));
  await ctx.db.insert(ssoSignInStates).values({ id: stateId(ctx, browserToken), teamId: c.teamId, state, nonce, codeVerifier, returnTo, expiresAt: new Date(Date.now() + SIGN_IN_TTL_MS) });
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  if (loginHint) params.login_hint = loginHint;
  return { url: client.buildAuthorizationUrl(config, params).href, browserToken };
}

export type OidcOutcome =
  | { ok: true; teamId: string; identity: SsoIdentity; returnTo: string | null }
  | { ok: false; teamId: string | null; reason: string; code: 'expired' | 'failed' };

/**
 * The provider sent the browser back: the pending row is taken (single use) by the cookie's token,
 * the code exchanged with the verifier, the ID token checked against the nonce and the state
 * against the row's. Any mismatch is a failure, never a sign-in.
 */
export async function completeOidcSignIn(ctx: AppContext, browserToken: string | undefined, redirectUri: string, query: Record<string, unknown>, connectionOf: (teamId: string) => Promise<OidcConnection | null>): Promise<OidcOutcome> {
  if (!browserToken || browserToken.length > 100) return { ok: false, teamId: null, reason: 'no pending sign-in in this browser', code: 'expired' };
  const [row] = await ctx.db.delete(ssoSignInStates).where(and(eq(ssoSignInStates.id, stateId(ctx, browserToken)), gt(ssoSignInStates.expiresAt, new Date()))).returning();
  if (!row) return { ok: false, teamId: null, reason: 'no pending sign-in, or it expired', code: 'expired' };
  const conn = await connectionOf(row.teamId);
  if (!conn) return { ok: false, teamId: row.teamId, reason: 'the team has no OpenID Connect provider now', code: 'failed' };
  if (typeof query.error === 'string') return { ok: false, teamId: row.teamId, reason: `provider error: ${query.error}`.slice(0, 200), code: 'failed' };
  const current = new URL(redirectUri);
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string') current.searchParams.set(k, v);
  try {
    const config = await configOf(ctx, conn);
    const tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: row.codeVerifier, expectedState: row.state, expectedNonce: row.nonce, idTokenExpected: true });
    const idClaims = tokens.claims();
    if (!idClaims) return { ok: false, teamId: row.teamId, reason: 'no ID token', code: 'failed' };
    let info: Record<string, unknown> = {};
    try {
      info = (await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)) as Record<string, unknown>;
    } catch {
      // a provider without user info (or refusing it) still signed the ID token: its claims are enough
    }
    const claims = { ...info, ...idClaims } as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
    const email = str(claims.email) ?? str(claims.preferred_username);
    if (!email) return { ok: false, teamId: row.teamId, reason: 'the provider sent no e-mail claim', code: 'failed' };
    const verified = claims.email_verified;
    return {
      ok: true,
      teamId: row.teamId,
      returnTo: row.returnTo,
      identity: {
        kind: 'oidc',
        subject: String(idClaims.sub),
        email,
        emailVerified: verified === undefined ? undefined : verified === true || verified === 'true',
        name: str(claims.name),
        givenName: str(claims.given_name),
        familyName: str(claims.family_name),
        jobTitle: str(claims.job_title) ?? str(claims.jobTitle) ?? str(claims.title),
        phone: str(claims.phone_number),
        company: str(claims.organization) ?? str(claims.company_name),
        address: str((claims.address as { formatted?: unknown } | undefined)?.formatted),
      },
    };
  } catch (e) {
    // the library's error, and what it wraps (which check failed: the state, the ID token's claim, its signature)
    const err = e as { code?: string; message?: string; cause?: { message?: string; cause?: { claim?: string } } };
    const inner = err.cause?.message && err.cause.message !== err.message ? `; ${err.cause.message}` : '';
    const claim = err.cause?.cause?.claim ? ` (claim ${err.cause.cause.claim})` : '';
    return { ok: false, teamId: row.teamId, reason: `${err.code ?? 'error'}: ${err.message ?? 'failed'}${inner}${claim}`.slice(0, 250), code: 'failed' };
  }
}
