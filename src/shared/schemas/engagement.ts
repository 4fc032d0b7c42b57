import { z } from 'zod';
import { EmptyResponse, ErrorResponse, isoDate, isoDateTime, multiLine, singleLine, textDocument } from './common';
import { emailOrNull, phoneOrNull } from './profile';

// ---- Engagement analytics ----

/**
 * Save analytics: GET /api/stats/engagement?days=30. Views, contact-file downloads (saves), link
 * clicks and leads per UTC day, the save rate (saves / views), and views split by where they came
 * from: a card batch's code (card), a link shared elsewhere (link) or typed/scanned directly (direct).
 */
export const VISIT_SOURCES = ['card', 'link', 'direct'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];
export const VISIT_SOURCE_LABELS: Record<VisitSource, string> = {
  card: 'Card batch',
  link: 'Shared link',
  direct: 'Direct',
};

export const ENGAGEMENT_DAYS = { min: 7, max: 365, default: 30 } as const;

export const EngagementStatsQuery = z.strictObject({
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(ENGAGEMENT_DAYS.min, `days must be ${ENGAGEMENT_DAYS.min} to ${ENGAGEMENT_DAYS.max}`)
    .max(ENGAGEMENT_DAYS.max, `days must be ${ENGAGEMENT_DAYS.min} to ${ENGAGEMENT_DAYS.max}`)
    .default(ENGAGEMENT_DAYS.default),
});

/** saves / views, 0 when there were no views (a fraction: 0.25 is 25%). */
export function saveRate(saves: number, views: number): number {
  return views > 0 ? Math.round((saves / views) * 10_000) / 10_000 : 0;
}

const count = z.number().int().nonnegative();
/** saves / views as a fraction (0.25 is 25%) */
const rate = z.number().min(0);

export const EngagementDay = z.strictObject({
  date: isoDate,
  views: count,
  saves: count,
  clicks: count,
  leads: count,
  saveRate: rate,
  /** views of the day by source */
  card: count,
  link: count,
  direct: count,
});
export type EngagementDay = z.infer<typeof EngagementDay>;

export const EngagementStatsGetResponse = z.strictObject({
  days: z.number().int(),
  /** first and last UTC date of the range (YYYY-MM-DD) */
  from: isoDate,
  to: isoDate,
  daily: z.array(EngagementDay),
  totals: z.strictObject({ views: count, saves: count, clicks: count, leads: count, saveRate: rate }),
  bySource: z.array(z.strictObject({ source: z.enum(VISIT_SOURCES), label: z.string(), views: count })),
  /** views per card batch code in the range (every code of the profile, busiest first) */
  byCardCode: z.array(z.strictObject({ code: z.string(), label: z.string(), active: z.boolean(), views: count })),
});
export type EngagementStats = z.infer<typeof EngagementStatsGetResponse>;

// ---- Card batch codes ----

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

export const CardCodeUpdateParams = z.strictObject({
  code: z
    .string()
    .refine((s) => normalizeCardCode(s) !== null, 'Card code not found')
    .transform((s) => normalizeCardCode(s)!),
});

const label = singleLine(60, 'Label');

export const CardCodeCreateBody = z.strictObject({
  label: label.default(''),
  /** the order (card batch) this code is for; it must be one of the caller's orders */
  orderId: z.number({ error: 'Please choose one of your orders' }).int('Please choose one of your orders').positive('Please choose one of your orders').max(2_147_483_647).optional(),
});
export type CreateCardCodeInput = z.input<typeof CardCodeCreateBody>;

export const CardCodeUpdateBody = z
  .strictObject({
    active: z.boolean({ error: 'active must be true or false' }).optional(),
    label: label.optional(),
  })
  .refine((v) => v.active !== undefined || v.label !== undefined, { message: 'Nothing to change', path: ['active'] });
export type UpdateCardCodeInput = z.input<typeof CardCodeUpdateBody>;

/** One batch code as its owner sees it (POST and PATCH answer it; GET lists them). */
export const CardCodeResponse = z.strictObject({
  code: z.string(),
  label: z.string(),
  active: z.boolean(),
  orderId: z.number().int().nullable(),
  /** the order's card type and quantity, when the code belongs to an order */
  order: z.strictObject({ id: z.number().int(), quantity: z.number().int(), cardType: z.string(), status: z.string(), createdAt: isoDateTime }).nullable(),
  /** absolute short URL (lower case, for people) */
  url: z.string(),
  /** the QR code's text (upper case, alphanumeric mode) */
  qrText: z.string(),
  views: count,
  lastViewAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  deactivatedAt: isoDateTime.nullable(),
});
export type CardCode = z.infer<typeof CardCodeResponse>;

/** GET /api/card-codes */
export const CardCodeListResponse = z.strictObject({ codes: z.array(CardCodeResponse) });
export type CardCodeList = z.infer<typeof CardCodeListResponse>;

/** /c/{code} and /C/{code}: any text (an unknown or malformed code answers the 404 page). */
export const CardCodeOpenParams = z.strictObject({ code: z.string() });
/** 302 to the profile; 404 and 410 are small HTML pages. */
/** GET /c/{code}/company.vcf: the company's contact file; 404 page when the code shows no company. */
export const CompanyVcardResponse = { 200: textDocument('text/vcard (attachment)'), 404: textDocument('text/html') };
export const CardCodeOpenResponse = {
  200: textDocument('text/html'),
  302: EmptyResponse,
  404: textDocument('text/html'),
  410: textDocument('text/html'),
};

// ---- Contact exchange (leads) ----

