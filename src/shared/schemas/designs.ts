import { z } from 'zod';
import { CARD_STYLES, CARD_TYPE_IDS, DEFAULT_CARD_TYPE, DEFAULT_TEMPLATE_ID, DELIVERY_OPTION_IDS, QUANTITY_DEFAULT } from '#shared/catalogue';
import { DESIGN_EMAIL_RE, DESIGN_MESSAGES } from '#shared/templates/messages';
import { isoDateTime, multiLine } from './common';
import { IDEMPOTENCY_KEY_RE, ShippingAddress, quantityField, withShippingAddressRule } from './orders';
import { PRINT_OVERRIDE_REASON_MAX } from './print';
import { CardLookInput, fileUrl, optText, optUrl, templateIdField, text } from './templates';

/**
 * Contracts of a card design's life (issue 34): the customer sends a design for review
 * (POST /api/cards/submit-for-review), reopens and resubmits one that needs changes
 * (GET /api/cards/{id}/design, POST /api/cards/{id}/resubmit); staff review it
 * (/api/admin/business-cards/*: the queue, the scan check, approve or reject, a team order's batch).
 * The card fields and the look come from the templates' contracts. The design events' kinds are
 * the order timeline's vocabulary (`DESIGN_EVENT_KINDS` in `./orders`).
 */

const dateTime = isoDateTime;
const orderIdField = z.coerce.number({ error: 'Order not found' }).int('Order not found').positive('Order not found').max(2_147_483_647, 'Order not found');

// ---- the customer's side: submit, reopen, resubmit (issue 20) ----

/** The design form: name, e-mail and phone required (spec messages). */
export const DesignProfile = z.strictObject({
  fullName: text(100, 'Name').pipe(z.string().min(1, DESIGN_MESSAGES.missing)),
  jobTitle: optText(100, 'Job title'),
  companyName: optText(120, 'Company'),
  email: text(254, 'Email').pipe(z.string().min(1, DESIGN_MESSAGES.missing).regex(DESIGN_EMAIL_RE, DESIGN_MESSAGES.invalidEmail)),
  phoneNumber: text(40, 'Phone').pipe(z.string().min(1, DESIGN_MESSAGES.missing)),
  address: optText(300, 'Address'),
  website: optUrl,
  linkedinUrl: optUrl,
  logoUrl: fileUrl,
});

const DesignSubmitFields = z.strictObject({
  templateId: templateIdField.default(DEFAULT_TEMPLATE_ID),
  look: CardLookInput.optional(),
  cardType: z.enum(CARD_TYPE_IDS, { error: 'Please choose a card type' }).default(DEFAULT_CARD_TYPE),
  customerProfile: DesignProfile,
  submittedAt: z.iso.datetime({ offset: true, error: 'submittedAt must be an ISO date and time' }).optional(),
  quantity: quantityField.default(QUANTITY_DEFAULT),
  deliveryOption: z.enum(DELIVERY_OPTION_IDS, { error: 'Select a delivery option' }).default('standard'),
  cardStyle: z.enum(CARD_STYLES, { error: 'Select a card style' }).default('Matte'),
  /** made once per filled-in form: a retried submit answers the same order */
  clientToken: z.string().regex(IDEMPOTENCY_KEY_RE, 'Invalid client token').optional(),
  /**
   * the caller's order this design is for (issue 35): attached to it, no order is created; its
   * card type, quantity and delivery are the order's (the fields above are then not used)
   */
  orderId: orderIdField.optional(),
  /**
   * a new order from the checkout: where the cards go, required (as by POST /api/order) unless the
   * delivery is pickup; unused with `orderId`, dropped for pickup
   */
  shippingAddress: ShippingAddress.optional(),
});
/** Without `orderId` the submit is the checkout's new order: its address rule is POST /api/order's (issue 35). */
export const DesignSubmitBody = withShippingAddressRule(DesignSubmitFields, (v) => v.orderId === undefined);
export type SubmitForReviewInput = z.input<typeof DesignSubmitBody>;

