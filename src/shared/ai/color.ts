/**
 * Colour math for the design assistant: sRGB <-> OKLab/OKLCH (Björn Ottosson's matrices),
 * gamut mapping by chroma reduction, WCAG 2.x relative luminance and contrast ratio.
 * Pure functions, no Node or DOM APIs: the server engine and the web page share them.
 */

export interface Rgb {
  /** 0..255 */
  r: number;
  g: number;
  b: number;
}
export interface Oklab {
  L: number;
  a: number;
  b: number;
}
export interface Oklch {
  /** perceived lightness 0..1 */
  l: number;
  /** chroma 0..~0.37 */
  c: number;
  /** hue angle in degrees 0..360 (meaningless when c is ~0) */
  h: number;
}

const HEX_RE = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function isHexColor(s: string): boolean {
  return HEX_RE.test(s.trim());
}

/** "#abc" or "#AABBCC" -> "#AABBCC". Throws on anything else. */
export function normalizeHex(s: string): string {
  const m = HEX_RE.exec(s.trim());
  if (!m) throw new Error(`Not a hex colour: ${s}`);
  let h = m[1];
  if (h.length === 3) h = h[0] + h[0] + h[1] + h[1] + h[2] + h[2];
  return '#' + h.toUpperCase();
}

export function hexToRgb(hex: string): Rgb {
  const h = normalizeHex(hex);
  return { r: parseInt(h.slice(1, 3), 16), g: parseInt(h.slice(3, 5), 16), b: parseInt(h.slice(5, 7), 16) };
}

const to2 = (n: number) => Math.round(Math.min(255, Math.max(0, n))).toString(16).padStart(2, '0').toUpperCase();
export function rgbToHex({ r, g, b }: Rgb): string {
  return `#${to2(r)}${to2(g)}${to2(b)}`;
}

/** sRGB channel 0..1 -> linear light */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
/** linear light -> sRGB channel 0..1 */
export function linearToSrgb(c: number): number {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
}

