import { CARD_STYLES, CARD_TYPES } from '#shared/catalogue';
import { TEMPLATE_MODELS } from '#shared/ai/layouts';
import { AI_TEMPLATE_IDS, type AiCurrentDesign, type DesignFeedbackRequest, type QR_STYLES } from '#shared/schemas/ai';
import { CARD_FINISHES } from '#shared/templates/look';
import { templateDisplayName } from '#shared/templates/display-name';

/** The business-info fields of the form, with their labels. */
export const INFO_FIELDS = [
  ['fullName', 'Full Name'],
  ['jobTitle', 'Job Title'],
  ['companyName', 'Company'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['website', 'Website'],
  ['address', 'Address'],
] as const;
export type InfoKey = (typeof INFO_FIELDS)[number][0];

/** The built-in templates by name (until the shop's list has loaded). */
export const TEMPLATE_CHOICES = AI_TEMPLATE_IDS.map((id) => ({ value: String(id), label: TEMPLATE_MODELS[id].name }));

/** The shop's active templates by their customer-facing names (never their ids). */
export function templateChoices(list: Array<{ id: number; name: string; folder?: string; description?: string; isActive: boolean }> | undefined, keep: string) {
  if (!list?.length) return TEMPLATE_CHOICES;
  return list.filter((t) => t.isActive || String(t.id) === keep).map((t) => ({ value: String(t.id), label: templateDisplayName(t) }));
}
export const CARD_TYPE_CHOICES = CARD_TYPES.map((c) => ({ value: c.id, label: c.label }));

/** What the design feedback form holds (strings as typed; toRequest() makes the request). */
export interface FeedbackForm {
  template: string;
  cardType: string;
  cardStyle: string;
  background: string;
  text: string;
  accents: string[];
  fonts: string[];
  otherFonts: string;
  info: Record<InfoKey, string>;
  qrMargin: string;
  qrSize: string;
  qrStyle: string;
  question: string;
}

export const INITIAL_FEEDBACK_FORM: FeedbackForm = {
  template: '17',
  cardType: 'standard',
  cardStyle: 'Matte',
  background: '#000000',
  text: '#FFFFFF',
  accents: [],
  fonts: ['Inter'],
  otherFonts: '',
  info: { fullName: '', jobTitle: '', companyName: '', email: '', phone: '', website: '', address: '' },
  qrMargin: '2',
  qrSize: '',
  qrStyle: 'standard',
  question: '',
};

/** The request body of the form's current values (empty fields left out). */
export function toRequest(f: FeedbackForm): DesignFeedbackRequest {
  const other = f.otherFonts
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const businessInfo = Object.fromEntries(Object.entries(f.info).filter(([, v]) => v.trim() !== '')) as Record<string, string>;
  return {
    currentDesign: {
      template: Number(f.template),
      cardType: f.cardType as (typeof CARD_TYPES)[number]['id'],
      cardStyle: f.cardStyle as (typeof CARD_STYLES)[number],
      colors: { background: f.background, text: f.text, accents: f.accents },
      fonts: [...f.fonts, ...other],
      businessInfo,
      qr: {
        margin: f.qrMargin === '' ? undefined : Number(f.qrMargin),
        sizeMm: f.qrSize === '' ? undefined : Number(f.qrSize),
        style: f.qrStyle as (typeof QR_STYLES)[number],
      },
    },
    userQuestion: f.question,
  };
}

/**
 * The form filled from the user's current design (GET /api/ai/current-design): its template, metal,
 * fields and look. The colours are what the metal makes: the metal (or Color Metal's print ground)
 * and the engraving or ink, with the chosen name colour as an accent where the metal can make it.
 */
export function formFromCurrentDesign(d: AiCurrentDesign, base: FeedbackForm): FeedbackForm {
  const finish = CARD_FINISHES[d.cardType];
  const up = (c: string) => c.toUpperCase();
  const accent = d.accent && d.accent.toLowerCase() !== finish.accents[0] ? up(d.accent) : null;
  return {
    ...base,
    template: String(d.templateId),
    cardType: d.cardType,
    background: up(finish.base),
    text: up(finish.ink),
    accents: accent ? [accent] : [],
    fonts: [d.font ?? 'Inter'],
    info: { ...base.info, ...d.businessInfo },
  };
}
