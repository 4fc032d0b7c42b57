import { eq, sql, and, ne } from 'drizzle-orm';
import { hash, verify } from '@node-rs/argon2';
import type { AppContext, SessionUser } from '#server/context';
import { sessions, users } from '#server/db/schema/auth';
import { conflict, unauthorized } from '#server/http/http-errors';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { toSessionUser } from '#server/plugins/session';
import { assertPasswordAllowed } from './password-policy';
import { isListedAdmin, queueVerificationEmail } from './email-verification.service';

// argon2id, m=19 MiB, t=2, p=1 (OWASP's first recommended setting)
const ARGON = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string) {
  return hash(password, ARGON);
}

let dummyHash: Promise<string> | undefined;
/** Verifies, and spends the same time on an unknown account as on a wrong password. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export async function findUserByEmail(ctx: AppContext, email: string) {
  const rows = await ctx.db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
  return rows[0] ?? null;
}

/**
 * Creates the account (role `user`, address not verified) and queues its verification link in the
 * same transaction. An address listed in ADMIN_EMAILS becomes admin only once its link is opened.
 */
export async function registerUser(
  ctx: AppContext,
  input: { username: string; email: string; password: string; firstName: string; lastName: string },
  origin: string,
  /** the caller already proved the address (a claim link opened from that mailbox): no link is sent */
  opts: { emailProven?: boolean } = {},
): Promise<SessionUser> {
  const email = input.email.trim();
  const username = input.username.trim();
  assertPasswordAllowed(input.password, { email, username });
  const taken = await ctx.db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} or lower(${users.username}) = ${username.toLowerCase()}`);
  if (taken.some((t) => t.email.toLowerCase() === email.toLowerCase())) {
    throw conflict('An account with this email already exists', { email: 'An account with this email already exists' });
  }
  if (taken.length) throw conflict('This username is already taken', { username: 'This username is already taken' });
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          username,
          email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          role: opts.emailProven && isListedAdmin(ctx, email) ? 'admin' : 'user',
          emailVerifiedAt: opts.emailProven ? new Date() : null,
        })
        .returning();
      if (!opts.emailProven) await queueVerificationEmail(tx, u, origin);
      return u;
    });
    ctx.outbox.kick();
    return toSessionUser(row);
  } catch (e: any) {
    if (e?.code === '23505' || e?.cause?.code === '23505' || /unique/i.test(String(e?.message))) {
      throw conflict('An account with this email or username already exists');
    }
    throw e;
  }
}

export const LOGIN_IP_LIMIT = { limit: 10, windowSeconds: 180 };
export const LOGIN_ACCOUNT_FAILURES = { limit: 100, windowSeconds: 3600 };

export async function authenticate(ctx: AppContext, ip: string, email: string, password: string): Promise<SessionUser> {
  await enforceRateLimit(ctx.rateLimiter, `login:ip:${ip}`, LOGIN_IP_LIMIT.limit, LOGIN_IP_LIMIT.windowSeconds, 'Too many login attempts. Please wait a few minutes and try again.');
  const accountKey = `login:fail:${email.trim().toLowerCase()}`;
  const failures = await ctx.rateLimiter.peek(accountKey);
  if (failures >= LOGIN_ACCOUNT_FAILURES.limit) {
    await enforceRateLimit(ctx.rateLimiter, accountKey, LOGIN_ACCOUNT_FAILURES.limit, LOGIN_ACCOUNT_FAILURES.windowSeconds, 'Too many failed attempts for this account. Please try again later.');
  }
  const user = await findUserByEmail(ctx, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) {
    await ctx.rateLimiter.hit(accountKey, LOGIN_ACCOUNT_FAILURES.limit, LOGIN_ACCOUNT_FAILURES.windowSeconds);
    throw unauthorized('Invalid email or password');
  }
  let u = user;
  // ADMIN_EMAILS grants the role to a proven address only (issue 19)
  if (u.role !== 'admin' && u.emailVerifiedAt && isListedAdmin(ctx, u.email)) {
    [u] = await ctx.db.update(users).set({ role: 'admin', updatedAt: new Date() }).where(eq(users.id, u.id)).returning();
  }
  return toSessionUser(u);
}

export async function endSession(ctx: AppContext, sessionId: string) {
  await ctx.db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user except (optionally) one. */
export async function endOtherSessions(ctx: AppContext, userId: string, keepSessionId?: string | null) {
  await ctx.db
    .delete(sessions)
    .where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}
