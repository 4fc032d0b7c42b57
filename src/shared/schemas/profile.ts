import { z } from 'zod';
import { CARD_TYPE_IDS, MAX_PROFILE_LINKS } from '#shared/catalogue';
import { binaryFile, EmptyResponse, isoDate, isoDateTime, savedLinkUrl, singleLine, textDocument } from './common';
import { QR_MAX_DATA_LENGTH, QR_STYLES } from '#shared/qr/qr-svg';
import { MAX_PROFILE_LINKS_RANGE } from './settings';
import { LINK_LABEL_MAX, LINK_MESSAGES, normalizeProfileLink } from '#shared/profile/links';
import { HandleField } from '#shared/profile/handle';
import { toE164 } from '#shared/profile/phone';
/**
 * Profile contracts: GET/POST /api/profile, PUT /api/profile/{id}, PUT /api/profile (designer),
 * GET /api/p/{id}. Field messages are the spec's texts.
 */

export const PROFILE_LAYOUTS = ['classic', 'modern', 'minimal', 'creative', 'corporate'] as const;
export type ProfileLayout = (typeof PROFILE_LAYOUTS)[number];
export const DEFAULT_PROFILE_LAYOUT: ProfileLayout = 'classic';
export const PROFILE_LAYOUT_INFO: Record<ProfileLayout, { label: string; description: string }> = {
  classic: { label: 'Classic', description: 'Traditional, blue gradient header' },
  modern: { label: 'Modern', description: 'Purple-pink gradients' },
  minimal: { label: 'Minimal', description: 'Simple, content focused' },
  creative: { label: 'Creative', description: 'Bold, orange-pink' },
  corporate: { label: 'Corporate', description: 'Professional, dark header' },
};

/**
 * A link's type (issue 37, decision 37-03): its icon, its label and how its address is written
 * (`#shared/profile/links`). 'other' stays for links saved before 'custom' (a labelled link) came.
 */
export const LINK_TYPES = [
  'website',
  'linkedin',
  'twitter',
  'instagram',
  'facebook',
  'github',
  'whatsapp',
  'tiktok',
  'youtube',
  'booking',
  'email',
  'phone',
  'pdf',
  'custom',
  'other',
] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export const LINK_TYPE_LABELS: Record<LinkType, string> = {
  website: 'Website',
  linkedin: 'LinkedIn',
  twitter: 'X',
  instagram: 'Instagram',
  facebook: 'Facebook',
  github: 'GitHub',
  whatsapp: 'WhatsApp',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  booking: 'Book a meeting',
  email: 'Email',
  phone: 'Call',
  pdf: 'PDF',
  custom: 'Link',
  other: 'Link',
};
/** What a link button says: its own label, else its type's. */
export function linkLabel(l: { linkType: string; label?: string | null }): string {
  return l.label?.trim() || (LINK_TYPE_LABELS as Record<string, string>)[l.linkType] || 'Link';
}

export const MESSAGES = {
  fullName: 'Name must be at least 2 characters',
  email: 'Please enter a valid email address',
  phoneNumber: 'Please enter a valid phone number',
  profileTemplate: 'Please select a digital profile style',
  linkUrl: 'Please enter a valid URL starting with http:// or https://',
  linkType: 'Please choose a link type',
  /** the spec's default limit; the shop's own limit: {@link tooManyLinksMessage} */
  tooManyLinks: `You can add up to ${MAX_PROFILE_LINKS} links`,
  imageUrl: 'Please upload the image again',
} as const;

/** The too-many-links message at the shop's limit (settings' maxProfileLinks, 3 by default). */
export function tooManyLinksMessage(max: number): string {
  return `You can add up to ${max} links`;
}

