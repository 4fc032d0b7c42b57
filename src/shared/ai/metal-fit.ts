import { CARD_TYPES, formatUsd, type CardTypeId } from '#shared/catalogue';
import { CARD_FINISHES } from '#shared/templates/look';
import { contrastRatio, isHexColor, roundRatio } from './color';

/**
 * What the AI assistant may apply to a card of a given metal (issue 37, decision 37-07): a colour
 * fits when the metal can make it and it stays legible on the metal in its worst light. Engraved
 * metals make only their own colours (the engraving; titanium's gold anodizing), which always fit;
 * Color Metal prints any colour that keeps 4.5:1 against its brushed steel. The web marks each suggestion with this and the
 * server's apply check (POST /api/ai/apply) uses the same function.
 */

/** Small card text (7-9 pt) needs WCAG AA in the metal's worst light. */
export const METAL_MIN_CONTRAST = 4.5;

export interface ColourFit {
  colour: string;
  cardType: CardTypeId;
  fits: boolean;
  /** worst-case contrast against the metal's tones (engraved metals: of the engraving) */
  contrast: number;
  /** why it does not fit (empty when it fits) */
  reason: string;
}

const label = (id: CardTypeId) => CARD_TYPES.find((c) => c.id === id)!.label;

/** The darkest and brightest tones of a metal's surface (its brushed sheen). */
function surfaceTones(cardType: CardTypeId): string[] {
  const f = CARD_FINISHES[cardType];
  return [f.base, ...f.sheen.map(([, c]) => c)];
}

/** Worst contrast of a colour over the metal's tones. */
export function contrastOnMetal(colour: string, cardType: CardTypeId): number {
  return roundRatio(Math.min(...surfaceTones(cardType).map((t) => contrastRatio(colour, t))));
}

const isEngraved = (cardType: CardTypeId) => cardType !== 'color';

/** Whether the metal can make this colour and it stays legible there. */
export function colourFit(colour: string, cardType: CardTypeId): ColourFit {
  const hex = colour.trim().toLowerCase();
  if (!isHexColor(hex)) return { colour, cardType, fits: false, contrast: 0, reason: 'Not a colour.' };
  const contrast = contrastOnMetal(hex, cardType);
  const f = CARD_FINISHES[cardType];
  // what the metal's own process makes (its engraving, titanium's gold anodizing) is the metal's
  if (f.accents.includes(hex)) return { colour, cardType, fits: true, contrast, reason: '' };
  if (isEngraved(cardType)) {
    return { colour, cardType, fits: false, contrast, reason: `${label(cardType)} is engraved: the metal shows through, so the colour cannot be printed.` };
  }
  if (contrast < METAL_MIN_CONTRAST) {
    return {
      colour,
      cardType,
      fits: false,
      contrast,
      reason: `Only ${contrast.toFixed(2)}:1 against ${label(cardType)} in its worst light (small text needs ${METAL_MIN_CONTRAST}:1).`,
    };
  }
  return { colour, cardType, fits: true, contrast, reason: '' };
}

export interface PriceChange {
  from: CardTypeId;
  to: CardTypeId;
  fromLabel: string;
  toLabel: string;
  /** cents a card, positive when dearer */
  differenceCents: number;
  /** "Standard Metal ($4.00 a card) to Color Metal ($5.00 a card): +$1.00 a card" */
  text: string;
}

/** The price change of switching a card from one metal to another (null when it is the same). */
export function priceChange(from: CardTypeId, to: CardTypeId): PriceChange | null {
  if (from === to) return null;
  const a = CARD_TYPES.find((c) => c.id === from)!;
  const b = CARD_TYPES.find((c) => c.id === to)!;
  const d = b.priceCents - a.priceCents;
  const sign = d > 0 ? '+' : d < 0 ? '-' : '±';
  return {
    from,
    to,
    fromLabel: a.label,
    toLabel: b.label,
    differenceCents: d,
    text: `${a.label} (${formatUsd(a.priceCents)} a card) to ${b.label} (${formatUsd(b.priceCents)} a card): ${sign}${formatUsd(Math.abs(d))} a card`,
  };
}

export interface ApplyPlan {
  /** fits the chosen metal: applied as it is */
  fitsHere: ColourFit;
  /** does not fit here but Color Metal prints it legibly: offered with a confirm naming the price */
  switchTo: { cardType: CardTypeId; change: PriceChange } | null;
}

/** What "Apply to my card" can do with a colour on the chosen metal. */
export function planColour(colour: string, cardType: CardTypeId): ApplyPlan {
  const here = colourFit(colour, cardType);
  if (here.fits || cardType === 'color') return { fitsHere: here, switchTo: null };
  const there = colourFit(colour, 'color');
  return { fitsHere: here, switchTo: there.fits ? { cardType: 'color', change: priceChange(cardType, 'color')! } : null };
}
