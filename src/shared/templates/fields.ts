import type { CardLook } from './look';

/**
 * The data a card template is filled with, and how each field is shown on the card.
 */

export const CARD_TEXT_FIELDS = [
  'fullName',
  'jobTitle',
  'companyName',
  'email',
  'phoneNumber',
  'address',
  'website',
  'linkedinUrl',
] as const;
export type CardTextField = (typeof CARD_TEXT_FIELDS)[number];

/** Fields a template can show: the person's fields plus derived ones. */
export const TEMPLATE_FIELDS = [...CARD_TEXT_FIELDS, 'initials', 'profileUrl'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/** The person's fields, and the customer's choices of finish, accent, font and logo (look.ts). */
export type CardData = Partial<Record<CardTextField, string | null | undefined>> & { look?: CardLook | null };

export interface FillOptions {
  /** the URL the QR code on the back encodes (the owner's public profile); no QR drawn without it */
  qrUrl?: string | null;
  /** href of the logo image (a data: URI for server renders, or a same-site /files/... path in the browser) */
  logoHref?: string | null;
}

/** Sample person used for thumbnails, previews and the demo card. */
export const SAMPLE_CARD: Required<Omit<CardData, 'look'>> = {
  fullName: 'Alexandra Reed',
  jobTitle: 'Creative Director',
  companyName: 'Northwind Studio',
  email: 'alex@northwind.studio',
  phoneNumber: '+1 (212) 555-0182',
  address: '350 Fifth Avenue, New York, NY 10118',
  website: 'https://northwind.studio',
  linkedinUrl: 'https://www.linkedin.com/in/alexandra-reed',
};

/** "https://www.example.com/" -> "example.com", for printing on a card. */
export function displayUrl(url: string): string {
  return url
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
}

export function initialsOf(name: string): string {
  const parts = name
    .trim()
    .split(/\s+/)
    .filter((p) => /\p{L}/u.test(p));
  if (parts.length === 0) return '';
  const first = [...parts[0]][0] ?? '';
  const last = parts.length > 1 ? [...parts[parts.length - 1]][0] ?? '' : '';
  return (first + last).toUpperCase();
}

/** The printed value of each template field (empty string when there is nothing to print). */
export function fieldValues(data: CardData, opts: FillOptions = {}): Record<TemplateField, string> {
  const clean = (v: string | null | undefined) => (v ?? '').replace(/[\r\n\t]+/g, ' ').replace(/\s{2,}/g, ' ').trim();
  const out = {} as Record<TemplateField, string>;
  for (const f of CARD_TEXT_FIELDS) out[f] = clean(data[f]);
  if (out.website) out.website = displayUrl(out.website);
  if (out.linkedinUrl) out.linkedinUrl = displayUrl(out.linkedinUrl);
  out.initials = initialsOf(out.fullName || out.companyName);
  out.profileUrl = opts.qrUrl ? displayUrl(opts.qrUrl) : '';
  return out;
}
