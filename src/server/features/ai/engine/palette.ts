/**
 * Palette generator: colour harmony in OKLCH (perceptually even hue steps and lightness),
 * tuned by mood and industry, with every colour's WCAG contrast and a legibility check on the
 * card's metal finishes. Deterministic: the same input always gives the same palette.
 */
import type { ColorPaletteResponse, ColorRole, FinishCheck, Industry, Mood, PaletteColor } from '#shared/schemas/ai';
import { CARD_TYPES } from '#shared/catalogue';
import { colorName, contrastRatio, hexToOklch, normalizeHex, oklchToHex, roundRatio, type Oklch } from '#shared/ai/color';
import { FINISH_STYLES, finishSurface, legibilityOnFinish, worstContrastOnFinish } from './finishes';
import { article } from '#shared/ai/words';
import { HARMONY_OFFSETS, INDUSTRY_PROFILES, MOOD_PROFILES, type Harmony } from './rules';

const USAGE: Record<ColorRole, string> = {
  primary: 'Brand colour: logo, name, or a bold band on Color Metal',
  secondary: 'Supporting colour: job title, dividers and icons',
  accent: 'Highlight used sparingly: QR frame, a single rule or a monogram',
  background: 'Card background or base print',
  surface: 'Panels, the back of the card and the digital profile\'s cards',
  text: 'Body text and contact details',
};

const wrap = (h: number) => ((h % 360) + 360) % 360;