/** The most links any request may carry: the highest limit staff may set (the shop's own limit is checked by the server). */
const LINKS_CAP = MAX_PROFILE_LINKS_RANGE.max;

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;
const PHONE_RE = /^[0-9+()\-.\s/#*xX]+$/;

/** "" and null mean "not given" (stored as null). */
const textOrNull = (max: number, label: string) =>
  singleLine(max, label)
    .nullable()
    .transform((v) => (v ? v : null));

export const fullNameField = z
  .string({ error: MESSAGES.fullName })
  .max(100, 'Name must be at most 100 characters')
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Name must be a single line of text')
  .transform((s) => s.trim())
  .refine((s) => s.length >= 2, MESSAGES.fullName);

export const emailOrNull = z
  .string({ error: MESSAGES.email })
  .max(254, MESSAGES.email)
  .nullable()
  .transform((v) => (v ?? '').trim())
  .refine((v) => v === '' || EMAIL_RE.test(v), MESSAGES.email)
  .transform((v) => (v === '' ? null : v));

export const phoneOrNull = z
  .string({ error: MESSAGES.phoneNumber })
  .max(40, MESSAGES.phoneNumber)
  .nullable()
  .transform((v) => (v ?? '').trim())
  .refine((v) => v === '' || (v.length >= 5 && PHONE_RE.test(v) && /\d/.test(v)), MESSAGES.phoneNumber)
  .transform((v) => (v === '' ? null : v));

/**
 * The profile's phone number (issue 37 item 1, decision 37-09): stored in E.164 ({@link toE164}: a
 * number without its country is read as North American, as the shop is in New York), "" / null
 * for none; a number that cannot be read so is refused with the spec's message.
 */
const profilePhoneOrNull = z
  .string({ error: MESSAGES.phoneNumber })
  .max(40, MESSAGES.phoneNumber)
  .nullable()
  .transform((v, ctx) => {
    const text = (v ?? '').trim();
    if (text === '') return null;
    const e164 = toE164(text);
    if (!e164) {
      ctx.issues.push({ code: 'custom', message: MESSAGES.phoneNumber, input: v });
      return z.NEVER;
    }
    return e164;
  });

export const profileTemplateField = z
  .string({ error: MESSAGES.profileTemplate })
  .min(1, MESSAGES.profileTemplate)
  .refine((v): v is ProfileLayout => (PROFILE_LAYOUTS as readonly string[]).includes(v), MESSAGES.profileTemplate);

/** A stored file we served (/files/...), or nothing. Ownership is checked by the server. */
export const fileUrlOrNull = z
  .string({ error: MESSAGES.imageUrl })
  .max(300, MESSAGES.imageUrl)
  .nullable()
  .transform((v) => (v ?? '').trim())
  .refine((v) => v === '' || /^\/files\/[a-z0-9][a-z0-9/_.-]{0,200}$/.test(v) && !v.includes('..'), MESSAGES.imageUrl)
  .transform((v) => (v === '' ? null : v));

/** An http(s) URL, or "" / null for none. */
const urlOrEmpty = z
  .string({ error: MESSAGES.linkUrl })
  .nullable()
  .transform((v) => (v ?? '').trim())
  .pipe(z.union([z.literal(''), savedLinkUrl(MESSAGES.linkUrl)], { error: MESSAGES.linkUrl }));

export const LinkInput = z
  .strictObject({
    id: z.number().int().positive().max(2_147_483_647).optional(),
    linkType: z.enum(LINK_TYPES, { error: MESSAGES.linkType }),
    url: z.string({ error: MESSAGES.linkUrl }).max(2048, 'URL is too long'),
    /** the button's text (max 40; required for 'custom'); "" and null mean the type's own */
    label: z.string({ error: LINK_MESSAGES.labelLength }).max(200, LINK_MESSAGES.labelLength).nullable().optional(),
  })
  .transform((l, ctx) => {
    const label = (l.label ?? '').replace(/\s+/g, ' ').trim();
    if (label.length > LINK_LABEL_MAX) ctx.issues.push({ code: 'custom', path: ['label'], message: LINK_MESSAGES.labelLength, input: l.label });
    else if (!label && l.linkType === 'custom') ctx.issues.push({ code: 'custom', path: ['label'], message: LINK_MESSAGES.label, input: l.label });
    const normalized = normalizeProfileLink(l.linkType, l.url);
    if ('error' in normalized) ctx.issues.push({ code: 'custom', path: ['url'], message: normalized.error, input: l.url });
    if (ctx.issues.length) return z.NEVER;
    return { ...l, url: 'url' in normalized ? normalized.url : l.url, label: label || null };
  });
export type LinkInput = z.input<typeof LinkInput>;

const linksField = z.array(LinkInput).max(LINKS_CAP, tooManyLinksMessage(LINKS_CAP)).default([]);
const deleteLinksField = z.array(z.number().int().positive().max(2_147_483_647)).max(50).default([]);

/** The profile's own fields as a request sends them, each rule once (the bodies below derive from it). */
const ProfileFields = z.strictObject({
  fullName: fullNameField,
  jobTitle: textOrNull(100, 'Job title'),
  email: emailOrNull,
  phoneNumber: profilePhoneOrNull,
  address: textOrNull(300, 'Address'),
  companyName: textOrNull(100, 'Company name'),
  profileTemplate: profileTemplateField,
  customPhotoUrl: fileUrlOrNull,
  logoUrl: fileUrlOrNull,
  bannerLogoUrl: fileUrlOrNull,
});
const field = ProfileFields.shape;

/** POST /api/profile and PUT /api/profile/{id}: the profile form (a field left out is saved empty). */
export const ProfileSaveBody = ProfileFields.extend({
  jobTitle: field.jobTitle.default(null),
  email: field.email.default(null),
  phoneNumber: field.phoneNumber.default(null),
  address: field.address.default(null),
  companyName: field.companyName.default(null),
  profileTemplate: field.profileTemplate.default(DEFAULT_PROFILE_LAYOUT),
  customPhotoUrl: field.customPhotoUrl.default(null),
  logoUrl: field.logoUrl.default(null),
  bannerLogoUrl: field.bannerLogoUrl.default(null),
  links: linksField,
  deleteLinks: deleteLinksField,
});
export type ProfileSaveBodyInput = z.input<typeof ProfileSaveBody>;
export type ProfileSaveBody = z.output<typeof ProfileSaveBody>;

/**
 * The client-side form (react-hook-form): the same rules with plain strings, so empty inputs
 * stay "" while editing. The server contract above is what is enforced.
 */
export const ProfileForm = z.object({
  fullName: z.string().trim().min(2, MESSAGES.fullName).max(100, 'Name must be at most 100 characters'),
  jobTitle: z.string().max(100, 'Job title must be at most 100 characters'),
  email: z.string().trim().max(254, MESSAGES.email).refine((v) => v === '' || EMAIL_RE.test(v), MESSAGES.email),
  phoneNumber: z
    .string()
    .trim()
    .max(40, MESSAGES.phoneNumber)
    .refine((v) => v === '' || toE164(v) !== null, MESSAGES.phoneNumber),
  address: z.string().max(300, 'Address must be at most 300 characters'),
  companyName: z.string().max(100, 'Company name must be at most 100 characters'),
  profileTemplate: z.string().min(1, MESSAGES.profileTemplate),
});
export type ProfileFormValues = z.infer<typeof ProfileForm>;

/** PUT /api/profile: the design flow's fields (all optional; creates the profile when there is none). */
export const ProfileDesignSaveBody = ProfileFields.partial().extend({
  /** design form extras, stored as links of type website and linkedin */
  website: urlOrEmpty.optional(),
  linkedinUrl: urlOrEmpty.optional(),
  links: z.array(LinkInput).max(LINKS_CAP, tooManyLinksMessage(LINKS_CAP)).optional(),
  deleteLinks: deleteLinksField.optional(),
  templateId: z.number({ error: 'Please choose a template' }).int('Please choose a template').positive('Please choose a template').max(100_000).optional(),
  cardType: z.enum(CARD_TYPE_IDS, { error: 'Please choose a card type' }).optional(),
});
export type ProfileDesignSaveBodyInput = z.input<typeof ProfileDesignSaveBody>;

/** PUT /api/profile/handle: the handle to use ("" or null removes it; the old one redirects for a while). */
export const ProfileHandleBody = z.strictObject({ handle: HandleField });
/** GET /@{handle}: any text (an unknown or malformed handle answers the 404 page). */
export const ProfileHandleParams = z.strictObject({ handle: z.string() });
/** GET /@{handle}: the page, or 302 from a handle changed in the last days to the current address (temporary: it may be taken later). */
export const ProfileHandlePageResponse = {
  200: textDocument('text/html'),
  302: EmptyResponse,
  304: EmptyResponse,
  404: textDocument('text/html'),
};

export const ProfileIdParams = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{4,32}$/, 'Profile not found'),
});

