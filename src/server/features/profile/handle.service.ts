import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { profiles } from '#server/db/schema/profile';
import { conflict, notFound } from '#server/http/http-errors';
import { HANDLE_MESSAGES, HANDLE_REDIRECT_DAYS, handleSkeleton } from '#shared/profile/handle';
import type { Profile } from '#shared/schemas/profile';
import { findProfileRowByUser, getProfileForUser } from './profile.service';
import { invalidatePublicProfile } from './public-profile.cache';

const DAY_MS = 24 * 60 * 60 * 1000;

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return (err?.code ?? err?.cause?.code) === '23505';
}

const taken = () => conflict(HANDLE_MESSAGES.taken, { handle: HANDLE_MESSAGES.taken });

/**
 * PUT /api/profile/handle (decision 37-04): sets, changes or (null) removes the user's handle.
 * Another profile's handle with the same skeleton, or its previous handle while that still
 * redirects, answers 409 on `handle`; nothing is written. The handle left behind redirects to the
 * profile for HANDLE_REDIRECT_DAYS (only the last one: a second change replaces it).
 */
export async function setProfileHandle(ctx: AppContext, userId: string, handle: string | null): Promise<Profile> {
  const current = await findProfileRowByUser(ctx.db, userId);
  if (!current) throw notFound(HANDLE_MESSAGES.noProfile);
  if (handle === current.handle) return (await getProfileForUser(ctx, userId))!;
  const key = handle ? handleSkeleton(handle) : null;
  const now = new Date();
  try {
    await ctx.db.transaction(async (tx) => {
      if (key) {
        const [clash] = await tx
          .select({ id: profiles.id, handleKey: profiles.handleKey, until: profiles.previousHandleUntil })
          .from(profiles)
          .where(and(ne(profiles.id, current.id), or(eq(profiles.handleKey, key), eq(profiles.previousHandleKey, key))))
          .limit(1);
        if (clash) {
          if (clash.handleKey === key || (clash.until && clash.until > now)) throw taken();
          // someone's old handle whose redirect has ended: free for the taking
          await tx
            .update(profiles)
            .set({ previousHandle: null, previousHandleKey: null, previousHandleUntil: null })
            .where(and(eq(profiles.id, clash.id), eq(profiles.previousHandleKey, key)));
        }
      }
      const leaving = current.handle && current.handleKey !== key;
      await tx
        .update(profiles)
        .set({
          handle,
          handleKey: key,
          ...(leaving
            ? { previousHandle: current.handle, previousHandleKey: current.handleKey, previousHandleUntil: new Date(now.getTime() + HANDLE_REDIRECT_DAYS * DAY_MS) }
            : key && current.previousHandleKey === key
              ? // back to the handle left last: it is the current one again, nothing to redirect
                { previousHandle: null, previousHandleKey: null, previousHandleUntil: null }
              : {}),
          updatedAt: now,
        })
        .where(eq(profiles.id, current.id));
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
  invalidatePublicProfile(ctx, current.id);
  return (await getProfileForUser(ctx, userId))!;
}

/**
 * The profile behind `/@{handle}`: its id, and `redirectTo` (its current handle, or null for
 * `/p/{id}`) when the handle is one it left less than HANDLE_REDIRECT_DAYS ago. A current handle
 * wins over anyone's previous one.
 */
export async function resolveHandle(ctx: AppContext, handle: string): Promise<{ id: string; current: boolean; handle: string | null } | null> {
  const rows = await ctx.db
    .select({ id: profiles.id, handle: profiles.handle })
    .from(profiles)
    .where(or(eq(profiles.handle, handle), and(eq(profiles.previousHandle, handle), gt(profiles.previousHandleUntil, sql`now()`))))
    .limit(2);
  const own = rows.find((r) => r.handle === handle);
  if (own) return { id: own.id, current: true, handle: own.handle };
  return rows[0] ? { id: rows[0].id, current: false, handle: rows[0].handle } : null;
}