export function linearRgbToOklab(r: number, g: number, b: number): Oklab {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return {
    L: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

/** OKLab -> linear sRGB (may be out of 0..1 when the colour is outside the sRGB gamut) */
export function oklabToLinearRgb({ L, a, b }: Oklab): [number, number, number] {
  const l_ = L + 0.3963377774 * a + 0.2158037573 * b;
  const m_ = L - 0.1055613458 * a - 0.0638541728 * b;
  const s_ = L - 0.0894841775 * a - 1.291485548 * b;
  const l = l_ * l_ * l_;
  const m = m_ * m_ * m_;
  const s = s_ * s_ * s_;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

export function rgbToOklab({ r, g, b }: Rgb): Oklab {
  return linearRgbToOklab(srgbToLinear(r / 255), srgbToLinear(g / 255), srgbToLinear(b / 255));
}

export function oklabToOklch({ L, a, b }: Oklab): Oklch {
  const c = Math.sqrt(a * a + b * b);
  let h = (Math.atan2(b, a) * 180) / Math.PI;
  if (h < 0) h += 360;
  return { l: L, c, h: c < 1e-4 ? 0 : h };
}

export function oklchToOklab({ l, c, h }: Oklch): Oklab {
  const rad = (h * Math.PI) / 180;
  return { L: l, a: c * Math.cos(rad), b: c * Math.sin(rad) };
}

export function hexToOklch(hex: string): Oklch {
  return oklabToOklch(rgbToOklab(hexToRgb(hex)));
}

const EPS = 1e-6;
function inGamut([r, g, b]: [number, number, number]) {
  return r >= -EPS && r <= 1 + EPS && g >= -EPS && g <= 1 + EPS && b >= -EPS && b <= 1 + EPS;
}

/**
 * OKLCH -> hex, mapping into sRGB by lowering chroma (keeping lightness and hue) until it fits:
 * the perceptual look of the colour is kept as far as the screen/print gamut allows.
 */
export function oklchToHex(input: Oklch): string {
  const l = Math.min(1, Math.max(0, input.l));
  const h = ((input.h % 360) + 360) % 360;
  let c = Math.max(0, input.c);
  let rgb = oklabToLinearRgb(oklchToOklab({ l, c, h }));
  if (!inGamut(rgb)) {
    let lo = 0;
    let hi = c;
    for (let i = 0; i < 24; i++) {
      const mid = (lo + hi) / 2;
      if (inGamut(oklabToLinearRgb(oklchToOklab({ l, c: mid, h })))) lo = mid;
      else hi = mid;
    }
    c = lo;
    rgb = oklabToLinearRgb(oklchToOklab({ l, c, h }));
  }
  const ch = (v: number) => Math.round(linearToSrgb(Math.min(1, Math.max(0, v))) * 255);
  return rgbToHex({ r: ch(rgb[0]), g: ch(rgb[1]), b: ch(rgb[2]) });
}

/** WCAG 2.x relative luminance of an sRGB colour, 0 (black) .. 1 (white). */
export function relativeLuminance(hex: string): number {
  const { r, g, b } = hexToRgb(hex);
  return 0.2126 * srgbToLinear(r / 255) + 0.7152 * srgbToLinear(g / 255) + 0.0722 * srgbToLinear(b / 255);
}

export function contrastFromLuminance(l1: number, l2: number): number {
  const hi = Math.max(l1, l2);
  const lo = Math.min(l1, l2);
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG contrast ratio between two colours, 1..21 (not rounded). */
export function contrastRatio(a: string, b: string): number {
  return contrastFromLuminance(relativeLuminance(a), relativeLuminance(b));
}

/** Ratio rounded down to 2 decimals, so a shown "4.50" never hides a 4.499 that fails AA. */
export function roundRatio(r: number): number {
  return Math.floor(r * 100 + 1e-9) / 100;
}

export type WcagLevel = 'AAA' | 'AA' | 'AA Large' | 'Fail';

/** WCAG 2.x rating for normal text (AA 4.5, AAA 7; 3 passes only for large text). */
export function wcagLevel(ratio: number): WcagLevel {
  if (ratio >= 7) return 'AAA';
  if (ratio >= 4.5) return 'AA';
  if (ratio >= 3) return 'AA Large';
  return 'Fail';
}

/** Euclidean distance in OKLab (a perceptual colour difference; ~0.02 is just noticeable). */
export function deltaE(a: string, b: string): number {
  const x = rgbToOklab(hexToRgb(a));
  const y = rgbToOklab(hexToRgb(b));
  return Math.hypot(x.L - y.L, x.a - y.a, x.b - y.b);
}

const HUE_NAMES: Array<[number, string]> = [
  [15, 'Rose'],
  [36, 'Red'],
  [50, 'Vermilion'],
  [68, 'Orange'],
  [80, 'Amber'],
  [100, 'Gold'],
  [118, 'Olive'],
  [150, 'Green'],
  [175, 'Emerald'],
  [200, 'Teal'],
  [225, 'Cyan'],
  [245, 'Azure'],
  [268, 'Blue'],
  [285, 'Indigo'],
  [305, 'Violet'],
  [330, 'Purple'],
  [350, 'Magenta'],
  [360, 'Rose'],
];

/** A short descriptive name ("Deep Blue", "Soft Teal", "Charcoal") from the colour's OKLCH values. */
export function colorName(hex: string): string {
  const { l, c, h } = hexToOklch(hex);
  if (c < 0.025) {
    if (l < 0.12) return 'Black';
    if (l < 0.3) return 'Charcoal';
    if (l < 0.45) return 'Graphite';
    if (l < 0.62) return 'Slate Grey';
    if (l < 0.8) return 'Silver';
    if (c >= 0.012 && h >= 40 && h <= 120 && l >= 0.9) return 'Ivory';
    if (l < 0.95) return 'Pearl';
    return 'White';
  }
  const hue = HUE_NAMES.find(([limit]) => h < limit)?.[1] ?? 'Rose';
  // a few names designers actually use
  if (hue === 'Blue' || hue === 'Azure' || hue === 'Indigo') {
    if (l < 0.38) return 'Navy';
  }
  if ((hue === 'Red' || hue === 'Rose') && l < 0.42) return 'Burgundy';
  if ((hue === 'Gold' || hue === 'Amber') && l < 0.5) return 'Bronze';
  if ((hue === 'Gold' || hue === 'Amber') && l >= 0.7 && c >= 0.08) return 'Gold';
  if ((hue === 'Green' || hue === 'Emerald') && l < 0.38) return 'Forest';
  if ((hue === 'Orange' || hue === 'Amber' || hue === 'Gold') && c < 0.07 && l > 0.85) return 'Cream';
  const tone = l < 0.3 ? 'Deep' : l < 0.5 ? 'Dark' : l > 0.88 ? 'Pale' : l > 0.75 ? 'Light' : c < 0.07 ? 'Muted' : c > 0.17 ? 'Vivid' : '';
  return tone ? `${tone} ${hue}` : hue;
}
