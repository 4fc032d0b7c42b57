import { createHash } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { CacheProvider } from '@node-saml/node-saml';
import type { AppContext } from '#server/context';
import { samlMessageIds } from '#server/db/schema/sso';

/**
 * SAML message ids in the database (decision 39-04), so every instance agrees: the AuthnRequests
 * we issued (`req:`, what a response's InResponseTo must name, ten minutes) and the assertions we
 * accepted (`asn:`, kept until they can no longer pass the time checks, so one is never accepted
 * twice) and the requests already answered (`used:`).
 */

export const REQUEST_TTL_MS = 10 * 60_000;

const requestKey = (teamId: string, id: string) => `req:${teamId}:${id}`;
const assertionKey = (teamId: string, issuer: string, id: string) => `asn:${teamId}:${createHash('sha256').update(`${issuer}\n${id}`).digest('hex')}`;

/**
 * node-saml's cache of issued request ids, for one team: `saveAsync` when it builds an
 * AuthnRequest, `getAsync` when a response names one. Nothing is removed early (rows
 * expire): a refused response cannot burn someone else's pending sign-in, and consumeSignIn
 * records that a request was answered.
 */
export function requestCache(ctx: AppContext, teamId: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      const createdAt = Date.now();
      // expired ids go when new ones come: the table holds at most ten minutes of sign-in starts
      await ctx.db.delete(samlMessageIds).where(lt(samlMessageIds.expiresAt, new Date(createdAt)));
      await ctx.db.insert(samlMessageIds).values({ key: requestKey(teamId, key), teamId, expiresAt: new Date(createdAt + REQUEST_TTL_MS) }).onConflictDoNothing();
      return { value, createdAt };
    },
    async getAsync(key) {
      const [row] = await ctx.db
        .select({ expiresAt: samlMessageIds.expiresAt })
        .from(samlMessageIds)
        .where(and(eq(samlMessageIds.key, requestKey(teamId, key)), gt(samlMessageIds.expiresAt, new Date())));
      // node-saml reads the value as the request's creation time
      return row ? new Date(row.expiresAt.getTime() - REQUEST_TTL_MS).toISOString() : null;
    },
    async removeAsync(key) {
      return key;
    },
  };
}

/**
 * Records the accepted assertion and spends its request, in one transaction. `assertion-replayed`:
 * this assertion was accepted before; `request-used`: another response already answered the
 * request. Either way nothing new is kept. Request rows stay until they expire, so a replayed
 * response reaches this check and is named as a replay.
 */
export async function consumeSignIn(
  ctx: AppContext,
  teamId: string,
  requestId: string,
  assertion: { issuer: string; id: string; expiresAt: Date },
): Promise<'ok' | 'assertion-replayed' | 'request-used'> {
  const asn = assertionKey(teamId, assertion.issuer, assertion.id);
  return ctx.db.transaction(async (tx) => {
    await tx.delete(samlMessageIds).where(lt(samlMessageIds.expiresAt, new Date()));
    const [seen] = await tx.select({ key: samlMessageIds.key }).from(samlMessageIds).where(eq(samlMessageIds.key, asn));
    if (seen) return 'assertion-replayed';
    // two responses to one request racing: the unique key lets one of them through
    const used = await tx
      .insert(samlMessageIds)
      .values({ key: `used:${teamId}:${requestId}`, teamId, expiresAt: new Date(Date.now() + REQUEST_TTL_MS) })
      .onConflictDoNothing()
      .returning({ key: samlMessageIds.key });
    if (used.length === 0) return 'request-used';
    const recorded = await tx.insert(samlMessageIds).values({ key: asn, teamId, expiresAt: assertion.expiresAt }).onConflictDoNothing().returning({ key: samlMessageIds.key });
    return recorded.length === 1 ? 'ok' : 'assertion-replayed';
  });
}
