import { z } from 'zod';
import { emailField, isoDateTime, multiLine, singleLine } from './common';

/** Limits of the review form (the spec gives the minimums; the maximums are ours). */
export const REVIEW_LIMITS = {
  nameMin: 2,
  nameMax: 100,
  titleMin: 5,
  titleMax: 120,
  commentMin: 10,
  commentMax: 2000,
  orderNumberMax: 40,
  ratingMin: 1,
  ratingMax: 5,
  ratingDefault: 5,
} as const;

export const REVIEW_MESSAGES = {
  name: 'Name must be at least 2 characters',
  email: 'Please enter a valid email address',
  rating: 'Rating must be a whole number from 1 to 5',
  title: 'Title must be at least 5 characters',
  comment: 'Review must be at least 10 characters',
  orderNumber: 'Order number should look like #123',
} as const;

/** An order number as customers write it: "123" or "#123" (the numeric order id). */
export const ORDER_NUMBER_RE = /^#?\s*(\d{1,10})$/;

/** The numeric order id inside an order number, or null when it is not one. */
export function parseOrderNumber(value: string | null | undefined): number | null {
  if (!value) return null;
  const m = ORDER_NUMBER_RE.exec(value.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

const rating = z
  .number({ error: REVIEW_MESSAGES.rating })
  .int(REVIEW_MESSAGES.rating)
  .min(REVIEW_LIMITS.ratingMin, REVIEW_MESSAGES.rating)
  .max(REVIEW_LIMITS.ratingMax, REVIEW_MESSAGES.rating);

/**
 * POST /api/reviews. The order number is optional (empty means none); when given it must be an
 * order number ("123" or "#123") so a typo is caught in the form rather than silently unverified.
 */
export const ReviewCreateBody = z.strictObject({
  customerName: singleLine(REVIEW_LIMITS.nameMax, 'Name').pipe(z.string().min(REVIEW_LIMITS.nameMin, REVIEW_MESSAGES.name)),
  email: emailField(REVIEW_MESSAGES.email),
  rating: rating.default(REVIEW_LIMITS.ratingDefault),
  title: singleLine(REVIEW_LIMITS.titleMax, 'Title').pipe(z.string().min(REVIEW_LIMITS.titleMin, REVIEW_MESSAGES.title)),
  comment: multiLine(REVIEW_LIMITS.commentMax, 'Review').pipe(z.string().min(REVIEW_LIMITS.commentMin, REVIEW_MESSAGES.comment)),
  orderNumber: singleLine(REVIEW_LIMITS.orderNumberMax, 'Order number')
    .nullable()
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || parseOrderNumber(v) !== null, REVIEW_MESSAGES.orderNumber),
  /**
   * The order status link's token (/order-status/{token}): the proof that verifies the review at once
   * (issue 19). Without it, or without being the signed-in owner of the order, a review waits for staff.
   */
  orderToken: z
    .string()
    .max(200, REVIEW_MESSAGES.orderNumber)
    .regex(/^[A-Za-z0-9_-]*$/, REVIEW_MESSAGES.orderNumber)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
});
export type CreateReviewInput = z.input<typeof ReviewCreateBody>;

/** A published review as anyone may see it: never the reviewer's e-mail or order number. */
export const PublicReview = z.strictObject({
  id: z.number().int(),
  customerName: z.string(),
  rating: z.number().int().min(REVIEW_LIMITS.ratingMin).max(REVIEW_LIMITS.ratingMax),
  title: z.string(),
  comment: z.string(),
  verified: z.boolean(),
  /** how it was verified: a proven purchase ("Verified purchase") or by staff ("Approved by staff") */
  verification: z.enum(['purchase', 'staff']).nullable(),
  createdAt: isoDateTime,
});
export type PublicReview = z.infer<typeof PublicReview>;
export const ReviewListResponse = z.array(PublicReview);

export const ReviewSummaryGetResponse = z.strictObject({
  /** average over published reviews, rounded to one decimal; 0 when there are none */
  average: z.number().min(0).max(REVIEW_LIMITS.ratingMax),
  count: z.number().int().nonnegative(),
});
export type ReviewSummary = z.infer<typeof ReviewSummaryGetResponse>;

/** POST /api/reviews: 201 for a new review, 200 when the same review was already sent. */
export const ReviewCreateResponse = z.strictObject({
  review: PublicReview,
  /** true when the order number and e-mail matched a real order (published at once) */
  published: z.boolean(),
  message: z.string(),
});
export type CreateReviewResult = z.infer<typeof ReviewCreateResponse>;

/** A review as staff see it (listed, and answered by PATCH). */
export const AdminReviewResponse = PublicReview.extend({
  email: z.string(),
  orderNumber: z.string().nullable(),
  hidden: z.boolean(),
  published: z.boolean(),
  verifiedAt: isoDateTime.nullable(),
  verifiedBy: z.string().nullable(),
  /** the order the order number and e-mail match, if any */
  matchedOrderId: z.number().int().nullable(),
});
export type AdminReview = z.infer<typeof AdminReviewResponse>;
export const AdminReviewListResponse = z.array(AdminReviewResponse);

export const ADMIN_REVIEW_FILTERS = ['all', 'pending', 'published', 'hidden'] as const;
export type AdminReviewFilter = (typeof ADMIN_REVIEW_FILTERS)[number];

export const AdminReviewListQuery = z.strictObject({
  status: z.enum(ADMIN_REVIEW_FILTERS, { error: `Status must be one of ${ADMIN_REVIEW_FILTERS.join(', ')}` }).optional().default('all'),
});

export const AdminReviewUpdateBody = z
  .strictObject({
    verified: z.boolean({ error: 'verified must be true or false' }).optional(),
    hidden: z.boolean({ error: 'hidden must be true or false' }).optional(),
  })
  .refine((v) => v.verified !== undefined || v.hidden !== undefined, { message: 'Nothing to change: send verified and/or hidden' });
export type UpdateReviewInput = z.infer<typeof AdminReviewUpdateBody>;

export const PUBLISHED_MESSAGE = 'Thank you! Your review is verified and now published.';
export const PENDING_MESSAGE = 'Thank you! Your review will appear once it has been verified.';
