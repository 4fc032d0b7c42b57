import { isSpace, lower } from './svg-text';

/**
 * Makes CSS text unable to load anything (issue 19.4), in one forward pass (issue 32: no regular
 * expression runs over attacker CSS; each character is looked at a bounded number of times):
 *
 * - CSS escapes are removed (they could hide "url(" or "@import", e.g. u\72l();
 * - comments become a space (they could split a name from its "(": image-set/＊＊/("x"));
 * - @import, @namespace, @document (any vendor spelling) are removed up to their ";" or their block,
 *   @font-face with its block;
 * - url(...) is kept only as url(#fragment); any other url() becomes `none`;
 * - image-set(), image(), cross-fade(), element(), src() (any vendor spelling) and IE's
 *   expression() become `none`, without their arguments (no outside address is left at all);
 * - `behavior:` and `-moz-binding` are renamed so they do nothing.
 */
export function cleanCss(css: string): string {
  const s = css;
  const n = s.length;
  let out = '';
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 0x5c /* \ */) {
      i = skipEscape(s, i);
      continue;
    }
    if (c === 0x2f /* / */ && s.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = s.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out += ' ';
      continue;
    }
    if (c === 0x22 || c === 0x27) {
      // a string: copied without its escapes, "(" and "@" (so that no function or at-rule can be formed
      // from its text, even by a reader that disagrees about where it ends)
      const { text, next } = readString(s, i);
      out += text.indexOf('(') >= 0 || text.indexOf('@') >= 0 ? text.split('(').join('').split('@').join('') : text;
      i = next;
      continue;
    }
    if (c === 0x40 /* @ */) {
      const { name, next } = readIdent(s, i + 1);
      const bare = unprefixed(lower(name));
      // (any at-rule whose name starts with one of these: a reader that splits names differently
      // must not find one left)
      if (bare.startsWith('import') || bare.startsWith('namespace') || bare.startsWith('document') || bare.startsWith('font-face')) {
        i = skipAtRule(s, next);
        continue;
      }
      out += '@' + name;
      i = next;
      continue;
    }
    if (isIdentStart(c) || (c === 0x2d && i + 1 < n && (isIdentStart(s.charCodeAt(i + 1)) || s.charCodeAt(i + 1) === 0x2d))) {
      const { name, next } = readIdent(s, i);
      const low = lower(name);
      // a function: the name, optional spaces or comments, then "("
      const open = afterSpaceAndComments(s, next);
      if (s.charCodeAt(open) === 0x28 /* ( */) {
        if (low === 'url') {
          const { ref, next: after } = readUrl(s, open + 1);
          if (ref !== null && isLocalRef(ref)) out += `url(${ref})`;
          else out += 'none';
          i = after;
          continue;
        }
        const bare = unprefixed(low);
        if (bare === 'image-set' || bare === 'image' || bare === 'cross-fade' || bare === 'element' || bare === 'src' || low === 'expression') {
          out += 'none';
          i = skipGroup(s, open);
          continue;
        }
        out += name;
        i = next;
        continue;
      }
      if (low === 'behavior' && s.charCodeAt(open) === 0x3a /* : */) {
        out += 'x-behavior';
        i = next;
        continue;
      }
      if (low === '-moz-binding') {
        out += 'x-binding';
        i = next;
        continue;
      }
      out += name;
      i = next;
      continue;
    }
    // a run of characters that start nothing above, copied at once
    const start = i;
    i++;
    while (i < n && !startsSomething(s.charCodeAt(i))) i++;
    out += s.slice(start, i);
  }
  return out;
}

function startsSomething(c: number): boolean {
  return c === 0x5c || c === 0x2f || c === 0x22 || c === 0x27 || c === 0x40 || c === 0x2d || isIdentStart(c);
}

/** A local fragment reference such as #grad (XML name characters only). */
export function isLocalRef(ref: string): boolean {
  const r = ref.trim();
  if (r.length < 2 || r.charCodeAt(0) !== 0x23) return false;
  const first = r.charCodeAt(1);
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a) || first === 0x5f)) return false;
  for (let k = 2; k < r.length; k++) {
    const c = r.charCodeAt(k);
    const ok = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x3a || c === 0x2d;
    if (!ok) return false;
  }
  return true;
}

function unprefixed(name: string): string {
  // -webkit-image-set, -moz-element, -o-..., -ms-...
  if (name.charCodeAt(0) === 0x2d && name.charCodeAt(1) !== 0x2d) {
    const dash = name.indexOf('-', 1);
    if (dash > 1) return name.slice(dash + 1);
  }
  return name;
}

function isIdentStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c >= 0x80;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
}

