import { z } from 'zod';

/** Answers of the store pages' calls (GET /api/shopify/status, POST /api/shopify/test-connection). */

export const StoreStatusGetResponse = z.strictObject({
  configured: z.boolean(),
  apiVersion: z.string(),
  storeDomain: z.string().nullable(),
  settings: z.array(z.strictObject({ name: z.string(), present: z.boolean(), required: z.boolean() })),
  referenceProducts: z.array(z.strictObject({ title: z.string(), price: z.string() })),
});
export type StoreStatus = z.infer<typeof StoreStatusGetResponse>;

export const StoreConnectionTestResponse = z.strictObject({
  ok: z.boolean(),
  configured: z.boolean(),
  apiVersion: z.string(),
  message: z.string(),
  durationMs: z.number().nonnegative(),
  storeDomain: z.string().optional(),
  shopName: z.string().optional(),
  productCount: z.number().int().nonnegative().optional(),
  products: z.array(z.strictObject({ title: z.string(), price: z.string().nullable(), variants: z.number().int().nonnegative() })).optional(),
});
export type StoreConnectionResult = z.infer<typeof StoreConnectionTestResponse>;

/**
 * POST /api/shopify/webhooks (issue 35): the online store's order webhooks. Acknowledged with 200:
 * handled, duplicate (a webhook id seen before), unmatched (no order yet: kept and applied once its
 * order is known) or ignored (a topic we do not handle, or a payload without an order).
 */
export const StoreWebhookResponse = z.strictObject({
  ok: z.literal(true),
  outcome: z.enum(['handled', 'duplicate', 'unmatched', 'ignored']),
});
export type StoreWebhookAnswer = z.infer<typeof StoreWebhookResponse>;
