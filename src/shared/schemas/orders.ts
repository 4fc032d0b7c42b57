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
import { binaryFile, emailField, isoDateTime, multiLine, singleLine } from './common';
import { AuthUserResponse, passwordField } from './auth';
import { SiteStudioResponse } from './settings';

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

// ---------------------------------------------------------------------------------------------
// The delivery address (issue 35, decision 35-02): required for every delivery but pickup.
// ---------------------------------------------------------------------------------------------

/** The delivery option that needs no address (the catalogue's Pickup NYC). */
export const PICKUP_DELIVERY_OPTION = 'pickup-nyc';
export const needsShippingAddress = (deliveryOption: unknown) => deliveryOption !== PICKUP_DELIVERY_OPTION;

export const ADDRESS_MESSAGES = {
  required: 'Enter the delivery address',
  name: "Enter the recipient's name",
  line1: 'Enter the street address',
  city: 'Enter the city',
  state: 'Enter the state (for example NY)',
  usState: 'Enter a US state as its 2-letter code (for example NY)',
  postalCode: 'Enter the postal code',
  usPostalCode: 'Enter a 5-digit ZIP code (or ZIP+4, 12345-6789)',
  country: 'Enter the country as its 2-letter code (for example US)',
} as const;

/** USPS codes: the states, DC, the territories and the military post offices. */
export const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'AA', 'AE', 'AP',
] as const;
const US_STATE_NAMES: Record<string, string> = Object.fromEntries(
  (
    'alabama:AL,alaska:AK,arizona:AZ,arkansas:AR,california:CA,colorado:CO,connecticut:CT,delaware:DE,florida:FL,georgia:GA,' +
    'hawaii:HI,idaho:ID,illinois:IL,indiana:IN,iowa:IA,kansas:KS,kentucky:KY,louisiana:LA,maine:ME,maryland:MD,massachusetts:MA,' +
    'michigan:MI,minnesota:MN,mississippi:MS,missouri:MO,montana:MT,nebraska:NE,nevada:NV,new hampshire:NH,new jersey:NJ,' +
    'new mexico:NM,new york:NY,north carolina:NC,north dakota:ND,ohio:OH,oklahoma:OK,oregon:OR,pennsylvania:PA,rhode island:RI,' +
    'south carolina:SC,south dakota:SD,tennessee:TN,texas:TX,utah:UT,vermont:VT,virginia:VA,washington:WA,west virginia:WV,' +
    'wisconsin:WI,wyoming:WY,district of columbia:DC,puerto rico:PR,guam:GU'
  )
    .split(',')
    .map((pair) => pair.split(':') as [string, string]),
);
const US_ZIP_RE = /^\d{5}(-\d{4})?$/;
const POSTAL_CODE_RE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,10}$/;

/** A US state written as its code or its name ("ny", "New York"): the USPS code, or null. */
export function usStateCode(raw: string): string | null {
  const s = raw.trim();
  const code = s.toUpperCase();
  if ((US_STATE_CODES as readonly string[]).includes(code)) return code;
  return US_STATE_NAMES[s.toLowerCase().replace(/\s+/g, ' ')] ?? null;
}

const requiredLine = (max: number, label: string, message: string) => singleLine(max, label).pipe(z.string().min(1, message));

/**
 * `shippingAddress` of an order: US addresses need a state and a ZIP code (stored as the state's
 * code); the country is an ISO 3166-1 alpha-2 code, "US" when left out.
 */
export const ShippingAddress = z
  .strictObject({
    name: requiredLine(120, 'Name', ADDRESS_MESSAGES.name),
    line1: requiredLine(200, 'Street address', ADDRESS_MESSAGES.line1),
    line2: singleLine(200, 'Apartment, suite, etc.')
      .optional()
      .nullable()
      .transform((v) => (v ? v : undefined)),
    city: requiredLine(100, 'City', ADDRESS_MESSAGES.city),
    state: singleLine(100, 'State').optional().default(''),
    postalCode: singleLine(20, 'Postal code').pipe(z.string().min(1, ADDRESS_MESSAGES.postalCode)),
    country: singleLine(2, 'Country')
      .optional()
      .default('US')
      .transform((v) => (v === '' ? 'US' : v.toUpperCase()))
      .pipe(z.string().regex(/^[A-Z]{2}$/, ADDRESS_MESSAGES.country)),
  })
  .transform((a, ctx) => {
    if (a.country === 'US') {
      const state = usStateCode(a.state);
      if (!a.state) ctx.issues.push({ code: 'custom', message: ADDRESS_MESSAGES.state, path: ['state'], input: a.state });
      else if (!state) ctx.issues.push({ code: 'custom', message: ADDRESS_MESSAGES.usState, path: ['state'], input: a.state });
      if (!US_ZIP_RE.test(a.postalCode)) ctx.issues.push({ code: 'custom', message: ADDRESS_MESSAGES.usPostalCode, path: ['postalCode'], input: a.postalCode });
      return { ...a, state: state ?? a.state };
    }
    if (!POSTAL_CODE_RE.test(a.postalCode)) ctx.issues.push({ code: 'custom', message: ADDRESS_MESSAGES.postalCode, path: ['postalCode'], input: a.postalCode });
    return a;
  });
