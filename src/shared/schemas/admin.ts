import { z } from 'zod';
import { ORDER_STATUSES, type OrderStatus } from '../catalogue';
import { multiLine, singleLine } from './common';

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

export const AdminOrdersQuery = z.strictObject({ q: search, status: statusFilter, page, pageSize });
export type AdminOrdersQueryInput = z.input<typeof AdminOrdersQuery>;

export const AdminOrdersExportQuery = z.strictObject({ q: search, status: statusFilter });

export const UpdateOrderStatusBody = z.strictObject({ status: OrderStatusField });
export type UpdateOrderStatusInput = z.infer<typeof UpdateOrderStatusBody>;

export const OrderNotesBody = z.strictObject({
  notes: z.string({ error: 'Notes must be text' }).pipe(multiLine(ADMIN_NOTES_MAX, 'Notes')),
});
export type OrderNotesInput = z.infer<typeof OrderNotesBody>;

export const DESIGN_REVIEW_STATUSES = ['approved', 'rejected'] as const;
export const ReviewDesignBody = z.strictObject({
  status: z.enum(DESIGN_REVIEW_STATUSES, { error: 'Status must be approved or rejected' }),
  reviewNotes: z
    .string({ error: 'Review notes must be text' })
    .pipe(multiLine(ADMIN_REVIEW_NOTES_MAX, 'Review notes'))
    .optional()
    .default(''),
});
export type ReviewDesignInput = z.input<typeof ReviewDesignBody>;

export const AdminCustomersQuery = z.strictObject({ q: search, page, pageSize });

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export const AdminOutboxQuery = z.strictObject({
  status: z
    .union([z.literal(''), z.literal('all'), z.enum(OUTBOX_STATUSES)], { error: 'Status must be pending, sent or failed' })
    .optional()
    .transform((v) => (v === '' || v === 'all' ? undefined : v)),
  page,
  pageSize,
});

// ---- answers ----

export interface AdminOrder {
  id: number;
  status: OrderStatus | string;
  customerName: string;
  email: string;
  phone: string | null;
  /** the spec's admin list calls it `company`, the store-side order `companyName`: both are sent */
  company: string | null;
  companyName: string | null;
  position: string | null;
  jobTitle: string | null;
  address: string | null;
  quantity: number;
  cardType: string;
  cardTypeLabel: string;
  cardStyle: string;
  deliveryOption: string;
  deliveryLabel: string;
  specialRequests: string | null;
  /** total in dollars from the order's price snapshot */
  amount: number;
  totalCents: number;
  currency: string;
  templateId: number | null;
  /** the customer's uploaded artwork (or logo), if any */
  logoUrl: string | null;
  cardId: number | null;
  /** a real image of the order's design: the designed card's front, else the uploaded artwork */
  previewUrl: string | null;
  source: string;
  userId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AdminOrderPage {
  orders: AdminOrder[];
  total: number;
  page: number;
  pageSize: number;
}

export interface OrderHistoryEntry {
  id: number;
  fromStatus: string | null;
  toStatus: string;
  changedBy: string;
  createdAt: string;
}

export interface OrderNoteEntry {
  id: number;
  body: string;
  author: string;
  createdAt: string;
}

export interface AdminOrderDesign {
  id: number;
  status: string;
  templateId: number;
  frontImageUrl: string | null;
  backImageUrl: string | null;
  qrCodeUrl: string | null;
  profileId: string | null;
  reviewNotes: string | null;
  reviewedAt: string | null;
}

export interface AdminOrderDetail extends AdminOrder {
  internalNotes: string;
  unitPriceCents: number;
  deliveryFeeCents: number;
  history: OrderHistoryEntry[];
  notes: OrderNoteEntry[];
  design: AdminOrderDesign | null;
}

export interface CardTypePopularity {
  cardType: string;
  label: string;
  orders: number;
  cards: number;
}

export interface AdminStats {
  totalOrders: number;
  pendingOrders: number;
  completedOrders: number;
  cancelledOrders: number;
  /** dollars (2 decimals) from the orders' price snapshots; cancelled orders excluded */
  totalRevenue: number;
  totalRevenueCents: number;
  /** completed / orders that are not pending (0..1); null when every order is still pending */
  successRate: number | null;
  cardTypePopularity: CardTypePopularity[];
  recentOrders: AdminOrder[];
}

export interface PendingDesign {
  id: number;
  profile: { fullName: string; email: string; jobTitle: string };
  createdAt: string;
  frontImageUrl: string | null;
  backImageUrl: string | null;
  templateId: number;
  /** the URL the card's QR code should open (the owner's public profile) */
  qrCodeUrl: string | null;
  profileId: string | null;
  orderId: number | null;
  cardType: string;
}

export interface DesignReviewResult {
  id: number;
  status: 'approved' | 'rejected';
  reviewNotes: string;
  reviewedAt: string;
  orderId: number | null;
}

export interface ScanCheck {
  designId: number;
  status: 'pass' | 'fail';
  /** the owner's public profile URL the code must open */
  expectedUrl: string | null;
  /** what the QR code in the rendered back decodes to (null when nothing decodes) */
  decodedText: string | null;
  message: string;
}

export interface AdminCustomer {
  email: string;
  name: string;
  phone: string | null;
  company: string | null;
  orderCount: number;
  totalCents: number;
  lastOrderAt: string;
  orders: Array<{ id: number; status: string; createdAt: string; totalCents: number; quantity: number; cardType: string }>;
}

export interface AdminCustomerPage {
  customers: AdminCustomer[];
  total: number;
  page: number;
  pageSize: number;
}

/** off: not configured (a supported mode, e.g. no SMTP), not a fault */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'off' | 'unknown';

export interface SystemCheck {
  id: 'database' | 'email' | 'storage' | 'store' | 'outbox' | 'links';
  label: string;
  status: CheckStatus;
  detail: string;
  ms?: number;
}

export interface LinkCheckResult {
  id: number;
  checkedAt: string;
  totalPages: number;
  okPages: number;
  /** percent, one decimal */
  successRate: number;
  broken: Array<{ url: string; status: number; from?: string }>;
}

export interface TestingSummary {
  /** Healthy | Degraded | Failing | Unknown */
  systemHealth: string;
  /** time of the last link check of the site's pages, or 'Unknown' */
  lastUpdated: string;
  checkedAt: string;
  checks: SystemCheck[];
  linkCheck: LinkCheckResult | null;
  outbox: { pending: number; sent: number; failed: number };
}

export interface OutboxEmailSummary {
  id: number;
  kind: string;
  toAddress: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface OutboxEmail extends OutboxEmailSummary {
  textBody: string;
  htmlBody: string;
}

export interface OutboxPage {
  emails: OutboxEmailSummary[];
  total: number;
  page: number;
  pageSize: number;
  counts: { pending: number; sent: number; failed: number };
  smtpConfigured: boolean;
}
