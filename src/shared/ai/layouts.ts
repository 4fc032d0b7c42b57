/**
 * What the design assistant knows about the four built-in card templates (decisions.md:
 * 15 Minimal, 16 Classic, 17 Simple, 18 Modern; all black background and white text; Minimal and
 * Simple have no QR border, Classic and Modern a green QR border of width 2).
 *
 * The text zones are the assistant's model of each layout on the 1050 x 600 card (3.5 x 2 in at
 * 300 units per inch): where a field sits, how wide it may run and the size it is set at. They are
 * used to judge whether a name or an address fits, not to render the card.
 */
import type { AiTemplateId } from '#shared/schemas/ai';

export const CARD_UNITS_PER_INCH = 300;

/** points -> card units (1 pt = 1/72 in) */
export const ptToUnits = (pt: number) => (pt * CARD_UNITS_PER_INCH) / 72;
export const unitsToPt = (u: number) => (u * 72) / CARD_UNITS_PER_INCH;

/** below this size small text on metal stops being comfortable to read */
export const MIN_READABLE_PT = 6.5;

export type ZoneField = 'fullName' | 'jobTitle' | 'companyName' | 'email' | 'phone' | 'address' | 'website' | 'tagline';

export interface TextZone {
  field: ZoneField;
  side: 'front' | 'back';
  /** width available in card units */
  maxWidth: number;
  /** set size in points */
  sizePt: number;
  weight: number;
  /** lines it may wrap onto */
  maxLines: number;
  /** heading zones take the design's first font, detail zones the last */
  role: 'heading' | 'detail';
}

export interface TemplateModel {
  id: AiTemplateId;
  name: string;
  folder: 'minimal' | 'classic' | 'simple' | 'modern';
  summary: string;
  qrBorder: boolean;
  /** side of the card carrying the QR code */
  qrSide: 'front' | 'back';
  zones: TextZone[];
}

const z = (field: ZoneField, side: 'front' | 'back', maxWidth: number, sizePt: number, weight: number, maxLines: number, role: TextZone['role']): TextZone => ({
  field,
  side,
  maxWidth,
  sizePt,
  weight,
  maxLines,
  role,
});

/**
 * The contact lines (e-mail, phone, website, address) share one column, size and weight on every
 * template; only the address may wrap onto a second line.
 */
const contactZones = (side: TextZone['side'], maxWidth: number, sizePt: number): TextZone[] =>
  (['email', 'phone', 'website', 'address'] as const).map((field) => z(field, side, maxWidth, sizePt, 400, field === 'address' ? 2 : 1, 'detail'));

export const TEMPLATE_MODELS: Record<AiTemplateId, TemplateModel> = {
  15: {
    id: 15,
    name: 'Minimal',
    folder: 'minimal',
    summary: 'Name and title alone on the front with wide margins; contact details and an unframed QR code on the back.',
    qrBorder: false,
    qrSide: 'back',
    zones: [
      z('fullName', 'front', 880, 15, 600, 1, 'heading'),
      z('jobTitle', 'front', 880, 8.5, 400, 1, 'detail'),
      z('companyName', 'back', 560, 9, 600, 1, 'heading'),
      ...contactZones('back', 560, 7.5),
      z('tagline', 'back', 560, 7, 400, 1, 'detail'),
    ],
  },
  16: {
    id: 16,
    name: 'Classic',
    folder: 'classic',
    summary: 'A traditional centred hierarchy: name, title and company on the front; details and a green-framed QR code on the back.',
    qrBorder: true,
    qrSide: 'back',
    zones: [
      z('fullName', 'front', 820, 14, 700, 1, 'heading'),
      z('jobTitle', 'front', 820, 8.5, 400, 1, 'detail'),
      z('companyName', 'front', 820, 9.5, 600, 1, 'heading'),
      ...contactZones('back', 520, 7.5),
      z('tagline', 'front', 820, 7, 400, 1, 'detail'),
    ],
  },
  17: {
    id: 17,
    name: 'Simple',
    folder: 'simple',
    summary: 'Left-aligned name, title and contact details beside an unframed QR code: everything readable at one glance.',
    qrBorder: false,
    qrSide: 'front',
    zones: [
      z('fullName', 'front', 600, 13, 700, 1, 'heading'),
      z('jobTitle', 'front', 600, 8, 400, 1, 'detail'),
      z('companyName', 'front', 600, 8.5, 600, 1, 'heading'),
      ...contactZones('front', 600, 7),
      z('tagline', 'back', 880, 8, 400, 1, 'detail'),
    ],
  },
  18: {
    id: 18,
    name: 'Modern',
    folder: 'modern',
    summary: 'An asymmetric layout with a bold name block and a green-framed QR code used as a design element.',
    qrBorder: true,
    qrSide: 'front',
    zones: [
      z('fullName', 'front', 560, 16, 700, 2, 'heading'),
      z('jobTitle', 'front', 560, 8, 500, 1, 'detail'),
      z('companyName', 'back', 760, 11, 700, 1, 'heading'),
      ...contactZones('back', 760, 7.5),
      z('tagline', 'front', 560, 7, 400, 1, 'detail'),
    ],
  },
};

export const FIELD_LABELS: Record<ZoneField, string> = {
  fullName: 'name',
  jobTitle: 'job title',
  companyName: 'company name',
  email: 'e-mail',
  phone: 'phone number',
  address: 'address',
  website: 'website',
  tagline: 'tagline',
};
