import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { sessions } from '#server/db/schema/auth';
import { sha256Hex } from '#server/infra/crypto';
import { endOtherSessions } from '#server/features/auth/public-api';
import { type AccountSession } from '#shared/schemas/account';
import { deviceLabel } from './device-label';

/** Opaque per-session id for the client: derived from the stored hash, never the hash itself. */
export function publicSessionId(storedId: string) {
  return sha256Hex(`session-public:${storedId}`).slice(0, 20);
}

/** Live sessions (not expired, not idle) of the account, the current one first. */
export async function listSessions(ctx: AppContext, userId: string, currentSessionId: string | null): Promise<AccountSession[]> {
  const idleSecs = ctx.config.SESSION_IDLE_DAYS * 86400;
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${idleSecs})`),
      ),
    )
    .orderBy(sql`${sessions.lastSeenAt} desc`);
  return rows
    .map((s) => ({
      id: publicSessionId(s.id),
      current: s.id === currentSessionId,
      device: deviceLabel(s.userAgent),
      ip: s.ip,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

export async function revokeOtherSessions(ctx: AppContext, userId: string, currentSessionId: string | null): Promise<number> {
  const others = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(currentSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)) : eq(sessions.userId, userId));
  await endOtherSessions(ctx, userId, currentSessionId);
  return others.length;
}
