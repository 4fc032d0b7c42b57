import { z } from 'zod';
import { ORDER_STATUSES } from '#shared/catalogue';
import { isoDateTime, multiLine, singleLine, textDocument } from './common';
import { ShippingAddressView } from './orders';

/** Contracts of the staff area (`/api/admin/*`). The server validates with them; the admin screens use the types. */

export const ADMIN_NOTES_MAX = 5000;
export const ADMIN_SEARCH_MAX = 200;
export const ADMIN_PAGE_SIZE_DEFAULT = 25;
export const ADMIN_PAGE_SIZE_MAX = 100;
/** how many rows one CSV export may hold */
export const ADMIN_EXPORT_MAX_ROWS = 100_000;
export const RECENT_ORDERS_SHOWN = 5;


export const STATUS_MESSAGE = `Status must be one of ${ORDER_STATUSES.join(', ')}`;
export const OrderStatusField = z.enum(ORDER_STATUSES, { error: STATUS_MESSAGE });

const page = z.coerce.number({ error: 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(1_000_000, 'Page is too large').default(1);
const pageSize = z.coerce
  .number({ error: 'Page size must be a number' })
  .int('Page size must be a whole number')
  .min(1, 'Page size must be at least 1')
  .max(ADMIN_PAGE_SIZE_MAX, `Page size must be at most ${ADMIN_PAGE_SIZE_MAX}`)
  .default(ADMIN_PAGE_SIZE_DEFAULT);
const search = singleLine(ADMIN_SEARCH_MAX, 'Search').optional().default('');
/** '' or 'all' mean every status */
const statusFilter = z
  .union([z.literal(''), z.literal('all'), OrderStatusField], { error: STATUS_MESSAGE })
  .optional()
  .transform((v) => (v === '' || v === 'all' ? undefined : v));

export const AdminOrderListQuery = z.strictObject({ q: search, status: statusFilter, page, pageSize });

export const AdminOrderExportQuery = z.strictObject({ q: search, status: statusFilter });

export const ORDER_OVERRIDE_REASON_MAX = 500;
/**
 * PATCH /api/admin/orders/{id}: the status move (the status machine decides, decision 35-04);
 * `overrideReason` lets an unpaid order start production (kept in the status history).
 */
export const AdminOrderUpdateBody = z.strictObject({
  status: OrderStatusField,
  overrideReason: singleLine(ORDER_OVERRIDE_REASON_MAX, 'Override reason').optional(),
});

export const AdminOrderNotesSaveBody = z.strictObject({
  notes: z.string({ error: 'Notes must be text' }).pipe(multiLine(ADMIN_NOTES_MAX, 'Notes')),
});

export const AdminCustomerListQuery = z.strictObject({ q: search, page, pageSize });

// ---- payments (issue 35, decision 35-01) ----

/** unpaid (nothing, or less than the order's total, received) | paid (the total covered) | partially_refunded | refunded */
export const PAYMENT_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** how staff were paid in invoice mode; the online store's payments carry its gateway's name */
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'check', 'cash', 'other'] as const;
export const PAYMENT_KINDS = ['payment', 'refund'] as const;
/** the largest single payment or refund staff may record: $1,000,000.00 */
export const PAYMENT_MAX_CENTS = 100_000_000;

/** POST /api/admin/orders/{id}/payments: money received (or, `kind: "refund"`, handed back), always a positive amount. */
export const AdminOrderPaymentCreateBody = z.strictObject({
  kind: z.enum(PAYMENT_KINDS, { error: 'Kind must be payment or refund' }).default('payment'),
  amountCents: z
    .number({ error: 'Amount must be a number of cents' })
    .int('Amount must be a whole number of cents')
    .min(1, 'Amount must be more than zero')
    .max(PAYMENT_MAX_CENTS, 'Amount must be at most $1,000,000.00'),
  method: z.enum(PAYMENT_METHODS, { error: `Method must be one of ${PAYMENT_METHODS.join(', ')}` }),
  reference: z
    .string({ error: 'Reference must be text' })
    .pipe(singleLine(200, 'Reference'))
    .refine((s) => s.length > 0, 'Reference is required (an invoice, transfer or receipt number)'),
});

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
/** the outbox's order filter: an order number, "#42" allowed; '' means any */
const ORDER_NUMBER_MESSAGE = 'Order must be an order number, such as 42 or #42';
const orderNumber = z
  .string({ error: ORDER_NUMBER_MESSAGE })
  .trim()
  .transform((v) => v.replace(/^#/, ''))
  .pipe(z.string().regex(/^([0-9]{1,10})?$/, ORDER_NUMBER_MESSAGE))
  .transform((v) => (v === '' ? undefined : Number(v)))
  .pipe(z.number().int().min(1, ORDER_NUMBER_MESSAGE).max(2_147_483_647, ORDER_NUMBER_MESSAGE).optional())
  .optional();
/**
 * GET /api/admin/outbox (issue 37): `q` a part of the address or the subject (case-insensitive,
 * % and _ taken literally), `order` the order an e-mail is about, `status` pending (waiting), sent
 * or failed; newest first, one page.
 */
export const AdminOutboxListQuery = z.strictObject({
  q: search,
  order: orderNumber,
  status: z
    .union([z.literal(''), z.literal('all'), z.enum(OUTBOX_STATUSES)], { error: 'Status must be pending, sent or failed' })
    .optional()
    .transform((v) => (v === '' || v === 'all' ? undefined : v)),
  page,
  pageSize,
});

// ---- answers ----

const dateTime = isoDateTime;
/** One page of a staff list: the items under their own name, with the count and the page (typed by its key). */
const pageOf = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.strictObject({
    ...({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  });

export const AdminOrder = z.strictObject({
  id: z.number().int(),
  status: z.string().describe(`one of ${ORDER_STATUSES.join(', ')}`),
  customerName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** the spec's admin list calls it `company`, the store-side order `companyName`: both are sent */
  company: z.string().nullable(),
  companyName: z.string().nullable(),
  position: z.string().nullable(),
  jobTitle: z.string().nullable(),
  address: z.string().nullable(),
  quantity: z.number().int(),
  cardType: z.string(),
  cardTypeLabel: z.string(),
  cardStyle: z.string(),
  deliveryOption: z.string(),
  deliveryLabel: z.string(),
  specialRequests: z.string().nullable(),
  /** total in dollars from the order's price snapshot */
  amount: z.number(),
  totalCents: z.number().int(),
  currency: z.string(),
  templateId: z.number().int().nullable(),
  /** the customer's uploaded artwork (or logo), if any */
  logoUrl: z.string().nullable(),
  cardId: z.number().int().nullable(),
  /** a real image of the order's design: the designed card's front, else the uploaded artwork */
  previewUrl: z.string().nullable(),
  source: z.string(),
  userId: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  /** its cards' QR code has no profile to open yet: the buyer has not claimed the order (issue 20) */
  waitsForProfile: z.boolean(),
});
export type AdminOrder = z.infer<typeof AdminOrder>;

export const AdminOrderListResponse = pageOf('orders', AdminOrder);
export type AdminOrderPage = { orders: AdminOrder[]; total: number; page: number; pageSize: number };

/** GET /api/admin/orders.csv: the orders as CSV (UTF-8 with BOM, attachment). */
export const AdminOrderExportResponse = textDocument('text/csv (attachment)');

export const OrderHistoryEntry = z.strictObject({
  id: z.number().int(),
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  changedBy: z.string(),
  /** a staff override's reason (production started unpaid) */
  note: z.string().nullable(),
  createdAt: dateTime,
});
export type OrderHistoryEntry = z.infer<typeof OrderHistoryEntry>;

export const OrderNoteEntry = z.strictObject({ id: z.number().int(), body: z.string(), author: z.string(), createdAt: dateTime });
export type OrderNoteEntry = z.infer<typeof OrderNoteEntry>;

export const AdminOrderDesign = z.strictObject({
  id: z.number().int(),
  status: z.string(),
  templateId: z.number().int(),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  qrCodeUrl: z.string().nullable(),
  profileId: z.string().nullable(),
  reviewNotes: z.string().nullable(),
  reviewedAt: dateTime.nullable(),
  /** approved despite a failing print check: the reason staff gave (as the design history keeps it) */
  printOverride: z.string().nullable(),
});
export type AdminOrderDesign = z.infer<typeof AdminOrderDesign>;

/** How the order left the floor (issue 22): a carrier and tracking number, or a pickup code. */
export const AdminOrderShipment = z.strictObject({
  carrier: z.string().nullable(),
  carrierLabel: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  shippedAt: dateTime.nullable(),
  pickupCode: z.string().nullable(),
  pickupReadyAt: dateTime.nullable(),
});
export type AdminOrderShipment = z.infer<typeof AdminOrderShipment>;

export const OrderPaymentEntry = z.strictObject({
  id: z.number().int(),
  kind: z.enum(PAYMENT_KINDS),
  amountCents: z.number().int().positive(),
  currency: z.string(),
  method: z.string(),
  reference: z.string().nullable(),
  /** staff | store */
  source: z.string(),
  recordedBy: z.string(),
  createdAt: dateTime,
});
export type OrderPaymentEntry = z.infer<typeof OrderPaymentEntry>;

/** The order's payment state, from its payments and refunds (decision 35-01). */
export const OrderPayment = z.strictObject({
  status: z.enum(PAYMENT_STATUSES),
  /** money received, before refunds */
  paidCents: z.number().int().nonnegative(),
  refundedCents: z.number().int().nonnegative(),
  /** what is still owed while unpaid: the order's total less the money kept (0 otherwise) */
  balanceCents: z.number().int().nonnegative(),
  currency: z.string(),
  /** the latest payment's method and reference (null before any) */
  method: z.string().nullable(),
  reference: z.string().nullable(),
  /** invoice: staff record payments; store: the online store's checkout */
  mode: z.enum(['invoice', 'store']),
  /** what the online store collected (null fields when it did not say) */
  store: z
    .strictObject({
      orderId: z.string(),
      orderName: z.string().nullable(),
      totalCents: z.number().int().nullable(),
      taxCents: z.number().int().nullable(),
      shippingAddress: z.record(z.string(), z.unknown()).nullable(),
      cancelledAt: dateTime.nullable(),
    })
    .nullable(),
  entries: z.array(OrderPaymentEntry),
});
export type OrderPayment = z.infer<typeof OrderPayment>;

export const AdminOrderGetResponse = AdminOrder.extend({
  internalNotes: z.string(),
  unitPriceCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  history: z.array(OrderHistoryEntry),
  notes: z.array(OrderNoteEntry),
  design: AdminOrderDesign.nullable(),
  shipment: AdminOrderShipment.nullable(),
  /** where the cards go (issue 35); null for pickup and for orders placed before it was asked */
  shippingAddress: ShippingAddressView.nullable(),
  payment: OrderPayment,
  /**
   * What the status machine knows of the order (decision 35-04): the staff screen offers the moves
   * `offeredMoves(workflow.facts)` (shared/orders/status-machine) allows, as the server does.
   */
  workflow: z.strictObject({
    facts: z.strictObject({
      status: z.string(),
      deliveryOption: z.string(),
      designApproved: z.boolean(),
      proofApproved: z.boolean(),
      hasAddress: z.boolean(),
      paid: z.boolean(),
      hasTracking: z.boolean(),
    }),
    /** the customer's proof: none (no approved design yet), awaiting their answer, approved, or changes asked (with their message) */
    proof: z.strictObject({
      state: z.enum(['none', 'awaiting', 'approved', 'changes']),
      message: z.string().nullable(),
      /** with changes asked: the cards the customer named (every card when they named none; issue 37, decision 37-04) */
      cards: z.array(z.strictObject({ id: z.number().int(), name: z.string() })).optional(),
    }),
  }),
});
export type AdminOrderDetail = z.infer<typeof AdminOrderGetResponse>;

/** PATCH /api/admin/orders/{id}: the order, and whether the status really changed. */
export const AdminOrderUpdateResponse = AdminOrderGetResponse.extend({ changed: z.boolean() });

export const CardTypePopularity = z.strictObject({ cardType: z.string(), label: z.string(), orders: z.number().int(), cards: z.number().int() });
export type CardTypePopularity = z.infer<typeof CardTypePopularity>;

export const AdminStatsGetResponse = z.strictObject({
  totalOrders: z.number().int(),
  pendingOrders: z.number().int(),
  completedOrders: z.number().int(),
  cancelledOrders: z.number().int(),
  /** dollars (2 decimals): money received less money refunded, over every order (issue 35: only paid money counts) */
  totalRevenue: z.number(),
  totalRevenueCents: z.number().int(),
  /** money handed back (refunds), in cents; already taken off totalRevenueCents */
  refundedRevenueCents: z.number().int(),
  /** orders whose payment status is paid or partially refunded */
  paidOrders: z.number().int(),
  /** the value of orders still pending (not yet paid or confirmed), shown apart from revenue */
  pendingRevenue: z.number(),
  pendingRevenueCents: z.number().int(),
  /** completed / orders that are not pending (0..1); null when every order is still pending */
  successRate: z.number().min(0).max(1).nullable(),
  cardTypePopularity: z.array(CardTypePopularity),
  recentOrders: z.array(AdminOrder),
});
export type AdminStats = z.infer<typeof AdminStatsGetResponse>;

export const AdminCustomer = z.strictObject({
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  orderCount: z.number().int(),
  totalCents: z.number().int(),
  lastOrderAt: dateTime,
  /** the account with this address: verified or not (issue 19); null when there is no account */
  emailVerified: z.boolean().nullable(),
  orders: z.array(
    z.strictObject({ id: z.number().int(), status: z.string(), createdAt: dateTime, totalCents: z.number().int(), quantity: z.number().int(), cardType: z.string() }),
  ),
});
export type AdminCustomer = z.infer<typeof AdminCustomer>;
export const AdminCustomerListResponse = pageOf('customers', AdminCustomer);
export type AdminCustomerPage = { customers: AdminCustomer[]; total: number; page: number; pageSize: number };

/** off: not configured (a supported mode, e.g. no SMTP), not a fault */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'off', 'unknown'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export const SystemCheck = z.strictObject({
  id: z.enum(['database', 'email', 'storage', 'store', 'outbox', 'links']),
  label: z.string(),
  status: z.enum(CHECK_STATUSES),
  detail: z.string(),
  ms: z.number().optional(),
});
export type SystemCheck = z.infer<typeof SystemCheck>;

export const AdminLinkCheckResponse = z.strictObject({
  id: z.number().int(),
  checkedAt: dateTime,
  totalPages: z.number().int(),
  okPages: z.number().int(),
  /** percent, one decimal */
  successRate: z.number(),
  broken: z.array(z.strictObject({ url: z.string(), status: z.number().int(), from: z.string().optional() })),
});
export type LinkCheckResult = z.infer<typeof AdminLinkCheckResponse>;

const OutboxCounts = z.strictObject({ pending: z.number().int(), sent: z.number().int(), failed: z.number().int() });

export const AdminTestingSummaryResponse = z.strictObject({
  systemHealth: z.string().describe('Healthy, Degraded, Failing or Unknown'),
  /** time of the last link check of the site's pages, or 'Unknown' */
  lastUpdated: z.string(),
  checkedAt: dateTime,
  checks: z.array(SystemCheck),
  linkCheck: AdminLinkCheckResponse.nullable(),
  outbox: OutboxCounts,
});
export type TestingSummary = z.infer<typeof AdminTestingSummaryResponse>;

export const OutboxEmailSummary = z.strictObject({
  id: z.number().int(),
  /** the order the e-mail is about, if any */
  orderId: z.number().int().nullable(),
  kind: z.string(),
  toAddress: z.string(),
  subject: z.string(),
  status: z.string().describe(`one of ${OUTBOX_STATUSES.join(', ')}`),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: dateTime,
  sentAt: dateTime.nullable(),
});
export type OutboxEmailSummary = z.infer<typeof OutboxEmailSummary>;

export const AdminOutboxEmailResponse = OutboxEmailSummary.extend({ textBody: z.string(), htmlBody: z.string() });
export type OutboxEmail = z.infer<typeof AdminOutboxEmailResponse>;

export const AdminOutboxListResponse = z.strictObject({
  emails: z.array(OutboxEmailSummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  counts: OutboxCounts,
  smtpConfigured: z.boolean(),
});
export type OutboxPage = z.infer<typeof AdminOutboxListResponse>;

/** POST bodies of the staff actions that take none (link check, outbox retry): nothing, or `{}`. */
export const AdminEmptyBody = z.strictObject({}).nullish();

// ---- the first admin's to-do (issue 37, decision 37-02) ----

/** An order placed while no admin account existed, not yet marked seen by staff. */
export const AdminTodoOrder = z.strictObject({
  id: z.number().int(),
  customerName: z.string(),
  email: z.string(),
  status: z.string(),
  quantity: z.number().int(),
  cardType: z.string(),
  cardTypeLabel: z.string(),
  cardStyle: z.string(),
  totalCents: z.number().int(),
  createdAt: dateTime,
});
export type AdminTodoOrder = z.infer<typeof AdminTodoOrder>;

/** GET /api/admin/todo: the oldest first (at most 100 shown; `total` counts them all). */
export const AdminTodoResponse = z.strictObject({
  ordersWithoutStaff: z.array(AdminTodoOrder),
  total: z.number().int().nonnegative(),
});
export type AdminTodo = z.infer<typeof AdminTodoResponse>;

export const ADMIN_TODO_SEEN_MAX = 100;
/** POST /api/admin/todo/seen: the orders staff have looked at (they leave the to-do). */
export const AdminTodoSeenBody = z.strictObject({
  orderIds: z
    .array(z.number({ error: 'Order ids must be numbers' }).int('Order ids must be whole numbers').positive('Order ids must be positive').max(2_147_483_647, 'Order id is too large'), {
      error: 'Order ids must be a list of order numbers',
    })
    .min(1, 'Name at least one order')
    .max(ADMIN_TODO_SEEN_MAX, `At most ${ADMIN_TODO_SEEN_MAX} orders at a time`),
});
export const AdminTodoSeenResponse = z.strictObject({ seen: z.number().int().nonnegative() });
