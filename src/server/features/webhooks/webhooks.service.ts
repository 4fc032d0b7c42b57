import crypto from 'node:crypto';
import type { z } from 'zod';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { webhookDeliveries, webhookEndpoints } from '#server/db/schema/webhooks';
import { badRequest, conflict, forbidden, notFound } from '#server/http/http-errors';
import { signalEvents } from './events';
import { teamMembershipIn, teamMembershipOf } from '#server/features/team/reads';
import { randomToken } from '#server/infra/crypto';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { renderEmail } from '#server/infra/mail/layout';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { checkWebhookUrl } from './webhook-address';
import { proveOwner } from '#server/features/auth/public-api';
import {
  WEBHOOK_MANUAL_LIMITS,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  type WebhookCreateBody,
  type WebhookCreateResponse,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookTestData,
  type WebhookUpdateBody,
} from '#shared/schemas/webhooks';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** How many endpoints one owner (a user, or a team) may register. */
const MAX_ENDPOINTS = 20;
const DELIVERY_LOG_SIZE = 50;

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

function toEndpoint(e: EndpointRow): WebhookEndpoint {
  return { id: e.id, url: e.url, description: e.description, events: e.events, teamId: e.teamId, enabled: e.enabled, disabledReason: e.disabledReason, createdAt: e.createdAt.toISOString() };
}

function toDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    messageId: d.messageId,
    type: d.type,
    status: d.status as WebhookDelivery['status'],
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    responseStatus: d.responseStatus,
    durationMs: d.durationMs,
    error: d.lastError,
  };
}

/** The team whose endpoints the user manages (owner or admin), if any. */
async function managedTeam(ctx: AppContext, userId: string): Promise<string | null> {
  const m = await teamMembershipOf(ctx.db, userId);
  return m && (m.role === 'owner' || m.role === 'admin') ? m.teamId : null;
}

/** Endpoints the user may see and change: their own, and their team's when they run it. */
async function visible(ctx: AppContext, userId: string) {
  const teamId = await managedTeam(ctx, userId);
  const own = and(isNull(webhookEndpoints.teamId), eq(webhookEndpoints.userId, userId));
  return teamId ? or(own, eq(webhookEndpoints.teamId, teamId))! : own!;
}

async function findEndpoint(ctx: AppContext, userId: string, id: number): Promise<EndpointRow> {
  const [row] = await ctx.db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), await visible(ctx, userId))).limit(1);
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}

/** Refuses (400 on `url`) an address that is not https (unless allowed) or resolves to a forbidden network. */
async function checkUrl(ctx: AppContext, url: string): Promise<void> {
  const policy = { allowHttp: ctx.config.WEBHOOK_ALLOW_HTTP, allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS };
  const check = await checkWebhookUrl(url, policy);
  // a name that does not resolve now is accepted: every delivery resolves and checks it again
  if (!check.ok && check.kind !== 'unresolved') throw badRequest(check.message, { url: check.message });
}

/** The owner's notice of a new endpoint (issue 33): where their data will go, and what to do if it was not them. */
function endpointCreatedEmail(to: string, origin: string, e: EndpointRow, teamName: string | null) {
  return renderEmail({
    preheader: 'A new webhook endpoint was added to your account',
    heading: 'A new webhook endpoint was added',
    paragraphs: [
      `A webhook endpoint was just added to the Metal Cards NYC account ${to}${teamName ? `, for the team ${teamName}` : ''}. From now on the events below are sent to its address.`,
      'If this was not you, reset your password right away: a password reset ends every API token and webhook of the account.',
    ],
    rows: [
      ['Address', e.url],
      ['Events', e.events.join(', ')],
      ['Added', e.createdAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'],
    ],
    button: { label: 'Reset password', url: `${origin}/forgot-password` },
  });
}

/**
 * A new endpoint for a verified account whose password was just entered again (issue 33); the
 * owner is e-mailed in the same transaction.
 */
export async function createEndpoint(ctx: AppContext, userId: string, body: WebhookCreateBody, origin: string): Promise<WebhookCreateResponse> {
  let teamName: string | null = null;
  if (body.teamId) {
    const m = await teamMembershipIn(ctx.db, userId, body.teamId);
    // another team is not found; a member of the team who does not run it is refused
    if (!m) throw notFound('Team not found');
    if (m.role !== 'owner' && m.role !== 'admin') throw forbidden("Only the team's owner or an admin can add webhooks for it");
    teamName = m.name;
  }
  await checkUrl(ctx, body.url);
  const owner = await proveOwner(ctx, userId, body.password);
  const mine = body.teamId ? eq(webhookEndpoints.teamId, body.teamId) : and(isNull(webhookEndpoints.teamId), eq(webhookEndpoints.userId, userId));
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints).where(mine);
  if (Number(n) >= MAX_ENDPOINTS) throw conflict(`You can register up to ${MAX_ENDPOINTS} endpoints`);
  const secret = newSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({ userId, teamId: body.teamId ?? null, url: body.url, description: body.description ?? '', events: body.events, secret })
      .returning();
    const { text, html } = endpointCreatedEmail(owner.email, origin, created!, teamName);
    await enqueueEmail(tx, { dedupeKey: `webhook-created:${created!.id}`, kind: 'webhook-created', to: owner.email, subject: 'A new webhook endpoint was added to your Metal Cards NYC account', text, html });
    return created!;
  });
  ctx.outbox.kick();
  return { endpoint: toEndpoint(row), secret };
}

