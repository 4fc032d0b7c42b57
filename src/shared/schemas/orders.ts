import { z } from 'zod';
import {
  CARD_STYLES,
  CARD_TYPES,
  CARD_TYPE_IDS,
  DELIVERY_OPTIONS,
  DELIVERY_OPTION_IDS,
  QUANTITY_MAX,
  QUANTITY_MIN,
  SPECIAL_REQUESTS_MAX,
} from '#shared/catalogue';
import { emailField, isoDateTime, multiLine, singleLine } from './common';
import { AuthUserResponse, passwordField } from './auth';

/** Messages of the order form (visitor spec, section 5). */
export const ORDER_MESSAGES = {
  customerName: 'Your name is required',
  email: 'Enter a valid email',
  quantityMin: 'At least 1',
  quantityMax: 'Too many',
  quantityWhole: 'Quantity must be a whole number',
  cardType: 'Select a card type',
  cardStyle: 'Select a card style',
  deliveryOption: 'Select a delivery option',
} as const;

const optionalLine = (max: number, label: string) =>
  singleLine(max, label)
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined));

/** Where uploaded artwork lives: the path the artwork upload answers (never an outside URL). */
export const ARTWORK_URL_RE = /^\/files\/artwork\/\d{4}\/[a-z0-9]{24}\.(png|jpg|webp|svg)$/;

/** Idempotency key / client token: what a browser can make with crypto.randomUUID(). */
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_.:-]{8,100}$/;

export const quantityField = z
  .number({ error: ORDER_MESSAGES.quantityWhole })
  .int(ORDER_MESSAGES.quantityWhole)
  .min(QUANTITY_MIN, ORDER_MESSAGES.quantityMin)
  .max(QUANTITY_MAX, ORDER_MESSAGES.quantityMax);

/** The order's fields, flat: the form's fields, what createOrder takes and what POST /api/order stores. */
export const OrderInput = z.strictObject({
  customerName: singleLine(120, 'Name').pipe(z.string().min(1, ORDER_MESSAGES.customerName)),
  email: emailField(ORDER_MESSAGES.email),
  phone: optionalLine(40, 'Phone'),
  companyName: optionalLine(120, 'Company'),
  position: optionalLine(120, 'Position'),
  address: optionalLine(300, 'Address'),
  quantity: quantityField,
  cardType: z.enum(CARD_TYPE_IDS, { error: ORDER_MESSAGES.cardType }),
  cardStyle: z.enum(CARD_STYLES, { error: ORDER_MESSAGES.cardStyle }),
  deliveryOption: z.enum(DELIVERY_OPTION_IDS, { error: ORDER_MESSAGES.deliveryOption }),
  specialRequests: multiLine(SPECIAL_REQUESTS_MAX, 'Special requests')
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined)),
  artworkUrl: z
    .string()
    .regex(ARTWORK_URL_RE, 'Artwork must be a file uploaded with this form')
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined)),
  /** the token the artwork upload answered when it was made signed out: proof the artwork is the caller's (issue 19) */
  artworkToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,100}$/, 'Artwork not found. Please upload it again.')
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined)),
  templateId: z.number().int().positive().max(2_147_483_647).optional().nullable().transform((v) => v ?? undefined),
  /** a random token made once per filled-in form: a retried submit answers the same order */
  clientToken: z
    .string()
    .regex(IDEMPOTENCY_KEY_RE, 'Invalid client token')
    .optional()
    .nullable()
    .transform((v) => v ?? undefined),
});
export type OrderInputData = z.output<typeof OrderInput>;

/** The form (client side): the same rules, without the server-only fields. */
export const OrderFormSchema = OrderInput.omit({ artworkUrl: true, artworkToken: true, templateId: true, clientToken: true });
export type OrderFormValues = z.input<typeof OrderFormSchema>;

// ---------------------------------------------------------------------------------------------
// The spec's submission payload: customer {name, email, phone}; one item titled
// '{quantity}× {cardType}' with properties (Card Style, Position, Company, Special Requests,
// Artwork URL); notes 'Delivery option: {option}'. POST /api/order takes this shape (and the flat
// shape above); both are turned into OrderInput before validation.
// ---------------------------------------------------------------------------------------------

export const ORDER_PROPERTY_NAMES = {
  cardStyle: 'Card Style',
  position: 'Position',
  companyName: 'Company',
  specialRequests: 'Special Requests',
  artworkUrl: 'Artwork URL',
  address: 'Address',
} as const;

export interface OrderPayload {
  customer: { name: string; email: string; phone?: string };
  items: Array<{ title: string; quantity: number; properties: Array<{ name: string; value: string }> }>;
  notes: string;
  clientToken?: string;
  /** the signed-out artwork upload's own token (issue 19) */
  artworkToken?: string;
}

