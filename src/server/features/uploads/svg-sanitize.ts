import { createRequire } from 'node:module';
import type { JSDOM } from 'jsdom';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { HttpError } from '#server/http/http-errors';

/**
 * SVG upload sanitizer (templates, logos, artwork).
 *
 * Steps: size cap -> refuse DOCTYPE/ENTITY (XXE, billion laughs) -> must parse as XML with an
 * <svg> root in the SVG namespace -> DOMPurify (SVG profile, on jsdom) -> our own pass that
 * DOMPurify alone does not do: external references in href, url(...) and @import, animation
 * elements that can rewrite attributes, foreignObject. The result is re-serialized as XML.
 *
 * Anything refused throws `SvgRejectedError` (an HttpError: 413 too large, 400 otherwise) whose
 * message can be shown to the person who uploaded the file.
 */

export const SVG_MAX_BYTES = 1024 * 1024;
const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

export class SvgRejectedError extends HttpError {
  constructor(message: string, statusCode = 400) {
    super(statusCode, message);
    this.name = 'SvgRejectedError';
  }
}

export interface SanitizeSvgOptions {
  /** default 1 MB */
  maxBytes?: number;
}

// Elements removed with their content, whatever DOMPurify's allow-list says.
const FORBID_TAGS = ['script', 'foreignObject', 'foreignobject', 'iframe', 'embed', 'object', 'animate', 'set', 'animateMotion', 'animateTransform', 'animateColor', 'handler', 'listener', 'discard', 'a'];
// `a` is replaced by its children (links inside a card file have no use; this also drops
// javascript: links in every spelling).