export async function listEndpoints(ctx: AppContext, userId: string): Promise<WebhookEndpoint[]> {
  const rows = await ctx.db.select().from(webhookEndpoints).where(await visible(ctx, userId)).orderBy(webhookEndpoints.id);
  return rows.map(toEndpoint);
}

export async function getEndpoint(ctx: AppContext, userId: string, id: number): Promise<WebhookEndpoint> {
  return toEndpoint(await findEndpoint(ctx, userId, id));
}

export async function updateEndpoint(ctx: AppContext, userId: string, id: number, body: WebhookUpdateBody): Promise<WebhookEndpoint> {
  const current = await findEndpoint(ctx, userId, id);
  if (body.url !== undefined) await checkUrl(ctx, body.url);
  const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: new Date() };
  if (body.url !== undefined) set.url = body.url;
  if (body.events !== undefined) set.events = body.events;
  if (body.description !== undefined) set.description = body.description;
  if (body.enabled !== undefined && body.enabled !== current.enabled) {
    set.enabled = body.enabled;
    set.disabledAt = body.enabled ? null : new Date();
    set.disabledReason = body.enabled ? null : 'Disabled by you';
  }
  const [row] = await ctx.db.transaction(async (tx) => {
    // turned off by hand: what waits for it will not be sent (Redeliver after enabling again)
    if (set.enabled === false) {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'endpoint disabled', lockedUntil: null })
        .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')));
    }
    return tx.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).returning();
  });
  return toEndpoint(row);
}

/** A new secret, at once: deliveries from now on (retries included) are signed with it. */
export async function rollSecret(ctx: AppContext, userId: string, id: number): Promise<{ secret: string }> {
  await findEndpoint(ctx, userId, id);
  const secret = newSecret();
  await ctx.db.update(webhookEndpoints).set({ secret, updatedAt: new Date() }).where(eq(webhookEndpoints.id, id));
  return { secret };
}

export async function deleteEndpoint(ctx: AppContext, userId: string, id: number): Promise<void> {
  await findEndpoint(ctx, userId, id);
  await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/**
 * What a test send or a redelivery must pass (issue 33, decision 33-01): per endpoint and per user
 * rate limits (429 + Retry-After), then room in the endpoint's backlog (409 at
 * WEBHOOK_MANUAL_LIMITS.maxPending waiting deliveries). Events are never refused here: the cap
 * bounds only what a person adds by hand.
 */
async function guardManualSend(ctx: AppContext, userId: string, endpointId: number): Promise<void> {
  const { perEndpoint, perUser, maxPending } = WEBHOOK_MANUAL_LIMITS;
  await enforceRateLimit(ctx.rateLimiter, `webhook-manual:endpoint:${endpointId}`, perEndpoint.limit, perEndpoint.windowSeconds, WEBHOOK_MESSAGES.manualLimit);
  await enforceRateLimit(ctx.rateLimiter, `webhook-manual:user:${userId}`, perUser.limit, perUser.windowSeconds, WEBHOOK_MESSAGES.manualLimit);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
  if (Number(n) >= maxPending) throw conflict(WEBHOOK_MESSAGES.tooManyPending);
}

/** Queues a `webhook.test` message for the endpoint, delivered (signed) like any event. */
export async function sendTest(ctx: AppContext, userId: string, id: number): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(ctx, userId, id);
  if (!endpoint.enabled) throw conflict(WEBHOOK_MESSAGES.disabled);
  await guardManualSend(ctx, userId, id);
  const payload = JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: new Date().toISOString(), data: { endpointId: id, message: 'This is a test event from Metal Cards NYC.' } satisfies z.input<typeof WebhookTestData> });
  const [row] = await ctx.db.insert(webhookDeliveries).values({ endpointId: id, messageId: `msg_${randomToken(18)}`, type: WEBHOOK_TEST_EVENT, payload }).returning();
  signalEvents();
  return toDelivery(row);
}

export async function listDeliveries(ctx: AppContext, userId: string, id: number): Promise<WebhookDelivery[]> {
  await findEndpoint(ctx, userId, id);
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_SIZE);
  return rows.map(toDelivery);
}

/** Sends a delivery again as a new entry of the log with the same `webhook-id` and body. */
export async function redeliver(ctx: AppContext, userId: string, id: number, deliveryId: number): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(ctx, userId, id);
  const [original] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, id)))
    .limit(1);
  if (!original) throw notFound('Delivery not found');
  if (!endpoint.enabled) throw conflict(WEBHOOK_MESSAGES.disabled);
  if (original.status === 'pending') throw conflict('This delivery is still being tried');
  await guardManualSend(ctx, userId, id);
  const [row] = await ctx.db
    .insert(webhookDeliveries)
    .values({ endpointId: id, messageId: original.messageId, type: original.type, payload: original.payload })
    .returning();
  signalEvents();
  return toDelivery(row);
}