/**
 * Contact exchange (lead capture) on the public profile:
 * POST /api/p/{id}/leads (public), GET /api/leads, GET /api/leads.csv, GET /api/leads.vcf,
 * DELETE /api/leads/{id}, GET and PUT /api/profile/lead-form.
 */

export const LEAD_LIMITS = { nameMin: 2, nameMax: 100, companyMax: 100, noteMax: 1000 } as const;

export const LEAD_MESSAGES = {
  name: 'Please enter your name',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  contact: 'Please enter an email address or a phone number',
  consent: 'Please agree to share your details',
  disabled: 'This profile is not accepting contact details right now',
  sent: 'Thank you! Your details were sent.',
  rateLimited: 'Too many messages from this address. Please wait a minute and try again.',
} as const;

/** The hidden field people never see and bots fill in: a filled one is dropped without a word. */
export const LEAD_HONEYPOT_FIELD = 'website';

const optionalText = (max: number, label: string) =>
  singleLine(max, label)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

/** POST /api/p/{id}/leads (JSON, or multipart from the page's plain HTML form). */
export const LeadCreateBody = z
  .strictObject({
    name: z
      .string({ error: LEAD_MESSAGES.name })
      .max(LEAD_LIMITS.nameMax, `Name must be at most ${LEAD_LIMITS.nameMax} characters`)
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Name must be a single line of text')
      .transform((s) => s.trim())
      .refine((s) => s.length >= LEAD_LIMITS.nameMin, LEAD_MESSAGES.name),
    email: emailOrNull.optional().transform((v) => v ?? null),
    phone: phoneOrNull.optional().transform((v) => v ?? null),
    company: optionalText(LEAD_LIMITS.companyMax, 'Company'),
    note: multiLine(LEAD_LIMITS.noteMax, 'Note')
      .nullable()
      .optional()
      .transform((v) => (v ? v : null)),
    consent: z.boolean({ error: LEAD_MESSAGES.consent }).refine((v) => v === true, LEAD_MESSAGES.consent),
    [LEAD_HONEYPOT_FIELD]: z.string().max(2000).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.email && !v.phone) ctx.addIssue({ code: 'custom', path: ['email'], message: LEAD_MESSAGES.contact });
  });
export type LeadBodyInput = z.input<typeof LeadCreateBody>;
export type LeadCreateBody = z.output<typeof LeadCreateBody>;

/** The same rules for the client-side form (plain strings while typing). */
export const LeadForm = z
  .object({
    name: z.string().trim().min(LEAD_LIMITS.nameMin, LEAD_MESSAGES.name).max(LEAD_LIMITS.nameMax, `Name must be at most ${LEAD_LIMITS.nameMax} characters`),
    email: z
      .string()
      .trim()
      .max(254, LEAD_MESSAGES.email)
      .refine((v) => v === '' || /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/.test(v), LEAD_MESSAGES.email),
    phone: z
      .string()
      .trim()
      .max(40, LEAD_MESSAGES.phone)
      .refine((v) => v === '' || (v.length >= 5 && /^[0-9+()\-.\s/#*xX]+$/.test(v) && /\d/.test(v)), LEAD_MESSAGES.phone),
    company: z.string().max(LEAD_LIMITS.companyMax, `Company must be at most ${LEAD_LIMITS.companyMax} characters`),
    note: z.string().max(LEAD_LIMITS.noteMax, `Note must be at most ${LEAD_LIMITS.noteMax} characters`),
    consent: z.boolean().refine((v) => v === true, LEAD_MESSAGES.consent),
  })
  .superRefine((v, ctx) => {
    if (!v.email.trim() && !v.phone.trim()) ctx.addIssue({ code: 'custom', path: ['email'], message: LEAD_MESSAGES.contact });
  });


export const LeadListQuery = z.strictObject({
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be 1 to 200').max(200, 'limit must be 1 to 200').default(50),
  offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').max(1_000_000, 'offset is too large').default(0),
});

export const LeadFormSettingSaveBody = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});

/** One contact a visitor left on the owner's public profile. */
export const Lead = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  note: z.string().nullable(),
  consent: z.boolean(),
  createdAt: isoDateTime,
});
export type Lead = z.infer<typeof Lead>;

/** GET /api/leads */
export const LeadListResponse = z.strictObject({
  total: count,
  leads: z.array(Lead),
  /** whether the public profile shows the contact exchange form */
  formEnabled: z.boolean(),
});
export type LeadList = z.infer<typeof LeadListResponse>;

/** GET/PUT /api/profile/lead-form, GET /api/p/{id}/lead-form */
export const LeadFormSettingResponse = z.strictObject({ enabled: z.boolean() });
export type LeadFormSetting = z.infer<typeof LeadFormSettingResponse>;

/**
 * POST /api/p/{id}/leads: JSON answers 201 { message }; the plain HTML form (multipart, Accept
 * text/html) gets a 303 to the thank-you page, or an HTML page saying what to fix (4xx).
 */
export const LeadCreateResponse = z.strictObject({ message: z.string() });
export type LeadSubmitted = z.infer<typeof LeadCreateResponse>;
/** A refused lead: JSON { message, errors }, or the HTML page of the plain form. */
export const LeadCreateErrorResponse = z.union([ErrorResponse, textDocument('text/html')]);

/** GET /api/leads.csv and /api/leads.vcf: every lead as a download. */
export const LeadExportCsvResponse = textDocument('text/csv (attachment)');
export const LeadExportVcfResponse = textDocument('text/vcard (attachment)');

/** GET /p/{id}/thanks: where the plain form lands (HTML); an unknown profile gets the 404 page. */
export const LeadThanksPageResponse = { 200: textDocument('text/html'), 404: textDocument('text/html') };
