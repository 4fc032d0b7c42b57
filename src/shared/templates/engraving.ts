import { finishOf, type CardFinish } from './look';

/**
 * How a card's artwork comes out on its metal (issue 37, decision 37-06): the one rule the print
 * files, the staff's print proof and the designer's "as engraved" preview share. A colour holds an
 * amount of the finish's engraving (or print) tone, 0 the bare metal and 1 the full tone, measured
 * on its brightness between the metal's tone and the engraving's; under MIN_INK it is the metal
 * itself (not engraved, not printed).
 */

/** Below this share of the engraving tone a mark is the metal itself, not engraved or printed. */
export const MIN_INK = 0.12;

type Rgb = [number, number, number];

const lum = (rgb: Rgb) => (rgb[0] + rgb[1] + rgb[2]) / 3 / 255;

function hexRgb(c: string): Rgb {
  const h = c.replace('#', '');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** The finish's metal tone and the distance to its engraving tone (for per-pixel work). */
export function inkScale(f: CardFinish): { base: number; span: number } {
  const base = lum(hexRgb(f.base));
  return { base, span: lum(hexRgb(f.ink)) - base };
}

/** How much of the engraving (or print) tone a colour holds on this finish: 0 the metal, 1 the ink. */
export function inkAmount(rgb: Rgb, f: CardFinish): number {
  const { base, span } = inkScale(f);
  return Math.max(0, Math.min(1, (lum(rgb) - base) / span));
}

/** Card types engraved (one tone, no colour); Color Metal is printed. */
export const isEngraved = (cardType: string) => cardType !== 'color';

/**
 * The "as engraved" (or, on Color Metal, "as printed") look as numbers for an SVG filter, made from
 * inkScale and MIN_INK: `amount` is the colour matrix row that turns a pixel's sRGB into its ink
 * amount; `tables` (engraved metals) the R, G and B transfer tables from the amount to the finish's
 * colour (the metal under MIN_INK, then the engraving's tone at that density); `mask` (Color Metal)
 * the alpha table that keeps only what is printed; `base` the metal's colour.
 */
export function engravingFilter(cardType: string, steps = 100): { engraved: boolean; amount: number[]; tables: [string, string, string]; mask: string; base: string } {
  const f = finishOf(cardType) ?? finishOf('standard')!;
  const { base, span } = inkScale(f);
  const k = 1 / (3 * span);
  const amount = [k, k, k, 0, -base / span];
  const b = hexRgb(f.base).map((v) => v / 255);
  const i = hexRgb(f.ink).map((v) => v / 255);
  const r4 = (v: number) => String(Math.round(v * 10000) / 10000);
  const tables = [0, 1, 2].map((c) => {
    const out: string[] = [];
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      out.push(r4(t < MIN_INK ? b[c] : b[c] + (i[c] - b[c]) * t));
    }
    return out.join(' ');
  }) as [string, string, string];
  const mask: string[] = [];
  for (let s = 0; s < steps; s++) mask.push(s / steps < MIN_INK ? '0' : '1');
  return { engraved: isEngraved(f.cardType), amount, tables, mask: mask.join(' '), base: f.base };
}
