import crypto from 'node:crypto';
import type { AppContext } from '#server/context';

/**
 * The online store's order webhooks (issue 35, decision 35-01): the signature check and the
 * reading of Shopify's payloads into store events that the orders feature applies. Nothing here
 * touches the database.
 */

/** The topics we subscribe to; any other is acknowledged and ignored. */
export const STORE_TOPICS = ['orders/paid', 'refunds/create', 'orders/cancelled'] as const;
export type StoreTopic = (typeof STORE_TOPICS)[number];

/** The cart attribute that carries our order id to the store (it comes back in the order's `note_attributes`). */
export const ORDER_ID_ATTRIBUTE = 'order_id';

/** What the store collected for an order (the address in its own field names). */
export interface StoreOrderFacts {
  storeOrderId: string;
  orderName: string | null;
  /** our order's id as the checkout carried it; null when absent or unreadable */
  ourOrderId: number | null;
  totalCents: number | null;
  taxCents: number | null;
  currency: string | null;
  shippingAddress: Record<string, unknown> | null;
}

export type StoreOrderEvent =
  | ({ kind: 'paid'; amountCents: number; gateway: string } & StoreOrderFacts)
  | ({ kind: 'cancelled'; cancelledAt: string; reason: string | null } & StoreOrderFacts)
  | { kind: 'refund'; storeOrderId: string; refundId: string; amountCents: number; currency: string | null; gateway: string };

/** How the orders feature handled one delivery. */
export type StoreEventOutcome = 'handled' | 'duplicate' | 'unmatched';

/** Applies one store event, once per webhook id (passed in from routes.ts: orders is built on shopify). */
export type StoreOrderEventHandler = (ctx: AppContext, webhookId: string, topic: StoreTopic, event: StoreOrderEvent) => Promise<StoreEventOutcome>;

/**
 * Shopify's signature: base64 HMAC-SHA256 of the raw body with the webhook secret, compared in
 * constant time (a header of another length, or no header, is simply wrong).
 */
export function verifyStoreSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  let given: Buffer;
  try {
    given = Buffer.from(header.trim(), 'base64');
  } catch {
    return false;
  }
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** "1780.00" -> 178000; anything unreadable or negative -> null. */
export function moneyToCents(value: unknown): number | null {
  const s = typeof value === 'number' ? value.toFixed(2) : typeof value === 'string' ? value.trim() : '';
  // bounded: a short money string from the store's JSON
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

const str = (v: unknown, max = 200): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

function ourOrderIdOf(order: Record<string, any>): number | null {
  const attrs = Array.isArray(order.note_attributes) ? order.note_attributes : [];
  const hit = attrs.find((a: any) => a && (a.name === ORDER_ID_ATTRIBUTE || a.key === ORDER_ID_ATTRIBUTE));
  const raw = str(hit?.value);
  return raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

const ADDRESS_FIELDS = ['name', 'first_name', 'last_name', 'company', 'address1', 'address2', 'city', 'province', 'province_code', 'zip', 'country', 'country_code', 'phone'] as const;

function addressOf(value: unknown): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null;
  const out: Record<string, string> = {};
  for (const k of ADDRESS_FIELDS) {
    const v = str((value as Record<string, unknown>)[k]);
    if (v) out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

function orderFacts(order: Record<string, any>): StoreOrderFacts | null {
  const storeOrderId = str(order.id, 40);
  if (!storeOrderId) return null;
  return {
    storeOrderId,
    orderName: str(order.name, 40),
    ourOrderId: ourOrderIdOf(order),
    totalCents: moneyToCents(order.total_price),
    taxCents: moneyToCents(order.current_total_tax ?? order.total_tax),
    currency: str(order.currency, 3),
    shippingAddress: addressOf(order.shipping_address),
  };
}

/** One webhook's JSON as a store event; null when it is not one we can read (acknowledged, ignored). */
export function readStoreEvent(topic: StoreTopic, body: unknown): StoreOrderEvent | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, any>;
  if (topic === 'refunds/create') {
    const storeOrderId = str(b.order_id, 40);
    const refundId = str(b.id, 40);
    if (!storeOrderId || !refundId) return null;
    const txs = (Array.isArray(b.transactions) ? b.transactions : []).filter((t: any) => t && t.kind === 'refund' && (t.status === undefined || t.status === 'success'));
    const amountCents = txs.reduce((sum: number, t: any) => sum + (moneyToCents(t.amount) ?? 0), 0);
    return { kind: 'refund', storeOrderId, refundId, amountCents, currency: str(txs[0]?.currency, 3), gateway: str(txs[0]?.gateway, 60) ?? 'store' };
  }
  const facts = orderFacts(b);
  if (!facts) return null;
  if (topic === 'orders/paid') {
    const gateways = Array.isArray(b.payment_gateway_names) ? b.payment_gateway_names.map((g: unknown) => str(g, 60)).filter(Boolean) : [];
    return { kind: 'paid', ...facts, amountCents: facts.totalCents ?? 0, gateway: gateways.join(', ') || str(b.gateway, 60) || 'store' };
  }
  return { kind: 'cancelled', ...facts, cancelledAt: str(b.cancelled_at, 40) ?? new Date().toISOString(), reason: str(b.cancel_reason, 60) };
}
