/**
 * How the card's metal finishes look to a reader, for legibility checks. Each card type of the
 * catalogue has a base surface; each style (Matte, Brushed, Mirror) spreads it over a range of
 * tones: brushed grain catches light in streaks, a mirror reflects whatever is around it. A text
 * colour is legible on a finish when it keeps enough contrast against the worst tone of that range.
 */
import { CARD_TYPES, type CardTypeId } from '#shared/catalogue';
import { contrastRatio, hexToOklch, oklchToHex, roundRatio, wcagLevel, type WcagLevel } from '#shared/ai/color';

export const FINISH_STYLES = ['Matte', 'Brushed', 'Mirror'] as const;
export type FinishStyle = (typeof FINISH_STYLES)[number];

/** Base surface per card type ("color" is printed: its surface is the design's own background). */
const BASE_SURFACE: Record<Exclude<CardTypeId, 'color'>, string> = {
  standard: '#1E1E20', // premium black metal
  black_anodized: '#141416', // deeper, slightly cooler black
  luxury_titanium: '#8C8F93', // raw titanium grey
};

/** Lightness spread (OKLCH L) each style adds around the base: [darker, lighter]. */
const STYLE_SPREAD: Record<FinishStyle, [number, number]> = {
  Matte: [0, 0.03],
  Brushed: [0.04, 0.1],
  Mirror: [0.1, 0.28],
};

export interface FinishSurface {
  cardType: CardTypeId;
  cardTypeLabel: string;
  style: FinishStyle;
  surface: string;
  range: [string, string];
}

/** The surface of one finish; `printedBackground` is used for Color Metal (printed on the card). */
export function finishSurface(cardType: CardTypeId, style: FinishStyle, printedBackground = '#FFFFFF'): FinishSurface {
  const base = cardType === 'color' ? printedBackground : BASE_SURFACE[cardType];
  const label = CARD_TYPES.find((c) => c.id === cardType)?.label ?? cardType;
  const o = hexToOklch(base);
  // a printed colour on metal still takes the style's sheen, but less than bare metal
  const k = cardType === 'color' ? 0.5 : 1;
  const [down, up] = STYLE_SPREAD[style];
  const dark = oklchToHex({ ...o, l: Math.max(0, o.l - down * k) });
  const light = oklchToHex({ ...o, l: Math.min(1, o.l + up * k), c: o.c * 0.85 });
  return { cardType, cardTypeLabel: label, style, surface: base.toUpperCase(), range: [dark, light] };
}

/** Worst-case contrast of a text colour over a finish's tone range (and its base). */
export function worstContrastOnFinish(text: string, f: FinishSurface): number {
  return Math.min(contrastRatio(text, f.surface), contrastRatio(text, f.range[0]), contrastRatio(text, f.range[1]));
}

export interface LegibilityResult {
  contrast: number;
  level: WcagLevel;
  legible: boolean;
}

/**
 * Card text is small (7-9 pt details), so a finish is legible for body text at WCAG AA (4.5:1)
 * in its worst light; names set large pass from 3:1.
 */
export function legibilityOnFinish(text: string, f: FinishSurface): LegibilityResult {
  const ratio = roundRatio(worstContrastOnFinish(text, f));
  return { contrast: ratio, level: wcagLevel(ratio), legible: ratio >= 4.5 };
}
