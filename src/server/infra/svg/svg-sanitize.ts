import { createRequire } from 'node:module';
import type { JSDOM } from 'jsdom';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { cleanCss, isLocalRef } from './css-clean';
import { LOGO_OUTPUT, scanSvg, SvgRejectedError, type SvgOutput } from './svg-scan';
import { isSpace, lower } from './svg-text';

export { cleanCss, SvgRejectedError, LOGO_OUTPUT, type SvgOutput };

/**
 * SVG upload sanitizer (templates, logos, artwork).
 *
 * Steps: size cap -> the linear scan (src/server/infra/svg/svg-scan.ts: DOCTYPE/ENTITY refused,
 * malformed markup refused, structure and rendering budgets in output pixels, decision 32-01) ->
 * must parse as XML with an <svg> root in the SVG namespace -> DOMPurify (SVG profile, on jsdom) -> our own pass that
 * DOMPurify alone does not do: external references in href, url(...) and @import, animation
 * elements that can rewrite attributes, foreignObject. The result is re-serialized as XML.
 *
 * Anything refused throws `SvgRejectedError` (an HttpError: 413 too large, 400 otherwise) whose
 * message can be shown to the person who uploaded the file.
 */

export const SVG_MAX_BYTES = 1024 * 1024;
const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

export interface SanitizeSvgOptions {
  /** default 1 MB */
  maxBytes?: number;
  /** how the file will be drawn, for the budgets in output pixels (default: a logo, longer side 1200 px) */
  output?: SvgOutput;
}

// Elements removed with their content, whatever DOMPurify's allow-list says.
const FORBID_TAGS = ['script', 'foreignObject', 'foreignobject', 'iframe', 'embed', 'object', 'animate', 'set', 'animateMotion', 'animateTransform', 'animateColor', 'handler', 'listener', 'discard', 'a'];
// `a` is replaced by its children (links inside a card file have no use; this also drops
// javascript: links in every spelling).

/** data: images that a browser or resvg decodes as pictures (never markup): checked by hand, in one pass. */
function isSafeDataImage(ref: string): boolean {
  const r = ref.trim();
  const low = lower(r.slice(0, 32));
  let rest: number;
  if (low.startsWith('data:image/png;base64,')) rest = 22;
  else if (low.startsWith('data:image/jpeg;base64,')) rest = 23;
  else if (low.startsWith('data:image/jpg;base64,')) rest = 22;
  else if (low.startsWith('data:image/gif;base64,')) rest = 22;
  else if (low.startsWith('data:image/webp;base64,')) rest = 23;
  else return false;
  if (rest >= r.length) return false;
  for (let k = rest; k < r.length; k++) {
    const c = r.charCodeAt(k);
    const ok = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d || isSpace(c);
    if (!ok) return false;
  }
  return true;
}

/** The value with whitespace and control characters removed, lower case (how browsers read a URL scheme). */
function squeezed(value: string, max = 64): string {
  let out = '';
  for (let k = 0; k < value.length && out.length < max; k++) {
    const c = value.charCodeAt(k);
    if (c > 0x20) out += value[k];
  }
  return lower(out);
}

/** Attribute values that may hold CSS functions or escapes: cleaned with cleanCss (a linear pass). */
function mayHoldCss(value: string): boolean {
  return value.indexOf('(') >= 0 || value.indexOf('\\') >= 0 || value.indexOf('@') >= 0;
}

// ------------------------------------------------------------------------------------------
// structural limits (issues 18 and 32): the linear scan, before any parser or renderer sees it
// ------------------------------------------------------------------------------------------

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
    if (mayHoldCss(value)) {
      const cleaned = cleanCss(value);
      if (cleaned !== value) data.attrValue = cleaned;
    }
    const scheme = squeezed(value);
    if (scheme.startsWith('javascript:') || scheme.startsWith('vbscript:') || scheme.startsWith('data:')) data.keepAttr = false;
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
  const text = svgText.charCodeAt(0) === 0xfeff ? svgText.slice(1) : svgText;
  if (!text.trim()) throw new SvgRejectedError('Invalid file: the SVG is empty.');
  // one linear pass: DOCTYPE/ENTITY, malformed markup, structure and budgets in output pixels
  const report = scanSvg(text, opts.output ?? LOGO_OUTPUT);
  if (report.nonUtf8Declaration) throw new SvgRejectedError('Invalid file: SVG must be UTF-8 encoded.');

  const { window, purify } = getPurifier();

  // 1) must parse as XML with an <svg> root in the SVG namespace
  //    (the scan's copy: no comments or processing instructions, CDATA as escaped text, blank runs collapsed)
  const parsed = new window.DOMParser().parseFromString(report.text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (!root || root.getElementsByTagName('parsererror').length > 0 || root.localName === 'parsererror') {
    throw new SvgRejectedError('Invalid file: the SVG could not be parsed (malformed XML).');
  }
  if (root.localName !== 'svg') throw new SvgRejectedError('Invalid file: Please upload an SVG.');
  if (root.namespaceURI !== SVG_NS) {
    throw new SvgRejectedError('Invalid file: the SVG root element must declare xmlns="http://www.w3.org/2000/svg".');
  }

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

/** Every element under `root` (itself first), in document order, by walking the tree: linear (indexing jsdom's live getElementsByTagName collection is not). */
function elementsOf(root: Element): Element[] {
  const out: Element[] = [];
  const walk: Element[] = [root];
  while (walk.length) {
    const el = walk.pop()!;
    out.push(el);
    const kids: Element[] = [];
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) kids.push(c);
    for (let k = kids.length - 1; k >= 0; k--) walk.push(kids[k]);
  }
  return out;
}

function finalPass(root: Element) {
  const all = elementsOf(root);
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
      if (name === 'style' || mayHoldCss(value)) {
        const cleaned = cleanCss(value);
        if (cleaned !== value) attr.value = cleaned;
      }
    }
  }
}