export type ShippingAddressData = z.output<typeof ShippingAddress>;
export type ShippingAddressInput = z.input<typeof ShippingAddress>;

/** The address as stored and shown (state and line2 may be empty). */
export const ShippingAddressView = z.strictObject({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string(),
  country: z.string(),
});
export type ShippingAddressView = z.infer<typeof ShippingAddressView>;

/** The order's fields, flat: the form's fields, what createOrder takes and what POST /api/order stores. */
export const OrderInput = z.strictObject({
  customerName: singleLine(120, 'Name').pipe(z.string().min(1, ORDER_MESSAGES.customerName)),
  email: emailField(ORDER_MESSAGES.email),
  phone: optionalLine(40, 'Phone'),
  companyName: optionalLine(120, 'Company'),
  position: optionalLine(120, 'Position'),
  address: optionalLine(300, 'Address'),
  /** where the cards go (issue 35): required unless the delivery is pickup ({@link withShippingAddressRule}) */
  shippingAddress: ShippingAddress.optional().nullable().transform((v) => v ?? undefined),
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

/**
 * The order's address rule (issue 35): required for every delivery but pickup; a pickup order's
 * address is left out (nothing is shipped). Applied to POST /api/order, the order form and the
 * designer's checkout (POST /api/cards/submit-for-review without `orderId`: `applies` says when).
 */
export function withShippingAddressRule<T extends z.ZodType>(schema: T, applies: (value: z.output<T>) => boolean = () => true): z.ZodType<z.output<T>, z.input<T>> {
  return z.preprocess(
    (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const o = v as Record<string, unknown>;
      if (!needsShippingAddress(o.deliveryOption) && 'shippingAddress' in o) {
        const { shippingAddress: _dropped, ...rest } = o;
        return rest;
      }
      return v;
    },
    schema.superRefine((v, ctx) => {
      const o = v as { deliveryOption?: unknown; shippingAddress?: unknown };
      if (needsShippingAddress(o.deliveryOption) && !o.shippingAddress && applies(v)) {
        ctx.addIssue({ code: 'custom', message: ADDRESS_MESSAGES.required, path: ['shippingAddress'] });
      }
    }),
  ) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/** The form (client side): the same rules, without the server-only fields. */
export const OrderFormSchema = withShippingAddressRule(OrderInput.omit({ artworkUrl: true, artworkToken: true, templateId: true, clientToken: true }));
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
  /** where the cards go (issue 35), at the top level; left out for pickup */
  shippingAddress?: ShippingAddressInput;
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
  shippingAddress?: ShippingAddressInput;
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
    ...(v.shippingAddress && needsShippingAddress(v.deliveryOption) ? { shippingAddress: v.shippingAddress } : {}),
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
export const OrderCreateBody = z.preprocess(payloadToOrderInput, withShippingAddressRule(OrderInput));

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
/** issue 35: the customer's answer to the proof (`proof-approved`, `changes-requested` with their message) */
export const DESIGN_EVENT_KINDS = ['submitted', 'rejected', 'resubmitted', 'approved', 'proof-approved', 'changes-requested'] as const;
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

/**
 * The proof of the approved design (issue 35, decision 35-04): rendered from the print file itself
 * (the print check's 300 DPI proof). `awaiting`: the customer approves it or asks for changes.
 */
export const PROOF_STATES = ['none', 'awaiting', 'approved', 'changes'] as const;
export const OrderProofView = z.strictObject({
  state: z.enum(PROOF_STATES),
  /** each approved card's proof images, front and back (PNG served on demand) */
  images: z.array(z.strictObject({ cardId: z.number().int(), side: z.enum(['front', 'back']), url: z.string() })),
  /**
   * the order's cards (a team order has one per member: the name on it), with their review status
   * (pending, approved, rejected): the customer names the ones that need changes (decision 35-06)
   */
  cards: z.array(z.strictObject({ cardId: z.number().int(), name: z.string(), status: z.string() })),
  /** the customer's message when they asked for changes */
  message: z.string().nullable(),
});
export type OrderProofView = z.infer<typeof OrderProofView>;

export const PROOF_MESSAGE_MAX = 2000;
export const PROOF_MESSAGE_REQUIRED = 'Tell us what to change';
/** The answers about `cardIds` of a proof answer (decision 35-06). */
export const PROOF_CARDS_MESSAGES = {
  invalid: 'Choose the cards that need changes',
  onlyChanges: 'Name cards only when you ask for changes',
  notInProof: 'Choose cards of this proof',
} as const;
/**
 * POST /api/order-status/{token}/proof: the customer's answer to the proof. With "changes", `cardIds`
 * may name the cards that need them (a team order's, decision 35-06); without it every card goes back.
 */
export const OrderProofAnswerBody = z
  .strictObject({
    decision: z.enum(['approve', 'changes'], { error: 'Decision must be approve or changes' }),
    message: multiLine(PROOF_MESSAGE_MAX, 'Message').optional(),
    cardIds: z
      .array(z.number({ error: PROOF_CARDS_MESSAGES.invalid }).int(PROOF_CARDS_MESSAGES.invalid).positive(PROOF_CARDS_MESSAGES.invalid).max(2_147_483_647, PROOF_CARDS_MESSAGES.invalid), {
        error: PROOF_CARDS_MESSAGES.invalid,
      })
      .min(1, PROOF_CARDS_MESSAGES.invalid)
      // a team order's cards: one per member (TEAM_LIMITS.maxMembers)
      .max(5000, PROOF_CARDS_MESSAGES.invalid)
      .optional(),
  })
  .superRefine((b, c) => {
    if (b.decision === 'changes' && !b.message) c.addIssue({ code: 'custom', path: ['message'], message: PROOF_MESSAGE_REQUIRED });
    if (b.decision !== 'changes' && b.cardIds) c.addIssue({ code: 'custom', path: ['cardIds'], message: PROOF_CARDS_MESSAGES.onlyChanges });
  });
export type OrderProofAnswerBody = z.input<typeof OrderProofAnswerBody>;

export const OrderProofImageParams = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Order not found'),
  cardId: z.coerce.number().int().positive().max(2_147_483_647),
  side: z.enum(['front.png', 'back.png'], { error: 'Side must be front.png or back.png' }),
});

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
  /** where the cards go (issue 35); null for pickup (and for orders placed before it was asked) */
  shippingAddress: ShippingAddressView.nullable(),
  /** the customer may still correct the address (a delivery order that has not shipped) */
  addressEditable: z.boolean(),
  /** the one delivery promise from the order date: "Ships by Fri, Nov 27" (shared/orders/delivery-promise) */
  deliveryPromise: z.string(),
  /** pickup orders: the studio's address, hours and pickup instructions, with a map link */
  studio: SiteStudioResponse.nullable(),
  /** the proof the customer approves before production (issue 35) */
  proof: OrderProofView,
  /** how the order is paid, while it is not: "No charge now: we send an invoice once you approve your proof" (invoice mode) */
  paymentNote: z.string().nullable(),
});
export type OrderStatusView = z.infer<typeof OrderStatusGetResponse>;

