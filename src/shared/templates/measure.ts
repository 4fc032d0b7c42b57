import { BUNDLED_FONTS, DEFAULT_FONT_FAMILY, bundledFont, closestFace } from '#shared/fonts';
import { FACE_WIDTHS, MEASURED_RANGES } from './font-metrics';

/**
 * Text width from the bundled fonts' advance widths (no DOM, no canvas): the same numbers in the
 * browser preview and in the server render, so fitted text fits in both.
 * Kerning is ignored; callers keep a small safety margin.
 */

export interface TextStyle {
  fontFamily?: string;
  fontSize: number;
  fontWeight?: number;
  fontStyle?: 'normal' | 'italic';
  letterSpacing?: number;
}

const decoded = new Map<string, Map<number, number>>();

function faceWidths(key: string): Map<number, number> {
  let m = decoded.get(key);
  if (m) return m;
  m = new Map();
  const s = FACE_WIDTHS[key] ?? '';
  let i = 0;
  for (const [a, b] of MEASURED_RANGES) {
    for (let cp = a; cp <= b; cp++, i += 2) {
      const pair = s.slice(i, i + 2);
      if (pair && pair !== '--') m.set(cp, parseInt(pair, 36));
    }
  }
  decoded.set(key, m);
  return m;
}

/** First bundled family named in a CSS font-family list ("'Playfair Display', serif"). */
export function resolveFamily(fontFamily: string | undefined): string {
  for (const part of (fontFamily ?? '').split(',')) {
    const f = bundledFont(part);
    if (f) return f.family;
  }
  return DEFAULT_FONT_FAMILY;
}

function faceKey(style: TextStyle): string {
  const family = resolveFamily(style.fontFamily);
  const def = bundledFont(family) ?? BUNDLED_FONTS[0];
  const face = closestFace(def, style.fontWeight ?? 400, style.fontStyle ?? 'normal');
  return `${def.family}|${face.weight}|${face.style}`;
}

/** Width of `text` in user units at the given style. */
export function measureText(text: string, style: TextStyle): number {
  const widths = faceWidths(faceKey(style));
  const fallback = widths.get(0x6e) ?? 550; // 'n': a fair average for glyphs we have no entry for
  let units = 0;
  let count = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // wide scripts (CJK, emoji) are roughly one em
    units += widths.get(cp) ?? (cp >= 0x2e80 ? 1000 : fallback);
    count++;
  }
  return (units / 1000) * style.fontSize + (style.letterSpacing ?? 0) * count;
}
