import type { CardTypeId } from '#shared/catalogue';
import { BUNDLED_FONTS } from '#shared/fonts';

/**
 * What each card type really looks like, and what it can produce (issue 20). The same numbers
 * drive the live preview and the rendered files: the filler (fill.ts) applies them to templates
 * drawn on our black metal background (the built-in designs); a template with its own background
 * keeps its own colours.
 *
 * - Standard Metal: black stainless steel, laser engraved: the engraving shows bright steel.
 * - Color Metal: brushed stainless steel printed in full colour: dark ink, any accent colour.
 * - Black Anodized: deep matte black aluminium; engraving cuts to bright aluminium.
 * - Luxury Titanium: brushed titanium grey, engraved dark, with a gold-anodized accent option.
 * Engraving and printing cannot hold hairlines: light font weights are raised to 400 on every
 * metal (a 300 weight fades on the card).
 */
export interface CardFinish {
  cardType: CardTypeId;
  /** what the customer is told about the finish */
  summary: string;
  /** the brushed-metal sheen, top-left to bottom-right */
  sheen: Array<[offset: number, color: string]>;
  /** the flat colour under the sheen (the darkest tone of the template maps to it) */
  base: string;
  /** the engraving or print colour (the brightest tone of the template maps to it) */
  ink: string;
  /** accent colours this card can produce (the first is the default: the engraving itself) */
  accents: readonly string[];
  /** how the name's accent is made: printed colour, or engraving */
  accentNote: string;
}

export const CARD_FINISHES: Record<CardTypeId, CardFinish> = {
  standard: {
    cardType: 'standard',
    summary: 'Black stainless steel, laser engraved in bright steel',
    sheen: [
      [0, '#1d1d1f'],
      [0.45, '#0b0b0c'],
      [0.7, '#151517'],
      [1, '#080809'],
    ],
    base: '#0b0b0c',
    ink: '#e4e6e8',
    accents: ['#e4e6e8'],
    accentNote: 'Engraved: the steel shows through, so the colour is fixed.',
  },
  color: {
    cardType: 'color',
    summary: 'Brushed stainless steel, printed in full colour',
    sheen: [
      [0, '#f1f2f4'],
      [0.35, '#d3d7dc'],
      [0.6, '#eceef1'],
      [1, '#c4c9cf'],
    ],
    base: '#dfe2e6',
    ink: '#15171a',
    accents: ['#15171a', '#b8860b', '#1e3a8a', '#7f1d1d', '#065f46', '#6b21a8', '#c2410c', '#0f766e'],
    accentNote: 'Printed: choose any colour for the name.',
  },
  black_anodized: {
    cardType: 'black_anodized',
    summary: 'Deep matte black anodized aluminium, engraved to bright aluminium',
    sheen: [
      [0, '#0c0c0d'],
      [0.5, '#050505'],
      [1, '#090909'],
    ],
    base: '#050505',
    ink: '#f4f4f5',
    accents: ['#f4f4f5'],
    accentNote: 'Engraved: the aluminium shows through, so the colour is fixed.',
  },
  luxury_titanium: {
    cardType: 'luxury_titanium',
    summary: 'Solid brushed titanium, engraved dark, with a gold-anodized option',
    sheen: [
      [0, '#bfc1c5'],
      [0.4, '#9c9ea3'],
      [0.65, '#b4b6ba'],
      [1, '#8c8e92'],
    ],
    base: '#a5a7ab',
    ink: '#141517',
    accents: ['#141517', '#7a5a0c'],
    accentNote: 'Engraved dark, or anodized gold for the name.',
  },
};

export const LOGO_POSITIONS = ['template', 'left', 'center', 'right'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];
export const LOGO_SCALE_MIN = 0.6;
export const LOGO_SCALE_MAX = 1.6;

/** The families a card can be set in (the bundled fonts: what we can render identically everywhere). */
export const CARD_FONT_FAMILIES = BUNDLED_FONTS.map((f) => f.family);

/** The customer's choices for one card; every one optional (the template decides the rest). */
export interface CardLook {
  cardType?: CardTypeId | null;
  /** #rrggbb; must be one of the card type's accents (else the first one is used) */
  accent?: string | null;
  /** one of CARD_FONT_FAMILIES, for the name and company */
  font?: string | null;
  logoPosition?: LogoPosition | null;
  /** 0.6 to 1.6 times the template's logo box */
  logoScale?: number | null;
}

export function finishOf(cardType: string | null | undefined): CardFinish | null {
  return cardType && cardType in CARD_FINISHES ? CARD_FINISHES[cardType as CardTypeId] : null;
}

/** The accent the card type can produce closest to the one asked for (exact match, else the default). */
export function allowedAccent(cardType: string | null | undefined, accent: string | null | undefined): string | null {
  const f = finishOf(cardType);
  if (!f) return null;
  const a = accent?.toLowerCase();
  if (a && f.accents.includes(a)) return a;
  if (a && /^#[0-9a-f]{6}$/.test(a) && f.cardType === 'color') return a;
  return f.accents[0];
}

/** A bundled family by any spelling ('playfair display', '"Inter", sans-serif'), else null. */
export function allowedFont(font: string | null | undefined): string | null {
  if (!font) return null;
  const first = font.split(',')[0].trim().replace(/^['"]|['"]$/g, '').toLowerCase();
  return CARD_FONT_FAMILIES.find((f) => f.toLowerCase() === first) ?? null;
}

function hex(c: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(c.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? m[1].replace(/./g, (x) => x + x) : m[1];
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

function toHex(rgb: [number, number, number]): string {
  return '#' + rgb.map((v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0')).join('');
}

/**
 * A tone of a black-metal template on this finish: greys keep their place between the metal
 * (black) and the engraving (white); colours are left alone. Null when it is not a grey.
 */
export function toneOnFinish(color: string, f: CardFinish): string | null {
  const rgb = hex(color);
  if (!rgb) return null;
  const [r, g, b] = rgb;
  if (Math.max(r, g, b) - Math.min(r, g, b) > 14) return null;
  const l = (r + g + b) / 3 / 255;
  const base = hex(f.base)!;
  const ink = hex(f.ink)!;
  return toHex([0, 1, 2].map((i) => base[i] + (ink[i] - base[i]) * l) as [number, number, number]);
}
