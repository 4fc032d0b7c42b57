import { z } from 'zod';
import { singleLine } from './common';

/**
 * Per-card-batch codes: /c/{code} opens the owner's profile and counts the view as coming from
 * that batch. Codes are permanent (never reused or deleted), case-insensitive, and drawn from an
 * upper-case alphabet so the QR code can carry `HTTPS://HOST/C/CODE` entirely in the compact
 * alphanumeric mode (digits, A-Z and ` $%*+-./:`). Look-alike characters (0 O 1 I L) are left out
 * so a code read aloud or typed from the card is never ambiguous.
 *
 * GET /api/card-codes, POST /api/card-codes, PATCH /api/card-codes/{code}.
 */
export const CARD_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CARD_CODE_LENGTH = 6;
/** manual codes a profile may create besides the automatic one per order */
export const MAX_CARD_CODES = 50;

const CODE_SHAPE = /^[A-Za-z0-9]{4,16}$/;

/** Upper-cased code, or null when it cannot be one of ours. */
export function normalizeCardCode(raw: string): string | null {
  const s = raw.trim();
  return CODE_SHAPE.test(s) ? s.toUpperCase() : null;
}

export function cardCodePath(code: string): string {
  return `/c/${code}`;
}

/**
 * The text put in a batch's QR code. With an origin made only of letters, digits, dots, colons
 * and dashes (every normal host), the whole URL is upper-cased: scheme and host are
 * case-insensitive, and our /C/ route answers like /c/, so the code fits the alphanumeric mode
 * (about 40% fewer modules than byte mode). Other origins keep their case (byte mode).
 */
export function cardCodeQrText(origin: string, code: string): string {
  const o = origin.replace(/\/+$/, '');
  if (/^https?:\/\/[A-Za-z0-9.:-]+$/.test(o)) return `${o}/C/${code}`.toUpperCase();
  return `${o}/c/${code}`;
}

export const CardCodeParam = z.strictObject({
  code: z
    .string()
    .refine((s) => normalizeCardCode(s) !== null, 'Card code not found')
    .transform((s) => normalizeCardCode(s)!),
});

const label = singleLine(60, 'Label');

export const CreateCardCodeBody = z.strictObject({
  label: label.default(''),
  /** the order (card batch) this code is for; it must be one of the caller's orders */
  orderId: z.number({ error: 'Please choose one of your orders' }).int('Please choose one of your orders').positive('Please choose one of your orders').max(2_147_483_647).optional(),
});
export type CreateCardCodeInput = z.input<typeof CreateCardCodeBody>;

export const UpdateCardCodeBody = z
  .strictObject({
    active: z.boolean({ error: 'active must be true or false' }).optional(),
    label: label.optional(),
  })
  .refine((v) => v.active !== undefined || v.label !== undefined, { message: 'Nothing to change', path: ['active'] });
export type UpdateCardCodeInput = z.input<typeof UpdateCardCodeBody>;

/** One batch code as its owner sees it. */
export interface CardCode {
  code: string;
  label: string;
  active: boolean;
  orderId: number | null;
  /** the order's card type and quantity, when the code belongs to an order */
  order: { id: number; quantity: number; cardType: string; status: string; createdAt: string } | null;
  /** absolute short URL (lower case, for people) */
  url: string;
  /** the QR code's text (upper case, alphanumeric mode) */
  qrText: string;
  views: number;
  lastViewAt: string | null;
  createdAt: string;
  deactivatedAt: string | null;
}

/** GET /api/card-codes */
export interface CardCodeList {
  codes: CardCode[];
}