/** Builds the spec's payload from the form's values (cardType and delivery option by catalogue id). */
export function toOrderPayload(v: {
  customerName: string;
  email: string;
  phone?: string;
  companyName?: string;
  position?: string;
  address?: string;
  quantity: number;
  cardType: string;
  cardStyle: string;
  deliveryOption: string;
  specialRequests?: string;
  artworkUrl?: string;
  artworkToken?: string;
  clientToken?: string;
}): OrderPayload {
  const properties: Array<{ name: string; value: string }> = [{ name: ORDER_PROPERTY_NAMES.cardStyle, value: v.cardStyle }];
  const add = (name: string, value?: string) => {
    if (value && value.trim()) properties.push({ name, value });
  };
  add(ORDER_PROPERTY_NAMES.position, v.position);
  add(ORDER_PROPERTY_NAMES.companyName, v.companyName);
  add(ORDER_PROPERTY_NAMES.address, v.address);
  add(ORDER_PROPERTY_NAMES.specialRequests, v.specialRequests);
  add(ORDER_PROPERTY_NAMES.artworkUrl, v.artworkUrl);
  return {
    customer: { name: v.customerName, email: v.email, ...(v.phone ? { phone: v.phone } : {}) },
    items: [{ title: `${v.quantity}× ${v.cardType}`, quantity: v.quantity, properties }],
    notes: `Delivery option: ${v.deliveryOption}`,
    ...(v.clientToken ? { clientToken: v.clientToken } : {}),
    ...(v.artworkUrl && v.artworkToken ? { artworkToken: v.artworkToken } : {}),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function catalogueId<T extends { id: string; label: string }>(list: readonly T[], raw: string): string {
  const s = raw.trim();
  const hit = list.find((x) => x.id === s) ?? list.find((x) => x.label.toLowerCase() === s.toLowerCase());
  return hit ? hit.id : s;
}

/**
 * Turns the spec's payload into the flat OrderInput shape. Anything structurally wrong is passed on
 * so that OrderInput reports it (e.g. a missing card type gives 'Select a card type').
 */
export function payloadToOrderInput(body: unknown): unknown {
  if (!isRecord(body) || !('customer' in body || 'items' in body)) return body;
  const { customer, items, notes, clientToken, artworkToken, ...rest } = body;
  const out: Record<string, unknown> = { ...rest };
  if (clientToken !== undefined) out.clientToken = clientToken;
  if (artworkToken !== undefined) out.artworkToken = artworkToken;
  if (isRecord(customer)) {
    const { name, email, phone, ...extra } = customer;
    out.customerName = name ?? '';
    out.email = email ?? '';
    if (phone !== undefined) out.phone = phone;
    for (const k of Object.keys(extra)) out[`customer.${k}`] = extra[k];
  } else {
    out.customerName = '';
    out.email = '';
  }
  if (Array.isArray(items) && items.length === 1 && isRecord(items[0])) {
    const item = items[0];
    const title = typeof item.title === 'string' ? item.title : '';
    const m = /^\s*(\d+)\s*[×x]\s*(.+?)\s*$/u.exec(title);
    out.quantity = item.quantity ?? (m ? Number(m[1]) : undefined);
    if (m) out.cardType = catalogueId(CARD_TYPES, m[2]);
    if (Array.isArray(item.properties)) {
      for (const p of item.properties) {
        if (!isRecord(p) || typeof p.name !== 'string') {
          out['items.0.properties'] = p;
          continue;
        }
        const name = p.name;
        const field = (Object.keys(ORDER_PROPERTY_NAMES) as Array<keyof typeof ORDER_PROPERTY_NAMES>).find(
          (k) => ORDER_PROPERTY_NAMES[k].toLowerCase() === name.toLowerCase(),
        );
        if (field) out[field] = p.value;
        else out[`property:${name}`] = p.value; // unknown property: refused as an unknown field
      }
    } else if (item.properties !== undefined) {
      out['items.0.properties'] = item.properties;
    }
  } else if (items !== undefined) {
    out.items = items; // zero or several items: refused
  }
  if (typeof notes === 'string') {
    const m = /delivery option:\s*([^\r\n]+)/i.exec(notes);
    if (m) out.deliveryOption = catalogueId(DELIVERY_OPTIONS, m[1]);
  } else if (notes !== undefined) {
    out.notes = notes;
  }
  return out;
}

/** POST /api/order body: the spec's payload or the flat fields. */
export const OrderCreateBody = z.preprocess(payloadToOrderInput, OrderInput);

/** POST /api/order: 201 for a new order, 200 when a retry (same key) answers the same order. */
export const OrderCreateResponse = z.strictObject({
  id: z.number().int(),
  orderId: z.number().int(),
  status: z.string(),
  totalCents: z.number().int(),
  total: z.string(),
  statusUrl: z.string(),
  checkoutUrl: z.string().nullable(),
  /** true when this answer repeats an order already created with the same idempotency key */
  replayed: z.boolean(),
  message: z.string(),
});
export type OrderCreateResponse = z.infer<typeof OrderCreateResponse>;

export const ORDER_TIMELINE_KINDS = ['status', 'design'] as const;
export const DESIGN_EVENT_KINDS = ['submitted', 'rejected', 'resubmitted', 'approved'] as const;
export type DesignEventKind = (typeof DESIGN_EVENT_KINDS)[number];

/** One step of an order's timeline: a status change, or a design review event (with its reason). */
export const OrderTimelineEntry = z.strictObject({
  kind: z.enum(ORDER_TIMELINE_KINDS),
  /** the status reached, or the design event */
  event: z.string(),
  label: z.string(),
  reason: z.string().nullable(),
  /** what the step adds (issue 22): "UPS 1Z...", "Pickup code K7M2QX" */
  detail: z.string().nullable(),
  /** a link of the step: the carrier's tracking page */
  href: z.string().nullable(),
  at: isoDateTime,
});
export type OrderTimelineEntry = z.infer<typeof OrderTimelineEntry>;

/** How the order left the floor (issue 22): the shipment's carrier and tracking, or the pickup code. */
export const OrderFulfilmentView = z.strictObject({
  carrier: z.string().nullable(),
  carrierLabel: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  pickupCode: z.string().nullable(),
});
export type OrderFulfilmentView = z.infer<typeof OrderFulfilmentView>;

export const OrderDesignView = z.strictObject({
  cardId: z.number().int(),
  /** pending | approved | rejected */
  status: z.string(),
  statusLabel: z.string(),
  /** the reviewer's reason when it needs changes */
  reason: z.string().nullable(),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  /** where "Edit and resubmit" leads (signed in as the design's owner), when it needs changes */
  editPath: z.string().nullable(),
});
export type OrderDesignView = z.infer<typeof OrderDesignView>;

export const OrderStatusGetResponse = z.strictObject({
  id: z.number().int(),
  createdAt: isoDateTime,
  customerName: z.string(),
  companyName: z.string().nullable(),
  quantity: z.number().int(),
  cardType: z.enum(CARD_TYPE_IDS),
  cardTypeLabel: z.string(),
  cardStyle: z.string(),
  deliveryOption: z.enum(DELIVERY_OPTION_IDS),
  deliveryLabel: z.string(),
  unitPriceCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  subtotalCents: z.number().int(),
  totalCents: z.number().int(),
  currency: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  hasArtwork: z.boolean(),
  checkoutUrl: z.string().nullable(),
  history: z.array(z.strictObject({ status: z.string(), statusLabel: z.string(), at: isoDateTime })),
  /** status changes and design review events in time order (issue 20) */
  timeline: z.array(OrderTimelineEntry),
  /** the order's card design, when it came from the designer */
  design: OrderDesignView.nullable(),
  /** the short link its cards' QR codes carry (`/c/CODE`), once it has one */
  cardLink: z.string().nullable(),
  /** the card code has no profile to open yet (the buyer has not claimed the order or made a profile) */
  waitsForProfile: z.boolean(),
  /** shipped: carrier and tracking link; ready for pickup: the pickup code (issue 22) */
  fulfilment: OrderFulfilmentView.nullable(),
});
export type OrderStatusView = z.infer<typeof OrderStatusGetResponse>;

/** GET /api/orders/mine: the signed-in customer's orders, newest first, each with its page's path. */
export const MyOrdersResponse = z.strictObject({
  orders: z.array(OrderStatusGetResponse.extend({ statusPath: z.string() })),
});
export type MyOrdersResponse = z.infer<typeof MyOrdersResponse>;
export type MyOrder = MyOrdersResponse['orders'][number];

export const CLAIM_MESSAGES = {
  invalid: 'This claim link is not valid or was already used. Your order may already be in your account.',
  accountExists: 'An account with this e-mail already exists. Sign in to claim your order.',
  passwordRequired: 'Choose a password for your new account.',
} as const;

const claimToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, CLAIM_MESSAGES.invalid);

export const OrderClaimGetParams = z.strictObject({ token: claimToken });

/** GET /api/orders/claim/{token}: what the claim page shows (only to whoever holds the link). */
export const OrderClaimGetResponse = z.strictObject({
  orderId: z.number().int(),
  customerName: z.string(),
  email: z.string(),
  companyName: z.string().nullable(),
  quantity: z.number().int(),
  cardTypeLabel: z.string(),
  /** an account with the order's e-mail exists: the page offers sign-in instead of sign-up */
  accountExists: z.boolean(),
});
export type OrderClaim = z.infer<typeof OrderClaimGetResponse>;

/**
 * POST /api/orders/claim: signed in, attaches the order to this account; signed out, with a
 * password, creates the account (the order's name and e-mail) and signs in.
 */
export const OrderClaimBody = z
  .strictObject({
    token: claimToken,
    password: passwordField.optional(),
    confirmPassword: z.string().max(200).optional(),
  })
  .refine((v) => v.password === undefined || v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

export const OrderClaimResponse = z.strictObject({
  orderId: z.number().int(),
  profileId: z.string(),
  /** true when the claim made the account */
  accountCreated: z.boolean(),
  user: AuthUserResponse,
  statusPath: z.string(),
});
export type OrderClaimResult = z.infer<typeof OrderClaimResponse>;

/**
 * POST /api/upload/artwork (multipart): the stored file, as a list of one. Signed out, also the
 * upload's token, which the order must send back to use the file (issue 19).
 */
export const ArtworkUploadResponse = z.array(z.strictObject({ url: z.string().regex(ARTWORK_URL_RE), uploadToken: z.string().optional() })).length(1);

export const OrderStatusGetParams = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Order not found'),
});
