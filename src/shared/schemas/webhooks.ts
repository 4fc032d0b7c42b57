import { z } from 'zod';
import { confirmPasswordField } from './auth';
import { Lead } from './engagement';

/**
 * Webhooks (issue 23, decision 23-02): endpoints a user (or a team's admin) registers, the events
 * they get, and the delivery log. Every body is signed per the Standard Webhooks spec
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 */

export const WEBHOOK_EVENT_TYPES = ['lead.created', 'order.created', 'order.status_changed', 'card.approved', 'card.rejected', 'profile.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** the event "Send test" delivers; never subscribed to, always sent when asked */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'lead.created': 'A visitor left their details',
  'order.created': 'An order was placed',
  'order.status_changed': "An order's status changed",
  'card.approved': 'A card design was approved',
  'card.rejected': 'A card design was sent back',
  'profile.updated': 'The profile was updated',
};

export const WEBHOOK_MESSAGES = {
  url: 'Enter an https:// address',
  urlHttp: 'Enter an http:// or https:// address',
  refused: 'This address is not allowed: it points to a private, loopback, link-local or metadata network',
  events: 'Choose at least one event',
  notFound: 'Webhook endpoint not found',
  disabled: 'This endpoint is disabled: enable it first',
  /** the reasons an endpoint was turned off with the account's access (issue 33) */
  disabledByReset: 'Disabled after a password reset',
  disabledByChange: 'Disabled after a password change',
  tooManyPending: 'This endpoint already has 100 deliveries waiting. Wait for them to be sent (or fail) before sending more by hand.',
  manualLimit: 'Too many test sends and redeliveries. Please wait and try again.',
} as const;

/** Test sends and redeliveries (issue 33): per endpoint, per user, and the pending backlog they may add to. */
export const WEBHOOK_MANUAL_LIMITS = {
  perEndpoint: { limit: 5, windowSeconds: 60 },
  perUser: { limit: 20, windowSeconds: 3600 },
  maxPending: 100,
} as const;

// ---- payloads: { type, timestamp, data } with these data shapes ----

export const WebhookLeadData = z.object({
  // the owner's lead (engagement) with its profile
  lead: z.object({ ...Lead.shape, profileId: z.string(), createdAt: z.string() }),
});

export const WebhookOrderData = z.object({
  order: z.object({
    id: z.number().int(),
    status: z.string(),
    cardType: z.string(),
    cardStyle: z.string(),
    quantity: z.number().int(),
    deliveryOption: z.string(),
    totalCents: z.number().int(),
    currency: z.string(),
    createdAt: z.string(),
  }),
});

export const WebhookOrderStatusData = WebhookOrderData.extend({ fromStatus: z.string(), toStatus: z.string() });

export const WebhookCardData = z.object({
  card: z.object({ id: z.number().int(), status: z.enum(['approved', 'rejected']), reviewNotes: z.string(), orderId: z.number().int().nullable() }),
});

export const WebhookProfileData = z.object({ profile: z.object({ id: z.string(), updatedAt: z.string() }) });

export const WebhookTestData = z.object({ endpointId: z.number().int(), message: z.string() });

/** The body of every delivery: what happened, when, and its data (shape per type above). */
export const WebhookPayload = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

// ---- routes ----

const EventList = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Unknown event' }))
  .min(1, WEBHOOK_MESSAGES.events)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((list) => [...new Set(list)]);
const Url = z.string().trim().min(1, WEBHOOK_MESSAGES.url).max(2000, 'That address is too long');

export const WebhookCreateBody = z.strictObject({
  url: Url,
  events: EventList,
  description: z.string().trim().max(200).optional(),
  /** register for your team (owner or admin only) */
  teamId: z.uuid().optional(),
  /** the account's password (issue 33): an endpoint receives the account's data, so its creation is confirmed */
  password: confirmPasswordField,
});
export type WebhookCreateBody = z.output<typeof WebhookCreateBody>;

export const WebhookUpdateBody = z.strictObject({
  url: Url.optional(),
  events: EventList.optional(),
  description: z.string().trim().max(200).optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdateBody = z.output<typeof WebhookUpdateBody>;

export const WebhookParams = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const WebhookDeliveryParams = z.strictObject({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

const Endpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  teamId: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof Endpoint>;

export const WebhookCreateResponse = z.object({
  endpoint: Endpoint,
  /** shown this once: it signs every delivery */
  secret: z.string(),
});
export type WebhookCreateResponse = z.infer<typeof WebhookCreateResponse>;
/** POST /api/webhooks/{id}/secret: a new secret replaces the old one at once, shown this once */
export const WebhookSecretRollResponse = z.object({ secret: z.string() });
export type WebhookSecretRollResponse = z.infer<typeof WebhookSecretRollResponse>;
export const WebhookGetResponse = Endpoint;
export const WebhookUpdateResponse = Endpoint;
export const WebhookListResponse = z.object({ endpoints: z.array(Endpoint) });
export type WebhookListResponse = z.infer<typeof WebhookListResponse>;

const Delivery = z.object({
  id: z.number().int(),
  messageId: z.string(),
  type: z.string(),
  /** pending | delivered | failed */
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof Delivery>;
export const WebhookDeliveryListResponse = z.object({ deliveries: z.array(Delivery) });
export type WebhookDeliveryListResponse = z.infer<typeof WebhookDeliveryListResponse>;
export const WebhookTestResponse = Delivery;
export const WebhookRedeliverResponse = Delivery;