/** GET /api/orders/mine: the signed-in customer's orders, newest first, each with its page's path. */
export const MyOrdersResponse = z.strictObject({
  orders: z.array(
    OrderStatusGetResponse.extend({
      statusPath: z.string(),
      /** where "Design your card" leads (`/design?order={id}`, issue 35): an order of the customer's own with no design yet, before production */
      designPath: z.string().nullable(),
    }),
  ),
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

export const ADDRESS_LOCKED_MESSAGE = 'Your order has shipped: the delivery address can no longer be changed. Contact us if something is wrong.';
export const ADDRESS_PICKUP_MESSAGE = 'This order is collected at our studio: it has no delivery address.';

/** PATCH /api/order-status/{token}/address: the customer corrects the delivery address until the order ships. */
export const OrderAddressPatchBody = z.strictObject({ shippingAddress: ShippingAddress });
export type OrderAddressPatchBody = z.input<typeof OrderAddressPatchBody>;

/** GET /api/checkout/terms (public): how a new order is paid (issue 35), with the words a checkout shows. */
export const CheckoutTermsResponse = z.strictObject({
  /** `store`: the online store's checkout link is e-mailed; `invoice`: no charge now, invoiced after the proof */
  paymentMode: z.enum(['store', 'invoice']),
  paymentNote: z.string(),
  taxNote: z.string(),
});
export type CheckoutTerms = z.infer<typeof CheckoutTermsResponse>;

/** GET /api/order-status/{token}/proof/{cardId}/{front|back}.png: one side of the proof (PNG). */
export const OrderProofImageResponse = binaryFile('image/png');