/** An identifier from `i` (escapes inside it are dropped, as everywhere). */
function readIdent(s: string, i: number): { name: string; next: number } {
  let name = '';
  let k = i;
  while (k < s.length) {
    const c = s.charCodeAt(k);
    if (isIdentChar(c)) {
      const start = k;
      while (k < s.length && isIdentChar(s.charCodeAt(k))) k++;
      name += s.slice(start, k);
    } else if (c === 0x5c) k = skipEscape(s, k);
    else break;
  }
  return { name, next: k };
}

/** A backslash escape: up to six hex digits and one optional space, or one character. */
function skipEscape(s: string, i: number): number {
  let k = i + 1;
  let hex = 0;
  while (k < s.length && hex < 6 && isHex(s.charCodeAt(k))) {
    k++;
    hex++;
  }
  if (hex > 0) return k < s.length && isSpace(s.charCodeAt(k)) ? k + 1 : k;
  return Math.min(s.length, k + 1);
}

function isHex(c: number) {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function afterSpaceAndComments(s: string, i: number): number {
  let k = i;
  for (;;) {
    while (k < s.length && isSpace(s.charCodeAt(k))) k++;
    if (s.charCodeAt(k) === 0x2f && s.charCodeAt(k + 1) === 0x2a) {
      const end = s.indexOf('*/', k + 2);
      if (end < 0) return s.length;
      k = end + 2;
      continue;
    }
    return k;
  }
}

/** A quoted string from its opening quote: its text (quotes kept, escapes dropped) and what follows it. */
function readString(s: string, i: number): { text: string; next: number } {
  const q = s.charCodeAt(i);
  let text = s[i];
  let k = i + 1;
  while (k < s.length) {
    const c = s.charCodeAt(k);
    if (c === 0x5c) {
      k = skipEscape(s, k);
      continue;
    }
    if (c === q) return { text: text + s[k], next: k + 1 };
    if (c === 0x0a) break; // CSS ends an unclosed string at the line's end
    const start = k;
    while (k < s.length) {
      const d = s.charCodeAt(k);
      if (d === q || d === 0x5c || d === 0x0a) break;
      k++;
    }
    text += s.slice(start, k);
  }
  return { text: text + String.fromCharCode(q), next: k };
}

/** The argument of url( from just after "(": the reference (null if malformed) and what follows ")". */
function readUrl(s: string, i: number): { ref: string | null; next: number } {
  let k = afterSpaceAndComments(s, i);
  let ref: string;
  const c = s.charCodeAt(k);
  if (c === 0x22 || c === 0x27) {
    const str = readString(s, k);
    ref = str.text.slice(1, -1);
    k = str.next;
  } else {
    const start = k;
    while (k < s.length) {
      const d = s.charCodeAt(k);
      if (d === 0x29 || isSpace(d) || d === 0x22 || d === 0x27 || d === 0x28 || d === 0x5c) break;
      k++;
    }
    ref = s.slice(start, k);
  }
  k = afterSpaceAndComments(s, k);
  if (s.charCodeAt(k) === 0x29) return { ref, next: k + 1 };
  // anything else inside url( ... ) is malformed: drop the whole group
  return { ref: null, next: skipGroup(s, i - 1) };
}

/** From an opening "(" to just after its matching ")" (strings and comments respected), or the end. */
function skipGroup(s: string, open: number): number {
  let depth = 0;
  let k = open;
  while (k < s.length) {
    const c = s.charCodeAt(k);
    if (c === 0x28) depth++;
    else if (c === 0x29) {
      depth--;
      if (depth === 0) return k + 1;
    } else if (c === 0x22 || c === 0x27) {
      k = readString(s, k).next;
      continue;
    } else if (c === 0x5c) {
      k = skipEscape(s, k);
      continue;
    } else if (c === 0x2f && s.charCodeAt(k + 1) === 0x2a) {
      const end = s.indexOf('*/', k + 2);
      k = end < 0 ? s.length : end + 2;
      continue;
    }
    k++;
  }
  return s.length;
}

/** An at-rule's prelude and its ";" or its {block} (nested blocks included), or to the end. */
function skipAtRule(s: string, i: number): number {
  let k = i;
  while (k < s.length) {
    const c = s.charCodeAt(k);
    if (c === 0x3b /* ; */) return k + 1;
    if (c === 0x7b /* { */) {
      let depth = 0;
      while (k < s.length) {
        const d = s.charCodeAt(k);
        if (d === 0x7b) depth++;
        else if (d === 0x7d) {
          depth--;
          if (depth === 0) return k + 1;
        } else if (d === 0x22 || d === 0x27) {
          k = readString(s, k).next;
          continue;
        }
        k++;
      }
      return s.length;
    }
    if (c === 0x22 || c === 0x27) {
      k = readString(s, k).next;
      continue;
    }
    if (c === 0x2f && s.charCodeAt(k + 1) === 0x2a) {
      const end = s.indexOf('*/', k + 2);
      k = end < 0 ? s.length : end + 2;
      continue;
    }
    k++;
  }
  return s.length;
}
