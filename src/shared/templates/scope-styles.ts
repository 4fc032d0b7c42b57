/**
 * A card template's `<style>` placed inline in a web page would apply to the whole page (issue 19.4).
 * `scopeSvgStyles` rewrites every selector of every `<style>` element so it only matches inside
 * the element that carries `data-card-scope="{scope}"` (the card's wrapper), and drops the at-rules
 * whose effect is page-wide whatever their selectors (@import, @font-face, @keyframes, @page,
 * @property, @namespace, @counter-style, @font-feature-values, @scope, @charset). Rules inside
 * @media, @supports, @container and @layer blocks are scoped the same way.
 */

const KEEP_BLOCK_AT = /^@(media|supports|container|layer)\b/i;

/** Index just past the block that starts after `open` (the index of "{"), honouring strings and comments. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      i = stringEnd(css, i) - 1;
    } else if (c === '/' && css[i + 1] === '*') {
      const e = css.indexOf('*/', i + 2);
      i = e < 0 ? css.length : e + 1;
    } else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return css.length;
}

function stringEnd(css: string, start: number): number {
  const q = css[start];
  for (let i = start + 1; i < css.length; i++) {
    if (css[i] === '\\') i++;
    else if (css[i] === q || css[i] === '\n') return i + 1;
  }
  return css.length;
}

/** Splits a selector list on top-level commas (not inside :is(...), [attr="a,b"] and the like). */
function splitSelectors(prelude: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < prelude.length; i++) {
    const c = prelude[i];
    if (c === '"' || c === "'") i = stringEnd(prelude, i) - 1;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      out.push(prelude.slice(start, i));
      start = i + 1;
    }
  }
  out.push(prelude.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Scopes the rules of one style sheet to `[data-card-scope="{scope}"]`. */
export function scopeCss(css: string, scope: string): string {
  const prefix = `[data-card-scope="${scope.replace(/[^A-Za-z0-9_-]/g, '')}"]`;
  const text = css.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');
  let out = '';
  let i = 0;
  while (i < text.length) {
    // the next prelude: up to "{" or ";" at the top level
    let j = i;
    while (j < text.length && text[j] !== '{' && text[j] !== ';' && text[j] !== '}') {
      if (text[j] === '"' || text[j] === "'") j = stringEnd(text, j);
      else j++;
    }
    const prelude = text.slice(i, j).trim();
    if (j >= text.length) break;
    if (text[j] === ';' || text[j] === '}') {
      // a statement at-rule (@import, @charset, @namespace...) or a stray "}": dropped
      i = j + 1;
      continue;
    }
    const end = blockEnd(text, j);
    const body = text.slice(j + 1, Math.max(j + 1, end - 1));
    if (prelude.startsWith('@')) {
      if (KEEP_BLOCK_AT.test(prelude)) out += `${prelude}{${scopeCss(body, scope)}}`;
    } else if (prelude) {
      const selectors = splitSelectors(prelude).map((sel) => {
        const rest = sel.replace(/^:root\b/i, '').replace(/^(html|body)\b\s*/i, '');
        return rest ? `${prefix} ${rest}` : prefix;
      });
      if (selectors.length) out += `${selectors.join(', ')}{${body}}`;
    }
    i = end;
  }
  return out;
}

/** Every `<style>` element of an SVG string scoped to `[data-card-scope="{scope}"]`. */
export function scopeSvgStyles(svg: string, scope: string): string {
  return svg.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_m, open: string, css: string, close: string) => {
    const raw = css.replace(/^\s*<!\[CDATA\[/, '').replace(/\]\]>\s*$/, '');
    // the filled SVG escapes text: "&gt;" in a selector (child combinator) is ">" to the CSS parser
    const decoded = raw.replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, '&');
    const scoped = scopeCss(decoded, scope).replace(/</g, '\\3c ');
    return `${open}${scoped}${close}`;
  });
}
