import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import { orderStatusUrl } from '#shared/routes';
import type { AppContext } from '#server/context';
import { emailChanges } from '#server/db/schema/account';
import { users } from '#server/db/schema/auth';
import { cards } from '#server/db/schema/designs';
import { apiTokens } from '#server/db/schema/developer';
import { cardCodes, contactSaves, leads, linkClicks, visits } from '#server/db/schema/engagement';
import { files } from '#server/db/schema/infra';
import { orderStatusHistory, orders } from '#server/db/schema/orders';
import { profileLinks, profiles } from '#server/db/schema/profile';
import { webhookEndpoints } from '#server/db/schema/webhooks';
import { notFound } from '#server/http/http-errors';
import { fileUrl } from '#server/infra/files';
import { listSessions } from './sessions.service';

export const EXPORT_FORMAT = 'metal-cards-account-export';
export const EXPORT_VERSION = 1;
/** Rows read per query for the tables that can grow large (visits, clicks, contact saves). */
const PAGE = 2000;

export function exportFileName(now = new Date()) {
  return `metal-cards-account-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * Everything the product holds about one account, as one JSON document, produced piece by
 * piece so a profile with a million visits never sits in memory at once. Stored images are
 * embedded (base64) so the download is complete even after the account is deleted.
 *
 * The account row is read before the first byte is produced, so a missing account is a 404
 * rather than a broken download.
 */
export async function accountExport(ctx: AppContext, userId: string, currentSessionId: string | null, origin: string): Promise<AsyncGenerator<string>> {
  const { db } = ctx;
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound('Account not found');
  const [profile] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);

  return (async function* () {
    const j = (v: unknown) => JSON.stringify(v);
    yield `{"format":${j(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${j(new Date().toISOString())}`;

    yield `,"user":${j({
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    })}`;

    const pending = await db
      .select({ newEmail: emailChanges.newEmail, createdAt: emailChanges.createdAt, expiresAt: emailChanges.expiresAt, usedAt: emailChanges.usedAt })
      .from(emailChanges)
      .where(eq(emailChanges.userId, userId))
      .orderBy(asc(emailChanges.createdAt));
    yield `,"emailChanges":${j(pending)}`;

    const sessionList = (await listSessions(ctx, userId, currentSessionId)).map(({ id: _id, ...s }) => s);
    yield `,"sessions":${j(sessionList)}`;

    // the lasting access the account created (issue 33): what each may do and whether it still works,
    // never a secret, a hash or the secret's prefix
    const tokenRows = await db
      .select({
        name: apiTokens.name,
        scopes: apiTokens.scopes,
        teamId: apiTokens.teamId,
        createdAt: apiTokens.createdAt,
        lastUsedAt: apiTokens.lastUsedAt,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
        revokedReason: apiTokens.revokedReason,
      })
      .from(apiTokens)
      .where(eq(apiTokens.userId, userId))
      .orderBy(asc(apiTokens.createdAt));
    const now = Date.now();
    yield `,"apiTokens":${j(
      tokenRows.map((t) => ({
        ...t,
        status: t.revokedAt ? 'revoked' : t.expiresAt && t.expiresAt.getTime() <= now ? 'expired' : 'active',
      })),
    )}`;
    const endpointRows = await db
      .select({
        url: webhookEndpoints.url,
        description: webhookEndpoints.description,
        events: webhookEndpoints.events,
        teamId: webhookEndpoints.teamId,
        enabled: webhookEndpoints.enabled,
        disabledReason: webhookEndpoints.disabledReason,
        disabledAt: webhookEndpoints.disabledAt,
        createdAt: webhookEndpoints.createdAt,
        lastDeliveredAt: sql<string | null>`(select max(d.delivered_at) from webhook_deliveries d where d.endpoint_id = ${webhookEndpoints.id})`,
      })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId))
      .orderBy(asc(webhookEndpoints.createdAt));
    yield `,"webhookEndpoints":${j(endpointRows.map((e) => ({ ...e, status: e.enabled ? 'enabled' : 'disabled' })))}`;

    yield `,"profile":${j(profile ?? null)}`;
    if (profile) {
      const links = await db.select().from(profileLinks).where(eq(profileLinks.profileId, profile.id)).orderBy(asc(profileLinks.position), asc(profileLinks.id));
      yield `,"links":${j(links)}`;
      const codes = await db.select().from(cardCodes).where(eq(cardCodes.profileId, profile.id)).orderBy(asc(cardCodes.createdAt));
      yield `,"cardCodes":${j(codes)}`;
    } else {
      yield `,"links":[],"cardCodes":[]`;
    }

    // stored files, bytes included
    yield `,"files":[`;
    const fileRows = await db.select().from(files).where(eq(files.userId, userId)).orderBy(asc(files.createdAt));
    for (let i = 0; i < fileRows.length; i++) {
      const f = fileRows[i];
      const stored = await ctx.storage.get(f.key).catch(() => null);
      yield (i ? ',' : '') +
        j({
          id: f.id,
          kind: f.kind,
          key: f.key,
          url: `${origin}${fileUrl(f.key)}`,
          mimeType: f.mimeType,
          size: f.size,
          width: f.width,
          height: f.height,
          createdAt: f.createdAt,
          dataBase64: stored ? stored.data.toString('base64') : null,
        });
    }
    yield `]`;

    const cardRows = await db
      .select()
      .from(cards)
      .where(profile ? or(eq(cards.userId, userId), eq(cards.profileId, profile.id)) : eq(cards.userId, userId))
      .orderBy(asc(cards.createdAt));
    yield `,"cards":${j(cardRows.map(({ reviewedBy: _staff, ...c }) => c))}`;

    const orderRows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt));
    const history = orderRows.length
      ? await db
          .select({ orderId: orderStatusHistory.orderId, fromStatus: orderStatusHistory.fromStatus, toStatus: orderStatusHistory.toStatus, createdAt: orderStatusHistory.createdAt })
          .from(orderStatusHistory)
          .where(inArray(orderStatusHistory.orderId, orderRows.map((o) => o.id)))
          .orderBy(asc(orderStatusHistory.createdAt))
      : [];
    yield `,"orders":${j(
      orderRows.map(({ internalNotes: _notes, idempotencyKey: _key, idempotencyScope: _scope, statusToken, ...o }) => ({
        ...o,
        statusUrl: orderStatusUrl(origin, statusToken),
        statusHistory: history.filter((h) => h.orderId === o.id).map(({ orderId: _id, ...h }) => h),
      })),
    )}`;

    if (!profile) {
      yield `,"leads":[],"visits":[],"linkClicks":[],"contactSaves":[]}`;
      return;
    }

    const leadRows = await db.select().from(leads).where(eq(leads.profileId, profile.id)).orderBy(asc(leads.createdAt));
    yield `,"leads":${j(leadRows)}`;

    // the large tables, page by page (keyset on id)
    yield* pagedArray('visits', async (after) =>
      db
        .select({ id: visits.id, createdAt: visits.createdAt, device: visits.device, source: visits.source, cardCode: visits.cardCode, userAgent: visits.userAgent })
        .from(visits)
        .where(and(eq(visits.profileId, profile.id), gt(visits.id, after)))
        .orderBy(asc(visits.id))
        .limit(PAGE),
    );
    yield* pagedArray('linkClicks', async (after) =>
      db
        .select({ id: linkClicks.id, createdAt: linkClicks.createdAt, linkId: linkClicks.linkId, linkType: linkClicks.linkType })
        .from(linkClicks)
        .where(and(eq(linkClicks.profileId, profile.id), gt(linkClicks.id, after)))
        .orderBy(asc(linkClicks.id))
        .limit(PAGE),
    );
    yield* pagedArray('contactSaves', async (after) =>
      db
        .select({ id: contactSaves.id, createdAt: contactSaves.createdAt })
        .from(contactSaves)
        .where(and(eq(contactSaves.profileId, profile.id), gt(contactSaves.id, after)))
        .orderBy(asc(contactSaves.id))
        .limit(PAGE),
    );
    yield `}`;
  })();
}

async function* pagedArray<T extends { id: number }>(name: string, page: (afterId: number) => Promise<T[]>): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let after = 0;
  let first = true;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) break;
    yield (first ? '' : ',') + rows.map((r) => JSON.stringify(r)).join(',');
    first = false;
    after = rows[rows.length - 1].id;
    if (rows.length < PAGE) break;
  }
  yield `]`;
}