/** Move hue a toward hue b by fraction k along the shorter arc. */
export function pullHue(a: number, b: number, k: number): number {
  let d = wrap(b - a);
  if (d > 180) d -= 360;
  return wrap(a + d * k);
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Adjust lightness (keeping hue and chroma) until the colour reaches `min` contrast against `bg`,
 * moving away from the background's lightness. Returns the first lightness that passes.
 */
export function ensureContrast(color: Oklch, bg: string, min: number): string {
  let hex = oklchToHex(color);
  if (contrastRatio(hex, bg) >= min) return hex;
  const bgL = hexToOklch(bg).l;
  const dir = bgL < 0.6 ? 1 : -1;
  let l = color.l;
  for (let i = 0; i < 60; i++) {
    l = clamp(l + dir * 0.015, 0, 1);
    hex = oklchToHex({ ...color, l });
    if (contrastRatio(hex, bg) >= min) return hex;
    if (l === 0 || l === 1) break;
  }
  // chroma limits lightness at the extremes: fall back to a near-neutral of the same hue
  return oklchToHex({ l: dir > 0 ? 0.985 : 0.12, c: 0.01, h: color.h });
}

/** A colour with its name, role, OKLCH values and WCAG contrast against white and black. */
export function paletteColor(hex: string, role: ColorRole): PaletteColor {
  hex = normalizeHex(hex);
  const o = hexToOklch(hex);
  const onWhite = roundRatio(contrastRatio(hex, '#FFFFFF'));
  const onBlack = roundRatio(contrastRatio(hex, '#000000'));
  return {
    hex,
    name: colorName(hex),
    role,
    usage: USAGE[role],
    oklch: { l: Math.round(o.l * 1000) / 1000, c: Math.round(o.c * 1000) / 1000, h: Math.round(o.h * 10) / 10 },
    contrastOnWhite: onWhite,
    contrastOnBlack: onBlack,
    textOn: onBlack >= onWhite ? '#000000' : '#FFFFFF',
  };
}

export interface PaletteOptions {
  baseColor: string;
  mood: Mood;
  industry: Industry;
  /** a colour the brand already uses for accents (kept, adjusted only if it would be unreadable) */
  accentColor?: string;
}

/** The six role colours plus the harmony used. */
export function buildPalette({ baseColor, mood, industry, accentColor }: PaletteOptions): { colors: PaletteColor[]; harmony: Harmony; seedHue: number; baseRole: ColorRole } {
  const m = MOOD_PROFILES[mood];
  const ind = INDUSTRY_PROFILES[industry];
  const base = normalizeHex(baseColor);
  const b = hexToOklch(base);
  const neutralBase = b.c < 0.03;

  // the seed hue: the base colour's own hue, or the industry's signature when the base is a neutral
  let seedHue = neutralBase ? ind.hue : b.h;
  if (m.pull && neutralBase) seedHue = pullHue(seedHue, m.pull.h, m.pull.k);
  const chromaScale = m.chroma * ind.chroma;

  // background: mood decides dark or light; a neutral base close to that side becomes the background
  let background: string;
  let baseRole: ColorRole = 'primary';
  const bgHue = m.bg.h ?? seedHue;
  if (neutralBase && m.background === 'dark' && b.l < 0.35) {
    background = base;
    baseRole = 'background';
  } else if (neutralBase && m.background === 'light' && b.l > 0.85) {
    background = base;
    baseRole = 'background';
  } else {
    background = oklchToHex({ l: m.bg.l, c: m.bg.c, h: bgHue });
  }
  const dark = hexToOklch(background).l < 0.6;

  // primary: the base colour itself when it has a hue; otherwise synthesised from the seed hue
  let primary: string;
  if (!neutralBase) {
    primary = base;
  } else {
    primary = ensureContrast({ l: dark ? Math.max(m.primaryL, 0.58) : Math.min(m.primaryL, 0.5), c: m.primaryC * ind.chroma, h: seedHue }, background, 3);
  }
  const p = hexToOklch(primary);
  const pHue = neutralBase ? seedHue : p.h;

  const [off1, off2] = HARMONY_OFFSETS[m.harmony];
  let secHue = wrap(pHue + off1);
  let accHue = wrap(pHue + off2);
  // analogous and monochromatic palettes take the industry's conventional accent (gold for finance...)
  if (m.harmony === 'analogous' || m.harmony === 'monochromatic') accHue = ind.accentHue;
  else accHue = pullHue(accHue, ind.accentHue, ind.accentPull);
  if (m.pull) secHue = pullHue(secHue, m.pull.h, m.pull.k * 0.5);

  const secC = m.harmony === 'monochromatic' ? Math.max(0.02, p.c * 0.55) : clamp((neutralBase ? m.primaryC : p.c) * 0.8 * chromaScale, 0.03, 0.24);
  const secL = dark ? Math.max(m.secondaryL, 0.6) : Math.min(m.secondaryL, 0.55);
  const secondary = ensureContrast({ l: secL, c: secC, h: secHue }, background, 3);

  const accC = clamp(m.accentC * ind.chroma * (m.chroma > 1 ? 1.1 : 1), 0.05, 0.3);
  const accL = dark ? Math.max(m.accentL, 0.68) : Math.min(m.accentL, 0.58);
  const accent = accentColor
    ? contrastRatio(accentColor, background) >= 3
      ? normalizeHex(accentColor)
      : ensureContrast(hexToOklch(accentColor), background, 3)
    : ensureContrast({ l: accL, c: accC, h: accHue }, background, 3);

  const bgO = hexToOklch(background);
  const surface = oklchToHex(dark ? { l: clamp(bgO.l + 0.11, 0.26, 0.4), c: 0.018, h: pHue } : { l: clamp(bgO.l - 0.07, 0.82, 0.92), c: 0.012, h: pHue });
  const text = ensureContrast(dark ? { l: 0.96, c: 0.01, h: pHue } : { l: 0.22, c: 0.025, h: pHue }, background, 7);

  const colors = [
    paletteColor(primary, 'primary'),
    paletteColor(secondary, 'secondary'),
    paletteColor(accent, 'accent'),
    paletteColor(background, 'background'),
    paletteColor(surface, 'surface'),
    paletteColor(text, 'text'),
  ];
  return { colors, harmony: m.harmony, seedHue: pHue, baseRole };
}

/**
 * For every card type and finish: the palette colour that stays most legible and its worst-case
 * contrast. Color Metal prints the palette's background, so it is checked against that.
 */
export function finishChecks(colors: PaletteColor[]): FinishCheck[] {
  const bg = colors.find((c) => c.role === 'background')?.hex ?? '#000000';
  const textPref = colors.find((c) => c.role === 'text');
  const out: FinishCheck[] = [];
  for (const ct of CARD_TYPES) {
    // on Color Metal the background is the printed surface itself; on bare metal any colour may be text
    const candidates = ct.id === 'color' ? colors.filter((c) => c.role !== 'background') : colors;
    for (const style of FINISH_STYLES) {
      const f = finishSurface(ct.id, style, bg);
      // prefer the palette's text colour when it is legible; otherwise the most legible colour
      let pick = textPref && legibilityOnFinish(textPref.hex, f).legible ? textPref : undefined;
      if (!pick) pick = [...candidates].sort((a, b) => worstContrastOnFinish(b.hex, f) - worstContrastOnFinish(a.hex, f))[0];
      const res = legibilityOnFinish(pick.hex, f);
      const textRes = textPref ? legibilityOnFinish(textPref.hex, f) : res;
      let note: string;
      if (res.legible && pick === textPref) note = `${pick.name} ${pick.hex} keeps ${res.contrast.toFixed(2)}:1 even in the finish's ${style === 'Matte' ? 'lightest tone' : 'brightest reflections'}.`;
      else if (res.legible)
        note = `The text colour drops to ${textRes.contrast.toFixed(2)}:1 here; set text in ${pick.name} ${pick.hex} (${res.contrast.toFixed(2)}:1) on this finish.`;
      else if (res.contrast >= 3)
        note = `Best palette colour ${pick.hex} reaches only ${res.contrast.toFixed(2)}:1: fine for a large name, too weak for small contact details. Prefer ${style === 'Mirror' ? 'a Matte or Brushed finish' : 'engraving or a darker/lighter text colour'}.`;
      else note = `No palette colour stays legible (best ${res.contrast.toFixed(2)}:1). Use engraving or choose another finish for text.`;
      out.push({
        cardType: ct.id,
        cardTypeLabel: ct.label,
        style,
        surface: f.surface,
        surfaceRange: f.range,
        textColor: pick.hex,
        textRole: pick.role,
        contrast: res.contrast,
        level: res.level,
        legible: res.legible,
        note,
      });
    }
  }
  return out;
}

const HARMONY_WORDS: Record<Harmony, string> = {
  analogous: 'Analogous harmony (neighbouring hues)',
  complementary: 'Complementary harmony (opposite hues)',
  'split-complementary': 'Split-complementary harmony',
  triadic: 'Triadic harmony (three evenly spaced hues)',
  tetradic: 'Tetradic harmony (two complementary pairs)',
  monochromatic: 'Monochromatic harmony (one hue in several tones)',
};

export function generateColorPalette(input: PaletteOptions): ColorPaletteResponse {
  const { colors, harmony, seedHue } = buildPalette(input);
  const m = MOOD_PROFILES[input.mood];
  const ind = INDUSTRY_PROFILES[input.industry];
  const primary = colors[0];
  const accent = colors[2];
  const description =
    `${HARMONY_WORDS[harmony]} around ${primary.name} (hue ${Math.round(seedHue)}°) for ${article(input.mood)} ${input.mood.toLowerCase()} look: ${m.words}. ` +
    (input.industry === 'Other' ? '' : `The ${accent.name.toLowerCase()} accent follows ${input.industry.toLowerCase()} conventions: ${ind.convention}.`);
  return {
    colors,
    harmony,
    description: description.trim(),
    baseColor: normalizeHex(input.baseColor),
    mood: input.mood,
    industry: input.industry,
    finishes: finishChecks(colors),
  };
}
