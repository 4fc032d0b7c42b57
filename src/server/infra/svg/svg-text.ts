/**
 * Small hand-written readers for the text of SVG attributes and CSS (issue 32): numbers, lengths,
 * transform lists and declaration lists. Each is one forward pass over its input (no regular
 * expression, no backtracking), so its time is linear in the text whatever an attacker sends.
 */

import { HttpError } from '#server/http/http-errors';

/** An uploaded SVG's text: UTF-8 or 415 (thrown where the bytes are decoded: the scan thread or the sandbox). */
export function svgUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(415, 'SVG files must be UTF-8 text');
  }
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;
}

/** ASCII lower case without allocating for strings that are already lower case. */
export function lower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.toLowerCase();
  }
  return s;
}

/** The numbers of a list such as "1 2,3 -4.5e2": separators are whitespace and commas; anything else ends a number. */
export function parseNumberList(s: string, max = 64): number[] {
  const out: number[] = [];
  let i = 0;
  const n = s.length;
  while (i < n && out.length < max) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 0x2c) {
      i++;
      continue;
    }
    const start = i;
    // a number token: sign, digits, dot, exponent (its own sign); a second sign starts a new number
    i++;
    while (i < n) {
      const d = s.charCodeAt(i);
      const prev = s.charCodeAt(i - 1);
      if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45) i++;
      else if ((d === 0x2b || d === 0x2d) && (prev === 0x65 || prev === 0x45)) i++;
      else break;
    }
    out.push(Number(s.slice(start, i)));
    // skip a unit or any other letters after the number
    while (i < n && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== 0x2c && s.charCodeAt(i) !== 0x2d && s.charCodeAt(i) !== 0x2b) {
      const d = s.charCodeAt(i);
      if (d >= 0x30 && d <= 0x39) break;
      i++;
    }
  }
  return out;
}

export interface Length {
  value: number;
  /** '' (user units / px), '%', 'em', 'pt', ... lower case */
  unit: string;
}

/** A single CSS/SVG length ("12", "12.5px", "50%", "2em"), or null when it is not one. */
export function parseLength(raw: string): Length | null {
  const s = raw.trim();
  if (!s || s.length > 64) return null;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const ok = (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || ((c === 0x65 || c === 0x45) && i > 0 && i + 1 < s.length && isNumberStart(s.charCodeAt(i + 1)));
    if (!ok) break;
    i++;
  }
  const value = Number(s.slice(0, i));
  if (i === 0 || Number.isNaN(value)) return null;
  return { value, unit: lower(s.slice(i).trim()) };
}

function isNumberStart(c: number) {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d;
}

/** A length in user units (px); absolute units converted at 96 dpi; relative units answer null. */
export function absoluteLength(l: Length | null): number | null {
  if (!l) return null;
  switch (l.unit) {
    case '':
    case 'px':
      return l.value;
    case 'pt':
      return (l.value * 4) / 3;
    case 'pc':
      return l.value * 16;
    case 'in':
      return l.value * 96;
    case 'cm':
      return (l.value * 96) / 2.54;
    case 'mm':
      return (l.value * 96) / 25.4;
    case 'q':
      return (l.value * 96) / 101.6;
    default:
      return null;
  }
}

/** Largest singular value of the 2x2 linear part [a c; b d] (how much it can stretch a length). */
export function stretchOf(a: number, b: number, c: number, d: number): number {
  const s = a * a + b * b + c * c + d * d;
  const det = a * d - b * c;
  const disc = Math.max(0, s * s - 4 * det * det);
  return Math.sqrt((s + Math.sqrt(disc)) / 2);
}

/**
 * How much a transform list ("translate(1 2) scale(3) matrix(...)") can stretch a length at most:
 * the product of each function's largest singular value (an upper bound for the whole list).
 * Unknown functions count as 1 (a renderer ignores an invalid list); a non-finite number is Infinity.
 */
export function transformStretch(s: string): number {
  let total = 1;
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && (isSpace(s.charCodeAt(i)) || s.charCodeAt(i) === 0x2c)) i++;
    const nameStart = i;
    while (i < n && isLetter(s.charCodeAt(i))) i++;
    const name = lower(s.slice(nameStart, i));
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    if (i >= n || s.charCodeAt(i) !== 0x28 /* ( */) break;
    const close = s.indexOf(')', i + 1);
    if (close < 0) break;
    const args = parseNumberList(s.slice(i + 1, close), 8);
    i = close + 1;
    if (args.some((x) => !Number.isFinite(x))) return Infinity;
    let k = 1;
    if (name === 'scale' && args.length > 0) k = Math.max(Math.abs(args[0]), Math.abs(args[1] ?? args[0]));
    else if (name === 'matrix' && args.length >= 4) k = stretchOf(args[0], args[1], args[2], args[3]);
    else if (name === 'skewx' && args.length > 0) k = stretchOf(1, 0, Math.tan((args[0] * Math.PI) / 180), 1);
    else if (name === 'skewy' && args.length > 0) k = stretchOf(1, Math.tan((args[0] * Math.PI) / 180), 0, 1);
    else if (name === 'scalex' || name === 'scaley') k = Math.max(1, Math.abs(args[0] ?? 1));
    else if (name === 'scale3d' || name === 'matrix3d') k = Infinity; // not SVG: treated as unbounded
    if (!Number.isFinite(k)) return Infinity;
    total *= Math.max(k, 0);
  }
  return total;
}

function isLetter(c: number) {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** The declarations of a style attribute ("a: b; c: d") as [name, value] pairs, names lower case. */
export function parseDeclarations(s: string, max = 256): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  const n = s.length;
  while (i < n && out.length < max) {
    let end = s.indexOf(';', i);
    if (end < 0) end = n;
    const colon = s.indexOf(':', i);
    if (colon >= 0 && colon < end) out.push([lower(s.slice(i, colon).trim()), s.slice(colon + 1, end).trim()]);
    i = end + 1;
  }
  return out;
}

/** The fragment ids of every `url(#id)` in a value (quoted or not), in one pass. */
export function urlFragments(s: string, max = 64): string[] {
  const out: string[] = [];
  let from = 0;
  const low = lower(s);
  while (out.length < max) {
    const at = low.indexOf('url(', from);
    if (at < 0) break;
    let i = at + 4;
    while (i < s.length && (isSpace(s.charCodeAt(i)) || s.charCodeAt(i) === 0x22 || s.charCodeAt(i) === 0x27)) i++;
    if (s.charCodeAt(i) === 0x23 /* # */) {
      const start = i + 1;
      i = start;
      while (i < s.length) {
        const c = s.charCodeAt(i);
        if (c === 0x29 || c === 0x22 || c === 0x27 || isSpace(c)) break;
        i++;
      }
      if (i > start) out.push(s.slice(start, i));
    }
    from = Math.max(i, at + 4);
  }
  return out;
}
