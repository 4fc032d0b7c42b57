import { z } from 'zod';
import { CARD_TYPE_IDS, ORDER_STATUSES } from '#shared/catalogue';
import { CARRIER_IDS, TRACKING_MESSAGES, trackingNumberError } from '#shared/production/tracking';
import { binaryFile, isoDateTime, textDocument } from './common';

/** Most orders one export ZIP takes (the bench makes one of 500 cards). */
export const PRODUCTION_EXPORT_MAX_ORDERS = 500;

export const PRODUCTION_MESSAGES = {
  orderIds: 'Choose at least one order',
  tooMany: `At most ${PRODUCTION_EXPORT_MAX_ORDERS} orders per download`,
  rows: 'Rows: a whole number from 1 to 20',
  columns: 'Columns: a whole number from 1 to 20',
  gapMm: 'Gap: 0 to 50 mm',
} as const;

/** The statuses the queue filter offers (the approved orders still moving, plus the finished ones). */
export const PRODUCTION_STATUSES = ['pending', 'processing', 'in-production', 'quality-check', 'shipped', 'ready-for-pickup', 'completed'] as const satisfies readonly (typeof ORDER_STATUSES)[number][];

/** GET /api/admin/production: the queue's filters (empty = all). */
export const ProductionQueueQuery = z.strictObject({
  status: z.union([z.literal(''), z.enum(PRODUCTION_STATUSES)], { error: `Status must be one of ${PRODUCTION_STATUSES.join(', ')}` }).default(''),
  cardType: z.union([z.literal(''), z.enum(CARD_TYPE_IDS)], { error: 'Select a card type' }).default(''),
});

export const ProductionFulfilment = z.strictObject({
  carrier: z.string().nullable(),
  carrierLabel: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  shippedAt: isoDateTime.nullable(),
  pickupCode: z.string().nullable(),
  pickupReadyAt: isoDateTime.nullable(),
});
export type ProductionFulfilment = z.infer<typeof ProductionFulfilment>;

/** One order on the floor. */
export const ProductionOrder = z.strictObject({
  id: z.number().int(),
  customerName: z.string(),
  companyName: z.string().nullable(),
  cardType: z.string(),
  cardTypeLabel: z.string(),
  cardStyle: z.string(),
  quantity: z.number().int(),
  deliveryOption: z.string(),
  deliveryLabel: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  /** when the order was approved for production (the due date counts from it) */
  approvedAt: isoDateTime,
  earliestAt: isoDateTime,
  dueAt: isoDateTime,
  overdue: z.boolean(),
  /** the designed cards whose print files the ZIP holds (none: the order's artwork is the print file) */
  cardIds: z.array(z.number().int()),
  hasArtwork: z.boolean(),
  /** the batch codes (`/c/{code}`) its chips and QR codes carry */
  codes: z.array(z.string()),
  fulfilment: ProductionFulfilment.nullable(),
});
export type ProductionOrder = z.infer<typeof ProductionOrder>;

export const ProductionQueueResponse = z.strictObject({ orders: z.array(ProductionOrder), now: isoDateTime });
export type ProductionQueueResponse = z.infer<typeof ProductionQueueResponse>;

/** One chip's payload: the batch code's URL as an NDEF URI record. */
export const NfcPayloadEntry = z.strictObject({
  code: z.string(),
  label: z.string(),
  url: z.string(),
  /** the NDEF message (one URI record), hex */
  recordHex: z.string(),
  /** the TLV-wrapped message with its terminator: what the encoder writes */
  tlvHex: z.string(),
  /** tag memory used, bytes */
  bytes: z.number().int(),
  fitsNtag213: z.boolean(),
  fitsNtag215: z.boolean(),
});
export type NfcPayloadEntry = z.infer<typeof NfcPayloadEntry>;

/** GET /api/admin/orders/{id}/nfc */
export const ProductionNfcResponse = z.strictObject({ orderId: z.number().int(), payloads: z.array(NfcPayloadEntry) });
export type ProductionNfcResponse = z.infer<typeof ProductionNfcResponse>;

/** GET /api/admin/orders/{id}/nfc.csv: code, URL, NDEF hex, bytes (UTF-8, attachment). */
export const ProductionNfcCsvResponse = textDocument('text/csv (attachment)');
/** GET /api/admin/orders/{id}/job-ticket.pdf */
export const ProductionJobTicketResponse = binaryFile('application/pdf');
/** GET /api/admin/orders/{id}/print-files.zip and POST /api/admin/production/export */
export const ProductionZipResponse = binaryFile('application/zip');

const whole = (min: number, max: number, message: string) => z.number({ error: message }).int(message).min(min, message).max(max, message);

/** The optional sheet for a printing jig: cards in rows and columns with gaps, registration marks at the corners. */
export const ProductionSheetLayout = z.strictObject({
  rows: whole(1, 20, PRODUCTION_MESSAGES.rows),
  columns: whole(1, 20, PRODUCTION_MESSAGES.columns),
  gapMm: z.number({ error: PRODUCTION_MESSAGES.gapMm }).min(0, PRODUCTION_MESSAGES.gapMm).max(50, PRODUCTION_MESSAGES.gapMm),
  registrationMarks: z.boolean().default(true),
});
export type ProductionSheetLayout = z.infer<typeof ProductionSheetLayout>;

/** POST /api/admin/production/export: one ZIP of the chosen orders' print files and job tickets. */
export const ProductionExportBody = z.strictObject({
  orderIds: z
    .array(z.number().int().positive().max(2_147_483_647), { error: PRODUCTION_MESSAGES.orderIds })
    .min(1, PRODUCTION_MESSAGES.orderIds)
    .max(PRODUCTION_EXPORT_MAX_ORDERS, PRODUCTION_MESSAGES.tooMany),
  sheet: ProductionSheetLayout.optional(),
});
export type ProductionExportBody = z.input<typeof ProductionExportBody>;

/** POST /api/admin/orders/{id}/shipment */
export const ProductionShipmentBody = z.strictObject({
  carrier: z.enum(CARRIER_IDS, { error: TRACKING_MESSAGES.carrier }),
  trackingNumber: z.string({ error: TRACKING_MESSAGES.required }).trim().min(1, TRACKING_MESSAGES.required).max(40, TRACKING_MESSAGES.required),
}).superRefine((v, ctx) => {
  // the carrier's own format (and UPS's check digit), as a message on the number's field
  const message = trackingNumberError(v.carrier, v.trackingNumber);
  if (message) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message });
});
export type ProductionShipmentBody = z.infer<typeof ProductionShipmentBody>;

/** POST /api/admin/orders/{id}/pickup-ready: nothing, or `{}`. */
export const ProductionPickupReadyBody = z.strictObject({}).nullish();

/** The shipment and pickup actions answer the order as the queue shows it. */
export const ProductionOrderResponse = ProductionOrder.extend({});
