import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AppContext } from '#server/context';
import { authChallenges, passkeys, users } from '#server/db/schema/auth';
import { badRequest, conflict, notFound } from '#server/http/http-errors';
import type { z } from 'zod';
import { TWO_FACTOR_MESSAGES, type PasskeyAuthenticationCredential, type PasskeyItem, type PasskeyRegistrationCredential } from '#shared/schemas/auth';

/** Passkeys (WebAuthn) through @simplewebauthn/server (decision 39-01). */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;
export const MAX_PASSKEYS = 20;
const RP_NAME = 'Metal Cards';

/** The relying party: PUBLIC_URL's origin and host name, or this request's when PUBLIC_URL is unset. */
export function relyingParty(ctx: AppContext, req: FastifyRequest): { origin: string; rpID: string } {
  const url = new URL(ctx.publicUrl({ protocol: req.protocol, host: req.host }));
  return { origin: url.origin, rpID: url.hostname };
}

function toItem(p: typeof passkeys.$inferSelect): PasskeyItem {
  return { id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null, backedUp: p.backedUp };
}

/** The challenge a credential's client data names (base64url), or null when the data is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 200 ? data.challenge : null;
  } catch {
    return null;
  }
}

async function saveChallenge(ctx: AppContext, challenge: string, kind: string, userId: string | null) {
  await ctx.db.delete(authChallenges).where(sql`${authChallenges.expiresAt} < now()`);
  await ctx.db.insert(authChallenges).values({ id: `${kind}:${challenge}`, kind, userId, expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_SECONDS * 1000) });
}

/** Spends a challenge (single use): the row, or null when unknown, used or expired. */
async function takeChallenge(ctx: AppContext, challenge: string | null, kind: string) {
  if (!challenge) return null;
  const [row] = await ctx.db
    .delete(authChallenges)
    .where(and(eq(authChallenges.id, `${kind}:${challenge}`), eq(authChallenges.kind, kind), gt(authChallenges.expiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}

export async function listPasskeys(ctx: AppContext, userId: string): Promise<PasskeyItem[]> {
  const rows = await ctx.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt);
  return rows.map(toItem);
}

export async function passkeyRegistrationOptions(ctx: AppContext, req: FastifyRequest, user: { id: string; email: string; firstName: string; lastName: string }) {
  const { rpID } = relyingParty(ctx, req);
  const existing = await ctx.db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS) throw conflict(`An account can have at most ${MAX_PASSKEYS} passkeys.`);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    userID: Buffer.from(user.id.replace(/-/g, ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports ? c.transports.split(',') : undefined })),
    // discoverable, so the sign-in page can offer it without an e-mail address (autofill)
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await saveChallenge(ctx, options.challenge, 'passkey-register', user.id);
  return options;
}

export async function registerPasskey(
  ctx: AppContext,
  req: FastifyRequest,
  userId: string,
  input: { name?: string; credential: z.output<typeof PasskeyRegistrationCredential> },
): Promise<PasskeyItem> {
  const row = await takeChallenge(ctx, challengeOf(input.credential.response.clientDataJSON), 'passkey-register');
  if (!row || row.userId !== userId) throw badRequest(TWO_FACTOR_MESSAGES.passkeyExpired, { credential: TWO_FACTOR_MESSAGES.passkeyExpired });
  const { origin, rpID } = relyingParty(ctx, req);
  let info;
  try {
    const v = await verifyRegistrationResponse({
      response: input.credential as RegistrationResponseJSON,
      expectedChallenge: row.id.slice('passkey-register:'.length),
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
    if (!v.verified) throw new Error('not verified');
    info = v.registrationInfo;
  } catch {
    throw badRequest(TWO_FACTOR_MESSAGES.passkeyFailed, { credential: TWO_FACTOR_MESSAGES.passkeyFailed });
  }
  const count = await ctx.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId));
  if (count.length >= MAX_PASSKEYS) throw conflict(`An account can have at most ${MAX_PASSKEYS} passkeys.`);
  try {
    const [p] = await ctx.db
      .insert(passkeys)
      .values({
        userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        signCount: info.credential.counter,
        transports: (input.credential.response.transports ?? []).join(','),
        backedUp: info.credentialBackedUp,
        name: input.name ?? `Passkey ${count.length + 1}`,
      })
      .returning();
    return toItem(p);
  } catch (e: any) {
    if (e?.code === '23505' || e?.cause?.code === '23505' || /unique/i.test(String(e?.message))) throw conflict('This passkey is already registered.');
    throw e;
  }
}

export async function renamePasskey(ctx: AppContext, userId: string, id: string, name: string): Promise<PasskeyItem> {
  const [p] = await ctx.db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!p) throw notFound('Passkey not found');
  return toItem(p);
}

export async function removePasskey(ctx: AppContext, userId: string, id: string): Promise<void> {
  const gone = await ctx.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  if (!gone.length) throw notFound('Passkey not found');
}

/** Options for a sign-in with any passkey of this site (no list of credentials: discoverable, autofill). */
export async function passkeySignInOptions(ctx: AppContext, req: FastifyRequest) {
  const { rpID } = relyingParty(ctx, req);
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required' });
  await saveChallenge(ctx, options.challenge, 'passkey-login', null);
  return options;
}

/** Verifies a passkey assertion; the account it belongs to (user verification required: it counts as both factors). */
export async function verifyPasskeySignIn(ctx: AppContext, req: FastifyRequest, credential: z.output<typeof PasskeyAuthenticationCredential>) {
  const row = await takeChallenge(ctx, challengeOf(credential.response.clientDataJSON), 'passkey-login');
  if (!row) throw badRequest(TWO_FACTOR_MESSAGES.passkeyExpired, { credential: TWO_FACTOR_MESSAGES.passkeyExpired });
  const [p] = await ctx.db.select().from(passkeys).where(eq(passkeys.credentialId, credential.id));
  if (!p) throw badRequest(TWO_FACTOR_MESSAGES.passkeyUnknown, { credential: TWO_FACTOR_MESSAGES.passkeyUnknown });
  const { origin, rpID } = relyingParty(ctx, req);
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response: credential as AuthenticationResponseJSON,
      expectedChallenge: row.id.slice('passkey-login:'.length),
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: p.credentialId, publicKey: Buffer.from(p.publicKey, 'base64url'), counter: p.signCount, transports: p.transports ? p.transports.split(',') : undefined },
      requireUserVerification: true,
    });
    if (!v.verified) throw new Error('not verified');
    newCounter = v.authenticationInfo.newCounter;
  } catch {
    throw badRequest(TWO_FACTOR_MESSAGES.passkeyFailed, { credential: TWO_FACTOR_MESSAGES.passkeyFailed });
  }
  // the user handle, when the authenticator sends one, must be the account the credential was made for
  if (credential.response.userHandle) {
    const handle = Buffer.from(credential.response.userHandle, 'base64url').toString('hex');
    if (handle !== p.userId.replace(/-/g, '')) throw badRequest(TWO_FACTOR_MESSAGES.passkeyFailed, { credential: TWO_FACTOR_MESSAGES.passkeyFailed });
  }
  await ctx.db.update(passkeys).set({ signCount: newCounter, lastUsedAt: new Date() }).where(eq(passkeys.id, p.id));
  const [u] = await ctx.db.select().from(users).where(eq(users.id, p.userId));
  return { user: u, passkeyId: p.id };
}
