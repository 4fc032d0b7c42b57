import { z } from 'zod';
import { ORDER_STATUSES } from '#shared/catalogue';
import { isoDateTime, multiLine, singleLine, textDocument } from './common';
import { PRINT_OVERRIDE_REASON_MAX } from './print';

/** Contracts of the staff area (`/api/admin/*`). The server validates with them; the admin screens use the types. */

export const ADMIN_NOTES_MAX = 5000;
export const ADMIN_REVIEW_NOTES_MAX = 1000;
export const ADMIN_SEARCH_MAX = 200;
export const ADMIN_PAGE_SIZE_DEFAULT = 25;
export const ADMIN_PAGE_SIZE_MAX = 100;
/** how many rows one CSV export may hold */
export const ADMIN_EXPORT_MAX_ROWS = 100_000;
export const RECENT_ORDERS_SHOWN = 5;

/** Polling intervals (spec: stats 60 s, pending reviews 60 s, testing summary 300 s). */
export const ADMIN_POLL_MS = { stats: 60_000, pendingReviews: 60_000, testingSummary: 300_000 } as const;

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

export const AdminOrderUpdateBody = z.strictObject({ status: OrderStatusField });

export const AdminOrderNotesSaveBody = z.strictObject({
  notes: z.string({ error: 'Notes must be text' }).pipe(multiLine(ADMIN_NOTES_MAX, 'Notes')),
});

const printOverrideReason = z
  .string({ error: 'The override reason must be text' })
  .trim()
  .max(PRINT_OVERRIDE_REASON_MAX, `The override reason can be at most ${PRINT_OVERRIDE_REASON_MAX} characters`)
  .optional();

export const DESIGN_REVIEW_STATUSES = ['approved', 'rejected'] as const;
export const AdminDesignReviewBody = z.strictObject({
  status: z.enum(DESIGN_REVIEW_STATUSES, { error: 'Status must be approved or rejected' }),
  reviewNotes: z
    .string({ error: 'Review notes must be text' })
    .pipe(multiLine(ADMIN_REVIEW_NOTES_MAX, 'Review notes'))
    .optional()
    .default(''),
  /** approving while the print check fails needs a reason (issue 22; kept in the order's design history) */
  overrideReason: printOverrideReason,
});
export type ReviewDesignInput = z.input<typeof AdminDesignReviewBody>;

export const AdminCustomerListQuery = z.strictObject({ q: search, page, pageSize });

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export const AdminOutboxListQuery = z.strictObject({
  status: z
    .union([z.literal(''), z.literal('all'), z.enum(OUTBOX_STATUSES)], { error: 'Status must be pending, sent or failed' })
    .optional()
    .transform((v) => (v === '' || v === 'all' ? undefined : v)),
  page,
  pageSize,
});

// ---- answers ----

const dateTime = isoDateTime;
const pageOf = <T extends z.ZodType>(key: string, item: T) =>
  z.strictObject({ [key]: z.array(item), total: z.number().int().nonnegative(), page: z.number().int().positive(), pageSize: z.number().int().positive() });

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

export const AdminOrderGetResponse = AdminOrder.extend({
  internalNotes: z.string(),
  unitPriceCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  history: z.array(OrderHistoryEntry),
  notes: z.array(OrderNoteEntry),
  design: AdminOrderDesign.nullable(),
  shipment: AdminOrderShipment.nullable(),
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
  /** dollars (2 decimals) from the price snapshots of paid or confirmed orders (past pending, not cancelled) */
  totalRevenue: z.number(),
  totalRevenueCents: z.number().int(),
  /** the value of orders still pending (not yet paid or confirmed), shown apart from revenue */
  pendingRevenue: z.number(),
  pendingRevenueCents: z.number().int(),
  /** completed / orders that are not pending (0..1); null when every order is still pending */
  successRate: z.number().min(0).max(1).nullable(),
  cardTypePopularity: z.array(CardTypePopularity),
  recentOrders: z.array(AdminOrder),
});
export type AdminStats = z.infer<typeof AdminStatsGetResponse>;

export const PendingDesign = z.strictObject({
  id: z.number().int(),
  profile: z.strictObject({ fullName: z.string(), email: z.string(), jobTitle: z.string() }),
  createdAt: dateTime,
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  templateId: z.number().int(),
  /** the URL the card's QR code should open (the owner's public profile) */
  qrCodeUrl: z.string().nullable(),
  profileId: z.string().nullable(),
  orderId: z.number().int().nullable(),
  cardType: z.string(),
  /** a team order's cards are reviewed as one batch (issue 21): approve all, or reject one with a reason */
  batch: z.strictObject({ orderId: z.number().int(), teamName: z.string(), size: z.number().int() }).nullable(),
});
export type PendingDesign = z.infer<typeof PendingDesign>;

/** POST /api/admin/business-cards/batches/{orderId}/approve: every pending card of a team order. */
export const AdminDesignBatchParams = z.strictObject({ orderId: z.coerce.number().int().positive().max(2_147_483_647) });
/** Optional: approving while a card's print check fails needs a reason (issue 22). */
export const AdminDesignBatchApproveBody = z.strictObject({ overrideReason: printOverrideReason }).nullish();
export const AdminDesignBatchApproveResponse = z.strictObject({ orderId: z.number().int(), approved: z.number().int() });
export type DesignBatchApproved = z.infer<typeof AdminDesignBatchApproveResponse>;
export const AdminDesignPendingListResponse = z.array(PendingDesign);

export const AdminDesignReviewResponse = z.strictObject({
  id: z.number().int(),
  status: z.enum(DESIGN_REVIEW_STATUSES),
  reviewNotes: z.string(),
  reviewedAt: dateTime,
  orderId: z.number().int().nullable(),
});
export type DesignReviewResult = z.infer<typeof AdminDesignReviewResponse>;

export const AdminDesignScanCheckResponse = z.strictObject({
  designId: z.number().int(),
  status: z.enum(['pass', 'fail']),
  /** the owner's public profile URL the code must open */
  expectedUrl: z.string().nullable(),
  /** what the QR code in the rendered back decodes to (null when nothing decodes) */
  decodedText: z.string().nullable(),
  message: z.string(),
});
export type ScanCheck = z.infer<typeof AdminDesignScanCheckResponse>;

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
