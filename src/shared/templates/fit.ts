import { measureText, type TextStyle } from './measure';

/**
 * Fitting a value into a box on the card: shrink the font (down to a minimum), or wrap onto up to
 * N lines (shrinking when N lines are not enough); as a last resort the text is cut with an
 * ellipsis, so nothing ever runs off the card.
 */

export interface FitSpec {
  maxWidth: number;
  mode: 'shrink' | 'wrap';
  maxLines: number;
  minSize: number;
}

export interface FitResult {
  lines: string[];
  fontSize: number;
  letterSpacing: number;
  /** true when the text had to be cut */
  truncated: boolean;
}

const ELLIPSIS = '\u2026';
// kerning and rounding: keep a hair of room
const SAFETY = 0.985;

function at(style: TextStyle, size: number): TextStyle {
  const ratio = size / style.fontSize;
  return { ...style, fontSize: size, letterSpacing: (style.letterSpacing ?? 0) * ratio };
}

export function fits(text: string, style: TextStyle, maxWidth: number): boolean {
  return measureText(text, style) <= maxWidth * SAFETY;
}

/** Cuts `text` so that text + '…' fits. */
export function truncateToWidth(text: string, style: TextStyle, maxWidth: number): string {
  if (fits(text, style, maxWidth)) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(chars.slice(0, mid).join('').trimEnd() + ELLIPSIS, style, maxWidth)) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('').trimEnd() + ELLIPSIS;
}

/** Breaks one over-long word at the best place it can (after @ . - / _ or anywhere). */
function breakWord(word: string, style: TextStyle, maxWidth: number): string[] {
  const out: string[] = [];
  let rest = word;
  while (rest && !fits(rest, style, maxWidth)) {
    const chars = [...rest];
    let cut = 1;
    for (let i = 1; i <= chars.length; i++) {
      if (fits(chars.slice(0, i).join(''), style, maxWidth)) cut = i;
      else break;
    }
    // prefer a natural break point in the last 40% of the piece
    for (let i = cut; i > Math.floor(cut * 0.6); i--) {
      if (/[@./_-]/.test(chars[i - 1] ?? '')) {
        cut = i;
        break;
      }
    }
    out.push(chars.slice(0, cut).join(''));
    rest = chars.slice(cut).join('');
  }
  if (rest) out.push(rest);
  return out;
}

/** Greedy word wrap at the given style. */
export function wrapLines(text: string, style: TextStyle, maxWidth: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate, style, maxWidth)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    if (fits(word, style, maxWidth)) line = word;
    else {
      const pieces = breakWord(word, style, maxWidth);
      lines.push(...pieces.slice(0, -1));
      line = pieces[pieces.length - 1] ?? '';
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The text left after skipping `count` non-space characters (keeps the original spacing). */
function restAfter(text: string, count: number): string {
  let seen = 0;
  let i = 0;
  const chars = [...text];
  while (i < chars.length && seen < count) {
    if (!/\s/.test(chars[i])) seen++;
    i++;
  }
  return chars.slice(i).join('').trim();
}

export function fitText(text: string, style: TextStyle, spec: FitSpec): FitResult {
  const base = style.fontSize;
  const minSize = Math.min(base, Math.max(1, spec.minSize));
  const done = (lines: string[], s: TextStyle, truncated = false): FitResult => ({
    lines,
    fontSize: Math.round(s.fontSize * 100) / 100,
    letterSpacing: Math.round((s.letterSpacing ?? 0) * 100) / 100,
    truncated,
  });
  if (!text || !(spec.maxWidth > 0)) return done(text ? [text] : [], style);
  if (fits(text, style, spec.maxWidth)) return done([text], style);

  const maxLines = spec.mode === 'wrap' ? Math.max(1, Math.floor(spec.maxLines)) : 1;

  if (maxLines === 1) {
    // one line: shrink in proportion, then nudge down for letter spacing and rounding
    const ratio = (spec.maxWidth * SAFETY) / measureText(text, style);
    let size = Math.max(minSize, base * ratio);
    let s = at(style, size);
    while (!fits(text, s, spec.maxWidth) && size > minSize) {
      size = Math.max(minSize, size * 0.97);
      s = at(style, size);
    }
    if (fits(text, s, spec.maxWidth)) return done([text], s);
    return done([truncateToWidth(text, s, spec.maxWidth)], s, true);
  }

  let size = base;
  for (;;) {
    const s = at(style, size);
    const lines = wrapLines(text, s, spec.maxWidth);
    if (lines.length <= maxLines) return done(lines, s);
    if (size <= minSize) {
      const kept = lines.slice(0, maxLines - 1);
      const rest = restAfter(text, kept.join('').replace(/\s+/g, '').length);
      return done([...kept, truncateToWidth(rest, s, spec.maxWidth)], s, true);
    }
    size = Math.max(minSize, size * 0.94);
  }
}
