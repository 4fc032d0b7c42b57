import { z } from 'zod';
import { multiLine, singleLine } from './common';
import { emailOrNull, phoneOrNull } from './profile';

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
export const LeadBody = z
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
export type LeadBodyInput = z.input<typeof LeadBody>;
export type LeadBody = z.output<typeof LeadBody>;

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
export type LeadFormValues = z.infer<typeof LeadForm>;

export const LeadProfileParam = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{4,32}$/, 'Profile not found'),
});

export const LeadListQuery = z.strictObject({
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be 1 to 200').max(200, 'limit must be 1 to 200').default(50),
  offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').max(1_000_000, 'offset is too large').default(0),
});

export const LeadFormSettingBody = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});

/** One contact a visitor left on the owner's public profile. */
export interface Lead {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  note: string | null;
  consent: boolean;
  createdAt: string;
}

/** GET /api/leads */
export interface LeadList {
  total: number;
  leads: Lead[];
  /** whether the public profile shows the contact exchange form */
  formEnabled: boolean;
}

/** GET/PUT /api/profile/lead-form */
export interface LeadFormSetting {
  enabled: boolean;
}

/** POST /api/p/{id}/leads answer */
export interface LeadSubmitted {
  message: string;
}