export const ProfileLink = z.strictObject({
  id: z.number().int(),
  linkType: z.enum(LINK_TYPES),
  url: z.string(),
  /** the owner's label (a custom link's text), or null: the type's label shows */
  label: z.string().nullable(),
});
export type ProfileLink = z.infer<typeof ProfileLink>;

/** GET /api/p/{id}: what anyone may see. */
export const PublicProfileGetResponse = z.strictObject({
  id: z.string(),
  /** the short address /@{handle} (decision 37-04), or null; /p/{id} stays the permanent one */
  handle: z.string().nullable(),
  fullName: z.string(),
  jobTitle: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  address: z.string().nullable(),
  companyName: z.string().nullable(),
  profileTemplate: z.enum(PROFILE_LAYOUTS),
  customPhotoUrl: z.string().nullable(),
  logoUrl: z.string().nullable(),
  bannerLogoUrl: z.string().nullable(),
  links: z.array(ProfileLink),
  /** a team member's page: the team's name and colours (issue 21); absent otherwise */
  brand: z.strictObject({ teamName: z.string(), primaryColor: z.string(), accentColor: z.string() }).optional(),
});
export type PublicProfile = z.infer<typeof PublicProfileGetResponse>;

/** The owner's profile: the public fields and the card's design (POST /api/profile, PUT /api/profile/{id}, PUT /api/profile). */
export const ProfileResponse = PublicProfileGetResponse.extend({
  templateId: z.number().int(),
  cardType: z.string(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Profile = z.infer<typeof ProfileResponse>;
/** GET /api/profile: null when the user has none yet. */
export const ProfileGetResponse = ProfileResponse.nullable();

/**
 * /p/{id}, /api/p/{id}, /api/vcard/{profileId}: any text (a malformed id answers like an unknown
 * one: the 404 page or 404 JSON, never a 400).
 */
export const PublicProfileParams = z.strictObject({ id: z.string() });
export const PublicProfileLinkParams = z.strictObject({ id: z.string(), linkId: z.string() });
export const VcardGetParams = z.strictObject({ profileId: z.string() });
/** `?preview=true`: the owner's preview (not counted); other fields (src, code: where the view came from) are kept. */
export const PublicProfileQuery = z.looseObject({ preview: z.union([z.string(), z.array(z.string())]).optional() });
/** GET /p/{id}: the server-rendered page (gzip when accepted); 304 on a matching ETag; 404 page. */
export const PublicProfilePageResponse = {
  200: textDocument('text/html'),
  304: EmptyResponse,
  404: textDocument('text/html'),
};
/** GET /p/{id}/go/{linkId}: 302 to the link; unknown profile or link: the 404 page. */
export const PublicProfileLinkResponse = { 302: EmptyResponse, 404: textDocument('text/html') };
/** GET /api/vcard/{profileId}: the contact file (vCard 3.0). */
export const VcardGetResponse = textDocument('text/vcard (attachment)');

/** Profile status (dashboard): Complete when fullName, jobTitle and phoneNumber are all present. */
export function isProfileComplete(p: Pick<Profile, 'fullName' | 'jobTitle' | 'phoneNumber'> | null | undefined): boolean {
  return !!(p && p.fullName && p.jobTitle && p.phoneNumber);
}

/** GET /api/stats/visits */
export const VisitStatsGetResponse = z.strictObject({
  totalVisits: z.number().int().nonnegative(),
  visits: z.array(z.strictObject({ id: z.number().int(), timestamp: isoDateTime, userAgent: z.string(), device: z.enum(['Mobile', 'Desktop', 'Unknown']) })),
  /** views per day for the last 30 days (UTC dates, oldest first, days without views included) */
  daily: z.array(z.strictObject({ date: isoDate, count: z.number().int().nonnegative() })),
  /** link clicks per current link */
  linkClicks: z.array(z.strictObject({ linkId: z.number().int(), linkType: z.string(), url: z.string(), clicks: z.number().int().nonnegative() })),
});
export type VisitStats = z.infer<typeof VisitStatsGetResponse>;

/** GET /api/cards: one of the signed-in user's cards. */
export const UserCard = z.strictObject({
  id: z.number().int(),
  templateId: z.number().int(),
  templateName: z.string().nullable(),
  cardType: z.string(),
  status: z.string(),
  customizations: z.strictObject({
    layout: z.string(),
    backgroundColor: z.string(),
    textColor: z.string(),
    backgroundImageUrl: z.string().nullable(),
    overlayColor: z.string().nullable(),
    overlayOpacity: z.number(),
  }),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  qrCodeUrl: z.string().nullable(),
  /** generated: the card has its QR code */
  qrGenerated: z.boolean(),
  orderId: z.number().int().nullable(),
  reviewNotes: z.string().nullable(),
  submittedAt: isoDateTime,
});
export type UserCard = z.infer<typeof UserCard>;
export const UserCardListResponse = z.array(UserCard);

// ---- QR code images ----

/** GET /api/qrcode?data=&size=&style=&format= */
export const QrCodeGetQuery = z.strictObject({
  data: z
    .string({ error: 'data is required' })
    .min(1, 'data is required')
    .max(QR_MAX_DATA_LENGTH, `data must be at most ${QR_MAX_DATA_LENGTH} characters`),
  size: z.coerce
    .number({ error: 'size must be a number' })
    .int('size must be a whole number')
    .min(32, 'size must be at least 32')
    .max(1024, 'size must be at most 1024')
    .default(200),
  style: z.enum(QR_STYLES as [string, ...string[]], { error: `style must be one of ${QR_STYLES.join(', ')}` }).default('standard'),
  margin: z.coerce.number().int().min(0, 'margin must be 0 to 10').max(10, 'margin must be 0 to 10').optional(),
  format: z.enum(['svg', 'png'], { error: 'format must be svg or png' }).default('svg'),
});
export type QrCodeGetQuery = z.infer<typeof QrCodeGetQuery>;
/** The QR code image: SVG (default) or PNG. */
export const QrCodeGetResponse = z.union([textDocument('image/svg+xml'), binaryFile('image/png')]);
