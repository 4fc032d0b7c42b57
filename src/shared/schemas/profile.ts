import { z } from 'zod';
import { CARD_TYPE_IDS, MAX_PROFILE_LINKS } from '../catalogue';
import { httpUrl, singleLine } from './common';

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

export const LINK_TYPES = ['website', 'linkedin', 'twitter', 'instagram', 'facebook', 'github', 'other'] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export const LINK_TYPE_LABELS: Record<LinkType, string> = {
  website: 'Website',
  linkedin: 'LinkedIn',
  twitter: 'Twitter',
  instagram: 'Instagram',
  facebook: 'Facebook',
  github: 'GitHub',
  other: 'Link',
};

export const MESSAGES = {
  fullName: 'Name must be at least 2 characters',
  email: 'Please enter a valid email address',
  phoneNumber: 'Please enter a valid phone number',
  profileTemplate: 'Please select a digital profile style',
  linkUrl: 'Please enter a valid URL starting with http:// or https://',
  linkType: 'Please choose a link type',
  tooManyLinks: `You can add up to ${MAX_PROFILE_LINKS} links`,
  imageUrl: 'Please upload the image again',
} as const;

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
  .pipe(z.union([z.literal(''), httpUrl(MESSAGES.linkUrl)], { error: MESSAGES.linkUrl }));

export const LinkInput = z.strictObject({
  id: z.number().int().positive().max(2_147_483_647).optional(),
  linkType: z.enum(LINK_TYPES, { error: MESSAGES.linkType }),
  url: httpUrl(MESSAGES.linkUrl),
});
export type LinkInput = z.input<typeof LinkInput>;

const linksField = z.array(LinkInput).max(MAX_PROFILE_LINKS, MESSAGES.tooManyLinks).default([]);
const deleteLinksField = z.array(z.number().int().positive().max(2_147_483_647)).max(50).default([]);

/** POST /api/profile and PUT /api/profile/{id}: the profile form. */
export const ProfileBody = z.strictObject({
  fullName: fullNameField,
  jobTitle: textOrNull(100, 'Job title').default(null),
  email: emailOrNull.default(null),
  phoneNumber: phoneOrNull.default(null),
  address: textOrNull(300, 'Address').default(null),
  companyName: textOrNull(100, 'Company name').default(null),
  profileTemplate: profileTemplateField.default(DEFAULT_PROFILE_LAYOUT),
  customPhotoUrl: fileUrlOrNull.default(null),
  logoUrl: fileUrlOrNull.default(null),
  bannerLogoUrl: fileUrlOrNull.default(null),
  links: linksField,
  deleteLinks: deleteLinksField,
});
export type ProfileBodyInput = z.input<typeof ProfileBody>;
export type ProfileBody = z.output<typeof ProfileBody>;

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
    .refine((v) => v === '' || (v.length >= 5 && PHONE_RE.test(v) && /\d/.test(v)), MESSAGES.phoneNumber),
  address: z.string().max(300, 'Address must be at most 300 characters'),
  companyName: z.string().max(100, 'Company name must be at most 100 characters'),
  profileTemplate: z.string().min(1, MESSAGES.profileTemplate),
});
export type ProfileFormValues = z.infer<typeof ProfileForm>;

/** PUT /api/profile: the design flow's fields (all optional; creates the profile when there is none). */
export const DesignerProfileBody = z.strictObject({
  fullName: fullNameField.optional(),
  jobTitle: textOrNull(100, 'Job title').optional(),
  email: emailOrNull.optional(),
  phoneNumber: phoneOrNull.optional(),
  address: textOrNull(300, 'Address').optional(),
  companyName: textOrNull(100, 'Company name').optional(),
  profileTemplate: profileTemplateField.optional(),
  customPhotoUrl: fileUrlOrNull.optional(),
  logoUrl: fileUrlOrNull.optional(),
  bannerLogoUrl: fileUrlOrNull.optional(),
  /** design form extras, stored as links of type website and linkedin */
  website: urlOrEmpty.optional(),
  linkedinUrl: urlOrEmpty.optional(),
  links: z.array(LinkInput).max(MAX_PROFILE_LINKS, MESSAGES.tooManyLinks).optional(),
  deleteLinks: deleteLinksField.optional(),
  templateId: z.number({ error: 'Please choose a template' }).int('Please choose a template').positive('Please choose a template').max(100_000).optional(),
  cardType: z.enum(CARD_TYPE_IDS, { error: 'Please choose a card type' }).optional(),
});
export type DesignerProfileBodyInput = z.input<typeof DesignerProfileBody>;

export const ProfileIdParam = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{4,32}$/, 'Profile not found'),
});

export interface ProfileLink {
  id: number;
  linkType: LinkType;
  url: string;
}

/** GET /api/p/{id}: what anyone may see. */
export interface PublicProfile {
  id: string;
  fullName: string;
  jobTitle: string | null;
  email: string | null;
  phoneNumber: string | null;
  address: string | null;
  companyName: string | null;
  profileTemplate: ProfileLayout;
  customPhotoUrl: string | null;
  logoUrl: string | null;
  bannerLogoUrl: string | null;
  links: ProfileLink[];
}

/** The owner's profile (GET /api/profile; null when the user has none yet): the public fields and the card's design. */
export interface Profile extends PublicProfile {
  templateId: number;
  cardType: string;
  createdAt: string;
  updatedAt: string;
}

/** Profile status (dashboard): Complete when fullName, jobTitle and phoneNumber are all present. */
export function isProfileComplete(p: Pick<Profile, 'fullName' | 'jobTitle' | 'phoneNumber'> | null | undefined): boolean {
  return !!(p && p.fullName && p.jobTitle && p.phoneNumber);
}

/** Path of the public page. */
export function publicProfilePath(id: string): string {
  return `/p/${id}`;
}

/** GET /api/stats/visits */
export interface VisitStats {
  totalVisits: number;
  visits: Array<{ id: number; timestamp: string; userAgent: string; device: 'Mobile' | 'Desktop' | 'Unknown' }>;
  /** views per day for the last 30 days (UTC dates, oldest first, days without views included) */
  daily: Array<{ date: string; count: number }>;
  /** link clicks per current link */
  linkClicks: Array<{ linkId: number; linkType: string; url: string; clicks: number }>;
}

/** GET /api/cards: one of the signed-in user's cards. */
export interface UserCard {
  id: number;
  templateId: number;
  templateName: string | null;
  cardType: string;
  status: string;
  customizations: {
    layout: string;
    backgroundColor: string;
    textColor: string;
    backgroundImageUrl: string | null;
    overlayColor: string | null;
    overlayOpacity: number;
  };
  frontImageUrl: string | null;
  backImageUrl: string | null;
  qrCodeUrl: string | null;
  /** generated: the card has its QR code */
  qrGenerated: boolean;
  orderId: number | null;
  reviewNotes: string | null;
  submittedAt: string;
}