/** url(...) references other than a local fragment, e.g. url(#grad) is fine, url(http://x) is not. */
const URL_FN = /url\s*\(\s*(['"]?)([^)'"]*)\1\s*\)/gi;
const ESCAPED_CSS = /\\[0-9a-f]{1,6}\s?|\\./gi;

function isLocalRef(ref: string): boolean {
  return /^#[A-Za-z_][\w.:-]*$/.test(ref.trim());
}

/** data: images that a browser or resvg decodes as pictures (never markup). */
function isSafeDataImage(ref: string): boolean {
  return /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i.test(ref.trim());
}

/**
 * CSS functions that can fetch something other than url() (issue 19): image-set() and image() take
 * plain strings as URLs, cross-fade() and element() reference images or page elements, src() is
 * url() by another name. Vendor-prefixed spellings included.
 */
const LOADING_FN = /(?<![\w-])(?:-(?:webkit|moz|o|ms)-)?(image-set|image|cross-fade|element|src)\s*\(/gi;
/** At-rules that load or declare outside resources: @import, @font-face (src), @namespace, @document. */
const LOADING_AT_RULE = /@(?:-[a-z]+-)?(?:import|namespace|document)\b[^;{]*(?:;|\{[^}]*\}|$)|@font-face\s*\{[^}]*\}?/gi;

/**
 * Makes CSS text unable to load anything (issue 19.4): strips @import, @font-face, @namespace and
 * every url() but a local #fragment; turns image-set(), image(), cross-fade(), element() and src()
 * (any spelling) into an inert none(); old IE expression()/behavior too.
 */
export function cleanCss(css: string): string {
  // CSS escapes could hide "url(" or "@import" (e.g. u\72l(); decode-free approach: refuse them.
  let out = css.replace(ESCAPED_CSS, '');
  // comments could split a name from its "(" (image-set/**/("x")): remove them first
  out = out.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');
  out = out.replace(LOADING_AT_RULE, '');
  out = out.replace(/@import[^;]*;?/gi, '');
  out = out.replace(LOADING_FN, 'none(');
  const kept: string[] = [];
  out = out.replace(URL_FN, (_m, _q, ref: string) => {
    if (!isLocalRef(ref)) return 'none';
    kept.push(`url(${ref.trim()})`);
    return `\u0000${kept.length - 1}\u0000`;
  });
  // anything still looking like url( is malformed: drop it
  out = out.replace(/url\s*\(/gi, 'none(');
  out = out.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => kept[Number(i)]);
  out = out.replace(/expression\s*\(/gi, 'none(').replace(/behavior\s*:/gi, 'x-behavior:').replace(/-moz-binding/gi, 'x-binding');
  // a neutralized function keeps no arguments (no outside address is left in the file at all)
  for (let i = 0; i < 8 && /none\([^()]*\)/.test(out); i++) out = out.replace(/none\([^()]*\)/g, 'none');
  return out;
}

// ------------------------------------------------------------------------------------------
// structural limits (issue 18): a linear scan of the text, before any parser or renderer sees it
// ------------------------------------------------------------------------------------------

/** Deepest element nesting accepted (card templates nest well under 20). */
export const SVG_MAX_DEPTH = 64;
/** Elements accepted, counting each `<use>` as the elements it copies. */
export const SVG_MAX_ELEMENTS = 10_000;
/** Filter primitives (`fe*` elements) accepted in one file. */
export const SVG_MAX_FILTER_PRIMITIVES = 32;
/** Largest filter parameters accepted: cost grows with the square of these (blur, morphology) or doubles per octave. */
const FILTER_CAPS: Array<{ tag: string; attr: string; max: number }> = [
  { tag: 'fegaussianblur', attr: 'stddeviation', max: 50 },
  { tag: 'fedropshadow', attr: 'stddeviation', max: 50 },
  { tag: 'femorphology', attr: 'radius', max: 20 },
  { tag: 'feturbulence', attr: 'numoctaves', max: 8 },
  { tag: 'feconvolvematrix', attr: 'order', max: 5 },
];

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[?!][^>]*>?|<(\/?)([A-Za-z_][\w:.-]*)((?:[^<>"']|"[^<"]*"|'[^<']*')*)>/g;
const ATTR = /([\w:.-]+)\s*=\s*("[^"]*"|'[^']*')/g;
// (XML allows no "<" inside a tag, not even in attribute values: each match attempt stops at the
// next "<", so the scan stays linear whatever the input)

interface Frame {
  id: string | null;
  elements: number;
  refs: string[];
}

/**
 * Refuses (400, "This SVG is too complex: ...") an SVG nested deeper than SVG_MAX_DEPTH, with more
 * than SVG_MAX_ELEMENTS elements once every `<use>` is expanded (nested `<use>` fan-out), more than
 * SVG_MAX_FILTER_PRIMITIVES filter primitives, or a filter parameter past its cap. One pass over the
 * text, no parser: a 10,000-deep file is refused in about a millisecond.
 */
export function checkSvgStructure(text: string): void {
  const refuse = (why: string) => {
    throw new SvgRejectedError(`This SVG is too complex: ${why}.`);
  };
  const stack: Frame[] = [{ id: null, elements: 0, refs: [] }];
  const subtrees = new Map<string, { elements: number; refs: string[] }>();
  let elements = 0;
  let primitives = 0;
  for (const m of text.matchAll(TOKEN)) {
    const name = m[2];
    if (!name) continue; // comment, CDATA, processing instruction
    if (m[1] === '/') {
      if (stack.length > 1) closeFrame(stack, subtrees);
      continue;
    }
    const attrs = m[3] ?? '';
    const selfClosing = attrs.trimEnd().endsWith('/');
    const tag = name.toLowerCase().replace(/^svg:/, '');
    elements++;
    if (elements > SVG_MAX_ELEMENTS) refuse(`more than ${SVG_MAX_ELEMENTS.toLocaleString('en-US')} elements`);
    let id: string | null = null;
    let href: string | null = null;
    const lowerTagIsFilter = tag.startsWith('fe');
    const cap = lowerTagIsFilter ? FILTER_CAPS.filter((c) => c.tag === tag) : [];
    for (const a of attrs.matchAll(ATTR)) {
      const attr = a[1].toLowerCase();
      const value = a[2].slice(1, -1);
      if (attr === 'id') id = value.trim();
      else if (tag === 'use' && (attr === 'href' || attr.endsWith(':href'))) href = value.trim();
      for (const c of cap) {
        if (c.attr !== attr) continue;
        const numbers = value.split(/[\s,]+/).filter(Boolean).map(Number);
        if (numbers.some((n) => !Number.isFinite(n) || Math.abs(n) > c.max)) refuse(`${name} ${a[1]} is larger than ${c.max}`);
      }
    }
    if (lowerTagIsFilter && /^fe(?!func|distantlight|pointlight|spotlight|mergenode)/.test(tag)) {
      primitives++;
      if (primitives > SVG_MAX_FILTER_PRIMITIVES) refuse(`more than ${SVG_MAX_FILTER_PRIMITIVES} filter effects`);
    }
    const frame: Frame = { id, elements: 1, refs: href && href.startsWith('#') ? [href.slice(1)] : [] };
    stack.push(frame);
    if (stack.length - 1 > SVG_MAX_DEPTH) refuse(`elements are nested more than ${SVG_MAX_DEPTH} deep`);
    if (selfClosing) closeFrame(stack, subtrees);
  }
  while (stack.length > 1) closeFrame(stack, subtrees);
  // every <use> copies its target's subtree (which may hold more <use>): count the copies
  const expanded = new Map<string, number>();
  const visiting = new Set<string>();
  const size = (id: string): number => {
    const known = expanded.get(id);
    if (known !== undefined) return known;
    const sub = subtrees.get(id);
    if (!sub) return 0;
    if (visiting.has(id)) refuse('a <use> element refers to itself');
    visiting.add(id);
    let total = sub.elements;
    for (const r of sub.refs) {
      total += size(r);
      if (total > SVG_MAX_ELEMENTS) refuse(`more than ${SVG_MAX_ELEMENTS.toLocaleString('en-US')} elements once <use> copies are counted`);
    }
    visiting.delete(id);
    expanded.set(id, total);
    return total;
  };
  let total = stack[0].elements;
  for (const r of stack[0].refs) {
    total += size(r);
    if (total > SVG_MAX_ELEMENTS) refuse(`more than ${SVG_MAX_ELEMENTS.toLocaleString('en-US')} elements once <use> copies are counted`);
  }
}

function closeFrame(stack: Frame[], subtrees: Map<string, { elements: number; refs: string[] }>) {
  const frame = stack.pop()!;
  const parent = stack[stack.length - 1];
  if (frame.id && !subtrees.has(frame.id)) subtrees.set(frame.id, { elements: frame.elements, refs: frame.refs });
  parent.elements += frame.elements;
  for (const r of frame.refs) parent.refs.push(r);
}

interface Purifier {
  window: JSDOM['window'];
  purify: DOMPurify;
}
let purifier: Purifier | null = null;

// jsdom takes about 0.8 s and tens of MB to load: it is loaded on the first SVG, not at start-up
const nodeRequire = createRequire(import.meta.url);

function getPurifier(): Purifier {
  if (purifier) return purifier;
  const { JSDOM: Dom } = nodeRequire('jsdom') as typeof import('jsdom');
  const { window } = new Dom('');
  const purify = createDOMPurify(window as any);

  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = String(data.attrValue ?? '');
    if (name.startsWith('on')) {
      data.keepAttr = false;
      return;
    }
    if (name === 'href' || name === 'xlink:href' || name.endsWith(':href') || name === 'src') {
      const v = value.trim();
      if (!(isLocalRef(v) || isSafeDataImage(v))) data.keepAttr = false;
      else data.forceKeepAttr = true; // DOMPurify would drop data: on some elements; we checked it
      return;
    }
    if (name === 'style') {
      data.attrValue = cleanCss(value);
      return;
    }
    if (/url\s*\(/i.test(value) || /\\/.test(value)) {
      const cleaned = cleanCss(value);
      if (cleaned !== value) data.attrValue = cleaned;
    }
    if (/^\s*(javascript|vbscript|data):/i.test(value.replace(/[\s\u0000-\u001f]+/g, ''))) data.keepAttr = false;
  });

  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent) {
      node.textContent = cleanCss(node.textContent);
    }
  });

  purifier = { window, purify };
  return purifier;
}

/**
 * Returns a clean SVG document (`<svg ...>...</svg>`, XML-serialized) or throws SvgRejectedError.
 */
export function sanitizeSvg(svgText: string, opts: SanitizeSvgOptions = {}): string {
  const maxBytes = opts.maxBytes ?? SVG_MAX_BYTES;
  if (typeof svgText !== 'string') throw new SvgRejectedError('Invalid file: Please upload an SVG.');
  if (Buffer.byteLength(svgText, 'utf8') > maxBytes) {
    throw new SvgRejectedError(`SVG file is too large (maximum ${Math.round(maxBytes / 1024)} KB)`, 413);
  }
  const text = svgText.replace(/^\uFEFF/, '');
  if (!text.trim()) throw new SvgRejectedError('Invalid file: the SVG is empty.');
  if (/<!DOCTYPE|<!ENTITY|<!\[CDATA\[[^\]]*<!ENTITY/i.test(text)) {
    throw new SvgRejectedError('Invalid file: SVG files with a DOCTYPE or entity declarations are not accepted.');
  }
  if (/^\s*<\?xml[^>]*encoding\s*=\s*["'](?!utf-?8)[^"']*["']/i.test(text)) {
    throw new SvgRejectedError('Invalid file: SVG must be UTF-8 encoded.');
  }
  checkSvgStructure(text);

  const { window, purify } = getPurifier();

  // 1) must parse as XML with an <svg> root in the SVG namespace
  const parsed = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (!root || root.getElementsByTagName('parsererror').length > 0 || root.localName === 'parsererror') {
    throw new SvgRejectedError('Invalid file: the SVG could not be parsed (malformed XML).');
  }
  if (root.localName !== 'svg') throw new SvgRejectedError('Invalid file: Please upload an SVG.');
  if (root.namespaceURI !== SVG_NS) {
    throw new SvgRejectedError('Invalid file: the SVG root element must declare xmlns="http://www.w3.org/2000/svg".');
  }
  if (parsed.getElementsByTagName('*').length > 50_000) throw new SvgRejectedError('Invalid file: the SVG has too many elements.');

  // 2) DOMPurify on the re-serialized markup. Its HTML parser puts <svg> content in foreign-content
  //    mode, which restores the case of names like viewBox and linearGradient.
  const xml = new window.XMLSerializer().serializeToString(root);
  const clean = purify.sanitize(xml, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS,
    FORBID_ATTR: ['formaction', 'action', 'ping', 'srcdoc', 'attributename', 'from', 'to', 'by'],
    ADD_TAGS: ['style', 'use'],
    ADD_ATTR: ['xmlns:xlink', 'xlink:href', 'href', 'style'],
    ALLOW_DATA_ATTR: true, // inert; card templates mark their fields and slots with data-* attributes
    KEEP_CONTENT: true,
    RETURN_DOM: true,
    WHOLE_DOCUMENT: false,
  }) as unknown as Element;

  const svg = findSvg(clean);
  if (!svg) throw new SvgRejectedError('Invalid file: nothing usable was left after cleaning the SVG.');

  // 3) belt and braces: walk the result once more
  finalPass(svg);
  if (!svg.getAttribute('xmlns')) svg.setAttribute('xmlns', SVG_NS);
  const out = new window.XMLSerializer().serializeToString(svg);
  return out;
}

function findSvg(node: Element | Document | DocumentFragment): Element | null {
  const n = node as any;
  if (n.localName === 'svg') return n as Element;
  const found = (n.getElementsByTagNameNS?.(SVG_NS, 'svg')?.[0] ?? n.querySelector?.('svg')) as Element | undefined;
  return found ?? null;
}

function finalPass(root: Element) {
  const all = [root, ...Array.from(root.getElementsByTagName('*'))];
  for (const el of all) {
    const tag = el.localName.toLowerCase();
    if (tag === 'script' || tag === 'foreignobject' || tag === 'iframe' || tag === 'animate' || tag === 'set' || tag.startsWith('animate')) {
      el.remove();
      continue;
    }
    if (tag === 'style' && el.textContent) el.textContent = cleanCss(el.textContent);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value;
      if (name.startsWith('on')) {
        el.removeAttributeNode(attr);
        continue;
      }
      if (name === 'href' || name.endsWith(':href') || name === 'src') {
        if (!(isLocalRef(value) || isSafeDataImage(value))) el.removeAttributeNode(attr);
        continue;
      }
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        if (name === 'xmlns' && value !== SVG_NS) el.removeAttributeNode(attr);
        else if (name === 'xmlns:xlink' && value !== XLINK_NS) el.removeAttributeNode(attr);
        continue;
      }
      if (name === 'style' || /url\s*\(|@import|expression\s*\(|\\/i.test(value) || /(?<![\w-])(?:-[a-z]+-)?(image-set|image|cross-fade|element|src)\s*\(/i.test(value)) {
        const cleaned = cleanCss(value);
        if (cleaned !== value) attr.value = cleaned;
      }
    }
  }
}
