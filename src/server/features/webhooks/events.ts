import type { z } from 'zod';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { webhookEvents } from '#server/db/schema/webhooks';
import type { WebhookCardData, WebhookEventType, WebhookLeadData, WebhookOrderData, WebhookOrderStatusData, WebhookProfileData } from '#shared/schemas/webhooks';

/**
 * The event sink (issue 23, decision 23-02). A feature records what happened in the same
 * transaction as the change (a rolled-back change emits nothing); the webhook worker
 * (`webhook-worker.ts`, started by app.ts) fans each event out to the matching endpoints and
 * delivers it. Features record through `#server/features/webhooks/public-api`: webhooks sits low
 * in the feature graph (it uses only auth), so every feature above it may.
 */
interface EventData {
  'lead.created': z.input<typeof WebhookLeadData>;
  'order.created': z.input<typeof WebhookOrderData>;
  'order.status_changed': z.input<typeof WebhookOrderStatusData>;
  'card.approved': z.input<typeof WebhookCardData>;
  'card.rejected': z.input<typeof WebhookCardData>;
  'profile.updated': z.input<typeof WebhookProfileData>;
}

export type RecordedEvent = {
  [K in WebhookEventType]: { type: K; userId: string | null | SQL; teamId?: string | null; data: EventData[K] };
}[WebhookEventType];

const listeners = new Set<() => void>();

/** The worker listens here to run soon after an event (it also polls). */
export function onEventRecorded(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Wake the listeners (after a commit, or when deliveries were queued directly). */
export function signalEvents(): void {
  for (const fn of listeners) fn();
}

/**
 * Record an event inside the caller's transaction. `userId` may be a subquery (the owner of a
 * profile). Nobody's event (no user, no team) is dropped.
 */
export async function recordEvent(tx: Db | Tx, event: RecordedEvent): Promise<void> {
  if (!event.userId && !event.teamId) return;
  await tx.insert(webhookEvents).values({ type: event.type, userId: event.userId, teamId: event.teamId ?? null, data: event.data });
  // the transaction has not committed yet: the worker looks again shortly after (see webhook-worker)
  signalEvents();
}

interface OrderLike {
  id: number;
  status: string;
  cardType: string;
  cardStyle: string;
  quantity: number;
  deliveryOption: string;
  totalCents: number;
  currency: string;
  createdAt: Date;
}

/** An order as webhooks describe it: what the owner sees on their order page, no address or e-mail. */
export function orderEventData(o: OrderLike): EventData['order.created'] {
  return {
    order: { id: o.id, status: o.status, cardType: o.cardType, cardStyle: o.cardStyle, quantity: o.quantity, deliveryOption: o.deliveryOption, totalCents: o.totalCents, currency: o.currency, createdAt: o.createdAt.toISOString() },
  };
}

/** The owner of a card, as a subquery for `userId` (when the caller has only the card's id). */
export function cardOwner(cardId: number): SQL {
  return sql`(select user_id from cards where id = ${cardId})`;
}
