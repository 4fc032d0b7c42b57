import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { authChallenges, passkeys, recoveryCodes, sessions, totpFactors, users } from '#server/db/schema/auth';
import { badRequest, conflict } from '#server/http/http-errors';
import { hmacHex, randomToken, shortId } from '#server/infra/crypto';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { TWO_FACTOR_MESSAGES } from '#shared/schemas/auth';
import { generateTotpSecret, matchTotp, otpauthUrl } from './totp';
import { openSecret, recoveryCodeHash, sealSecret } from './secret-box';
import { verifyPassword } from './auth.service';

/** Issuer shown in authenticator apps. */
export const TOTP_ISSUER = 'Metal Cards';
export const RECOVERY_CODE_COUNT = 10;
/** how long a password-accepted sign-in waits for its second factor */
export const PENDING_SIGN_IN_SECONDS = 10 * 60;
/** wrong codes one pending sign-in may take before the password is asked again */
export const PENDING_SIGN_IN_ATTEMPTS = 5;
/** codes checked per account (sign-in, re-authentication, set-up) in a window, right or wrong */
export const CODE_ATTEMPTS = { limit: 10, windowSeconds: 15 * 60 };

export interface Factors {
  totp: 'off' | 'pending' | 'on';
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function factorsOf(ctx: AppContext, userId: string): Promise<Factors> {
  const [t] = await ctx.db.select({ confirmedAt: totpFactors.confirmedAt }).from(totpFactors).where(eq(totpFactors.userId, userId));
  const [p] = await ctx.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  const [r] = await ctx.db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return { totp: !t ? 'off' : t.confirmedAt ? 'on' : 'pending', passkeys: Number(p?.n ?? 0), recoveryCodesLeft: t?.confirmedAt ? Number(r?.n ?? 0) : 0 };
}

export const hasSecondFactor = (f: Factors) => f.totp === 'on' || f.passkeys > 0;

/** A new (pending) authenticator-app secret; the factor is on once a first code confirms it. */
export async function startTotpSetup(ctx: AppContext, user: { id: string; email: string }): Promise<{ secret: string; otpauthUrl: string }> {
  const [existing] = await ctx.db.select({ confirmedAt: totpFactors.confirmedAt }).from(totpFactors).where(eq(totpFactors.userId, user.id));
  if (existing?.confirmedAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = generateTotpSecret();
  const secretEnc = await sealSecret(ctx, secret);
  await ctx.db
    .insert(totpFactors)
    .values({ userId: user.id, secretEnc })
    .onConflictDoUpdate({ target: totpFactors.userId, set: { secretEnc, lastUsedStep: 0, createdAt: new Date() }, where: isNull(totpFactors.confirmedAt) });
  return { secret, otpauthUrl: otpauthUrl(secret, TOTP_ISSUER, user.email) };
}

function newRecoveryCode(): string {
  const s = shortId(10);
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

/** Turns the pending secret on with its first code; answers the ten recovery codes (shown once). */
export async function confirmTotp(ctx: AppContext, userId: string, code: string): Promise<string[]> {
  await enforceRateLimit(ctx.rateLimiter, `2fa:user:${userId}`, CODE_ATTEMPTS.limit, CODE_ATTEMPTS.windowSeconds, TWO_FACTOR_MESSAGES.tooManyCodes);
  const [row] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
  if (!row) throw conflict(TWO_FACTOR_MESSAGES.noSetup);
  if (row.confirmedAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const step = matchTotp(await openSecret(ctx, row.secretEnc), code);
  if (step === null) throw badRequest(TWO_FACTOR_MESSAGES.wrongCode, { code: TWO_FACTOR_MESSAGES.wrongCode });
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(codes.map((c) => recoveryCodeHash(ctx, normalizeRecovery(c))));
  const done = await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(totpFactors)
      .set({ confirmedAt: new Date(), lastUsedStep: step })
      .where(and(eq(totpFactors.userId, userId), isNull(totpFactors.confirmedAt), eq(totpFactors.secretEnc, row.secretEnc)))
      .returning({ userId: totpFactors.userId });
    if (!updated.length) return false;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    return true;
  });
  if (!done) throw conflict(TWO_FACTOR_MESSAGES.noSetup);
  return codes;
}

/** Turns the authenticator app off (recovery codes too) after the account's password. */
export async function disableTotp(ctx: AppContext, userId: string, password: string): Promise<void> {
  const [u] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!(await verifyPassword(u?.passwordHash ?? null, password))) {
    throw badRequest(TWO_FACTOR_MESSAGES.wrongPassword, { password: TWO_FACTOR_MESSAGES.wrongPassword });
  }
  const removed = await ctx.db.transaction(async (tx) => {
    const gone = await tx.delete(totpFactors).where(eq(totpFactors.userId, userId)).returning({ confirmedAt: totpFactors.confirmedAt });
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    return gone;
  });
  if (!removed.length) throw conflict(TWO_FACTOR_MESSAGES.notOn);
  await forgetSecondFactorIfNone(ctx, userId);
}

/**
 * Checks a TOTP (6 digits) or a recovery code of an account. A TOTP counts once (its step must be
 * newer than the last accepted one); a recovery code is spent. Counted against the account's limit.
 */
export async function checkSecondFactor(ctx: AppContext, userId: string, code: string): Promise<'totp' | 'recovery' | 'wrong' | 'used'> {
  await enforceRateLimit(ctx.rateLimiter, `2fa:user:${userId}`, CODE_ATTEMPTS.limit, CODE_ATTEMPTS.windowSeconds, TWO_FACTOR_MESSAGES.tooManyCodes);
  const compact = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(compact)) {
    const [row] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
    if (!row?.confirmedAt) return 'wrong';
    const step = matchTotp(await openSecret(ctx, row.secretEnc), compact);
    if (step === null) return 'wrong';
    const spent = await ctx.db
      .update(totpFactors)
      .set({ lastUsedStep: step })
      .where(and(eq(totpFactors.userId, userId), lt(totpFactors.lastUsedStep, step)))
      .returning({ userId: totpFactors.userId });
    return spent.length ? 'totp' : 'used';
  }
  const norm = normalizeRecovery(code);
  if (!/^[a-z0-9]{10}$/.test(norm)) return 'wrong';
  const codeHash = await recoveryCodeHash(ctx, norm);
  const used = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length ? 'recovery' : 'wrong';
}