/** Answers of the submit with `orderId` that refuse it (409). */
export const DESIGN_ORDER_MESSAGES = {
  notFound: 'Order not found',
  approved: 'The design of this order is already approved: it can no longer be changed. Contact us if something is wrong.',
  locked: 'This order is already in production or has left the studio: its design can no longer be changed.',
  cancelled: 'This order was cancelled: it takes no design.',
  team: "A team order's cards are designed from the team's members: open it in your team workspace.",
  noDesign: 'This order has no approved design to repeat. Design its card first, or place a new order.',
} as const;

/**
 * POST /api/orders/reorder: the approved design of the caller's order `orderId` again, as a new order
 * (issue 35). The order is in the body: a path `/api/orders/{id}/reorder` would be ambiguous with
 * `/api/orders/claim/{token}` in the OpenAPI document.
 */
export const OrderReorderBody = z.strictObject({
  orderId: orderIdField,
  quantity: quantityField.optional(),
  deliveryOption: z.enum(DELIVERY_OPTION_IDS, { error: 'Select a delivery option' }).optional(),
  /** where the cards go; the repeated order's address when left out (dropped for pickup) */
  shippingAddress: ShippingAddress.optional(),
  /** made once per confirm: a retried reorder answers the same new order */
  clientToken: z.string().regex(IDEMPOTENCY_KEY_RE, 'Invalid client token').optional(),
});
export const OrderReorderResponse = z.strictObject({
  orderId: z.number().int(),
  cardId: z.number().int(),
  /** the design's review state on the new order: `approved` (a repeat of an approved design) */
  designStatus: z.string(),
  totalCents: z.number().int(),
  statusPath: z.string(),
  checkoutUrl: z.string().nullable(),
});
export type OrderReorderResult = z.infer<typeof OrderReorderResponse>;
export type OrderReorderInput = z.input<typeof OrderReorderBody>;

/** POST /api/cards/submit-for-review: 201 for a new order, 200 when a retry answers the same one. */
export const DesignSubmitResponse = z.strictObject({
  orderId: z.number().int(),
  cardId: z.number().int(),
  status: z.string(),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  qrCodeUrl: z.string().nullable(),
});
export type SubmitForReviewResult = z.infer<typeof DesignSubmitResponse>;

export const DesignCardParams = z.strictObject({
  id: z.coerce.number({ error: 'Design not found' }).int('Design not found').positive('Design not found').max(2_147_483_647, 'Design not found'),
});

/** GET /api/cards/{id}/design: the owner's design as the designer needs it to reopen. */
export const DesignForEditResponse = z.strictObject({
  cardId: z.number().int(),
  orderId: z.number().int().nullable(),
  templateId: z.number().int(),
  cardType: z.enum(CARD_TYPE_IDS),
  customerProfile: z.record(z.string(), z.string()),
  look: CardLookInput.nullable(),
  /** pending | approved | rejected */
  status: z.string(),
  reason: z.string().nullable(),
  /** it needs changes and its order is still open */
  canResubmit: z.boolean(),
});
export type DesignForEdit = z.infer<typeof DesignForEditResponse>;

/** POST /api/cards/{id}/resubmit: the edited design, for the same card and order (card type stays the order's). */
export const DesignResubmitBody = z.strictObject({
  templateId: templateIdField,
  customerProfile: DesignProfile,
  look: CardLookInput.optional(),
});
export type DesignResubmitInput = z.input<typeof DesignResubmitBody>;

export const DesignResubmitResponse = DesignSubmitResponse.extend({
  /** the order's own page */
  statusPath: z.string(),
});
export type DesignResubmitResult = z.infer<typeof DesignResubmitResponse>;

// ---- the staff review (issues 20-22): queue, scan check, approve or reject, team batches ----

export const ADMIN_REVIEW_NOTES_MAX = 1000;

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
  /** the order the design belongs to (a team order's own values): number, metal, finish, quantity (issue 37) */
  order: z
    .strictObject({ id: z.number().int(), quantity: z.number().int(), cardType: z.string(), cardTypeLabel: z.string(), cardStyle: z.string() })
    .nullable(),
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
