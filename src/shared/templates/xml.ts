/**
 * Tiny, dependency-free helpers for working on SVG template text (no DOM in shared code).
 * Templates reaching these helpers are either our own or were sanitized and re-serialized as XML
 * on upload, so tags are well-formed and attribute values quoted.
 */

/** Escapes text for XML content and attribute values; drops characters XML 1.0 forbids. */
export function escapeXml(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function unescapeXml(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

export type Attrs = Map<string, string>;

const ATTR_RE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function parseAttrs(openTag: string): Attrs {
  const m = new Map<string, string>();
  const inner = openTag.replace(/^<[^\s/>]+/, '').replace(/\/?>$/, '');
  for (const a of inner.matchAll(ATTR_RE)) m.set(a[1], unescapeXml(a[2] ?? a[3] ?? ''));
  return m;
}

export function serializeAttrs(attrs: Attrs): string {
  let s = '';
  for (const [k, v] of attrs) s += ` ${k}="${escapeXml(v)}"`;
  return s;
}

export interface FoundElement {
  tag: string;
  attrs: Attrs;
  /** index of '<' of the opening tag */
  start: number;
  /** index just after the opening tag's '>' */
  openEnd: number;
  /** index of '<' of the closing tag (=== openEnd for a self-closing element) */
  closeStart: number;
  /** index just after the element */
  end: number;
  selfClosing: boolean;
}

const OPEN_TAG = /<([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;

/**
 * Finds elements whose opening tag satisfies `match`, scanning from `from`. Nested elements of the
 * same tag name are balanced. Matches inside an earlier match are skipped (outermost first).
 */
export function findElements(svg: string, match: (tag: string, attrs: Attrs) => boolean, from = 0, to = svg.length): FoundElement[] {
  const out: FoundElement[] = [];
  OPEN_TAG.lastIndex = from;
  for (;;) {
    const m = OPEN_TAG.exec(svg);
    if (!m || m.index >= to) break;
    const tag = m[1];
    const attrs = parseAttrs(m[0]);
    if (!match(tag, attrs)) continue;
    const start = m.index;
    const openEnd = start + m[0].length;
    if (m[3] === '/') {
      out.push({ tag, attrs, start, openEnd, closeStart: openEnd, end: openEnd, selfClosing: true });
      continue;
    }
    const close = findClose(svg, tag, openEnd);
    if (close < 0) break;
    const end = svg.indexOf('>', close) + 1;
    out.push({ tag, attrs, start, openEnd, closeStart: close, end, selfClosing: false });
    OPEN_TAG.lastIndex = end;
  }
  return out;
}

/** Index of the '<' of the closing tag that balances an element opened just before `from`. */
function findClose(svg: string, tag: string, from: number): number {
  const re = new RegExp(`<(/?)${tag.replace(/[.:-]/g, '\\$&')}(?=[\\s/>])[^>]*?(/?)>`, 'g');
  re.lastIndex = from;
  let depth = 1;
  for (;;) {
    const m = re.exec(svg);
    if (!m) return -1;
    if (m[1] === '/') {
      depth--;
      if (depth === 0) return m.index;
    } else if (m[2] !== '/') depth++;
  }
}

/** Replaces found elements (non-overlapping, any order) with new text. */
export function replaceElements(svg: string, found: FoundElement[], render: (el: FoundElement) => string): string {
  const sorted = [...found].sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const el of sorted) {
    if (el.start < pos) continue;
    out += svg.slice(pos, el.start) + render(el);
    pos = el.end;
  }
  return out + svg.slice(pos);
}

/** Number attribute, or the value of a CSS property in the inline style, or the fallback. */
export function numAttr(attrs: Attrs, name: string, fallback: number): number {
  const raw = attrs.get(name) ?? styleProp(attrs, name);
  if (raw === undefined) return fallback;
  const n = parseFloat(raw);
  return Number.isFinite(n) ? n : fallback;
}

export function styleProp(attrs: Attrs, prop: string): string | undefined {
  const style = attrs.get('style');
  if (!style) return undefined;
  for (const decl of style.split(';')) {
    const i = decl.indexOf(':');
    if (i > 0 && decl.slice(0, i).trim().toLowerCase() === prop) return decl.slice(i + 1).trim();
  }
  return undefined;
}

/** Rounds for compact attribute values. */
export function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}