/** Throws the 400 a wrong or replayed code gets. */
export function refuseCode(result: 'wrong' | 'used'): never {
  const message = result === 'used' ? TWO_FACTOR_MESSAGES.usedCode : TWO_FACTOR_MESSAGES.wrongCode;
  throw badRequest(message, { code: message });
}

/** This session proved the account again (a code or a passkey): recent-auth and the staff guard see it. */
export async function markSessionVerified(ctx: AppContext, sessionId: string, opts: { secondFactor: boolean }): Promise<Date> {
  const now = new Date();
  await ctx.db
    .update(sessions)
    .set(opts.secondFactor ? { authenticatedAt: now, secondFactorAt: now } : { authenticatedAt: now })
    .where(eq(sessions.id, sessionId));
  return now;
}

/** With no second factor left, no session of the account counts as having passed one. */
export async function forgetSecondFactorIfNone(ctx: AppContext, userId: string): Promise<void> {
  if (hasSecondFactor(await factorsOf(ctx, userId))) return;
  await ctx.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.userId, userId));
}

// ---- the sign-in waiting for its second factor (a cookie holds the token, the table its hash)

const pendingId = (ctx: AppContext, token: string) => hmacHex(ctx.sessionSecret, `two-factor:${token}`);

export async function startPendingSignIn(ctx: AppContext, userId: string): Promise<string> {
  await ctx.db.delete(authChallenges).where(lt(authChallenges.expiresAt, sql`now()`));
  const token = randomToken(32);
  await ctx.db.insert(authChallenges).values({ id: pendingId(ctx, token), kind: 'two-factor', userId, expiresAt: new Date(Date.now() + PENDING_SIGN_IN_SECONDS * 1000) });
  return token;
}

export async function findPendingSignIn(ctx: AppContext, token: string | undefined): Promise<{ id: string; userId: string } | null> {
  if (!token || token.length > 100) return null;
  const [row] = await ctx.db
    .select({ id: authChallenges.id, userId: authChallenges.userId })
    .from(authChallenges)
    .where(and(eq(authChallenges.id, pendingId(ctx, token)), eq(authChallenges.kind, 'two-factor'), gt(authChallenges.expiresAt, sql`now()`)));
  return row?.userId ? { id: row.id, userId: row.userId } : null;
}

/** One wrong code on a pending sign-in; the fifth ends it (the password is asked again). */
export async function failPendingSignIn(ctx: AppContext, id: string): Promise<boolean> {
  const [row] = await ctx.db
    .update(authChallenges)
    .set({ attempts: sql`${authChallenges.attempts} + 1` })
    .where(eq(authChallenges.id, id))
    .returning({ attempts: authChallenges.attempts });
  if (!row || row.attempts >= PENDING_SIGN_IN_ATTEMPTS) {
    await ctx.db.delete(authChallenges).where(eq(authChallenges.id, id));
    return false;
  }
  return true;
}

/** Spends the pending sign-in (single use); false when another request spent it first. */
export async function endPendingSignIn(ctx: AppContext, id: string): Promise<boolean> {
  const gone = await ctx.db.delete(authChallenges).where(eq(authChallenges.id, id)).returning({ id: authChallenges.id });
  return gone.length > 0;
}
