import { HttpError } from '#server/http/http-errors';
import { absoluteLength, isSpace, lower, parseDeclarations, parseLength, parseNumberList, transformStretch, urlFragments } from './svg-text';

/**
 * The SVG scan (issue 32, decision 32-01): one forward pass over the text of an untrusted SVG, with
 * a hand-written tokenizer (no regular expression, no backtracking: every character is looked at a
 * bounded number of times, so a 1 MB file of any shape takes milliseconds), that refuses
 *
 * - what is not plain XML we accept: DOCTYPE and ENTITY declarations (XXE, billion laughs),
 *   unclosed comments, CDATA, processing instructions, tags and quotes, mismatched end tags,
 *   over-long names, too many attributes;
 * - what would cost a renderer too much, measured in DEVICE PIXELS of the output the file is drawn
 *   at: the viewBox-to-output scale times every nested transform (the largest stretch any element
 *   can be drawn at, through `<use>`, patterns, markers, masks and filters that reference others).
 *   Filter radii and deviations, filter regions, pattern tiles, font sizes and the output area are
 *   checked in pixels; element counts after `<use>`/pattern fan-out, path commands, gradient stops,
 *   text length and embedded images by count.
 *
 * Refusals are `SvgRejectedError` (400) with a plain-English message that names the reason.
 * Runs inside the sanitize task (off the request thread), before any XML parser or renderer.
 */

export class SvgRejectedError extends HttpError {
  constructor(message: string, statusCode = 400) {
    super(statusCode, message);
    this.name = 'SvgRejectedError';
  }
}

/** How the file will be drawn: the longer side at N px (logos), or N px wide (card templates). */
export interface SvgOutput {
  mode: 'long-side' | 'width';
  pixels: number;
}

/** Logos, banner logos and artwork: rasterised with the longer side at 1200 px (infra/images/images.task.ts). */
export const LOGO_OUTPUT: SvgOutput = { mode: 'long-side', pixels: 1200 };

export const SVG_BUDGETS = {
  /** deepest element nesting (card templates nest well under 20) */
  depth: 64,
  /** elements, counting the copies `<use>`, patterns, markers, masks and clip paths make */
  elements: 10_000,
  /** attributes on one element */
  attributesPerElement: 256,
  /** characters in an element or attribute name */
  nameLength: 256,
  /** filter primitives (fe* elements) in one file */
  filterPrimitives: 32,
  /** feMorphology radius, in output pixels */
  morphologyRadiusPx: 16,
  /** feGaussianBlur / feDropShadow standard deviation, in output pixels */
  blurDeviationPx: 200,
  /** feConvolveMatrix order (kernel cells per side) */
  convolveOrder: 5,
  /** feTurbulence octaves */
  turbulenceOctaves: 8,
  /** a filter region's side, in output pixels */
  filterRegionSidePx: 8_400,
  /** filter work: pixels of filter region times the per-pixel cost of each primitive, for every use */
  filterWork: 400_000_000,
  /** a pattern tile's side, in output pixels */
  patternTileSidePx: 8_400,
  /** patterns in one file */
  patterns: 64,
  /** font size, in output pixels */
  fontSizePx: 8_400,
  /** characters of text */
  textCharacters: 20_000,
  /** path commands (letters in `d`) and points (numbers in `points`) in the whole file */
  pathCommands: 200_000,
  /** stops in one gradient, and in the whole file */
  gradientStops: 256,
  gradientStopsTotal: 4_096,
  /** embedded data: images */
  embeddedImages: 16,
  /** pixels of an embedded image, as its header declares them, and of all of them */
  embeddedImagePixels: 4_000_000,
  embeddedImagePixelsTotal: 16_000_000,
  /** character data outside <style> (whitespace-only runs between elements not counted: they are collapsed) */
  characterData: 65_536,
  /** characters of all <style> elements, and their rules (opening braces) */
  styleSheetChars: 32_768,
  cssRules: 1_000,
  /** characters of one style="" attribute, and of all of them */
  styleAttributeChars: 4_096,
  styleAttributeCharsTotal: 65_536,
  /** text, tspan, textPath and tref elements (each is laid out on its own) */
  textElements: 1_000,
  /** a viewBox's longer side over its shorter side */
  viewBoxAspect: 100,
  /** letter-spacing and word-spacing, in output pixels */
  spacingPx: 8_400,
  /** gradients and patterns that inherit from one another through href, one chain */
  hrefChain: 32,
  /** dashes: outline length over the dash period, summed over the dashed shapes */
  dashes: 100_000,
  /** painted area of circles, ellipses, rects and lines (their box with the stroke, clipped to the canvas, each copy), in output pixels */
  paintedPixels: 400_000_000,
  /** output area in pixels (a 4200 px wide card template of any height) */
  outputPixels: 4_200 * 4_200,
} as const;

const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'unbounded');
const fmt1 = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1).replace(/\.0$/, '') : Math.round(n).toLocaleString('en-US')) : 'unbounded');

function refuse(why: string): never {
  throw new SvgRejectedError(`This SVG is too complex: ${why}.`);
}
function malformed(why: string): never {
  throw new SvgRejectedError(`Invalid file: the SVG could not be parsed (malformed XML: ${why}).`);
}

/** What the scan found (the sanitizer and tests use it). */
export interface SvgScanReport {
  elements: number;
  expandedElements: number;
  depth: number;
  /** output size in pixels */
  outputWidth: number;
  outputHeight: number;
  /** largest stretch from user units to output pixels anything in the file can be drawn at */
  maxScale: number;
  filterWork: number;
  /** true when an XML declaration names an encoding other than UTF-8 */
  nonUtf8Declaration: boolean;
  /**
   * The document the parser gets: the same elements and attributes, with comments, processing
   * instructions and the XML declaration dropped, CDATA sections turned into escaped text and
   * whitespace-only runs between elements collapsed to one space (a parser's cost is then bounded
   * by the budgets, whatever the file held).
   */
  text: string;
}

const FILTER_PRIMITIVES = new Set([
  'feblend', 'fecolormatrix', 'fecomponenttransfer', 'fecomposite', 'feconvolvematrix', 'fediffuselighting', 'fedisplacementmap',
  'fedropshadow', 'feflood', 'fegaussianblur', 'feimage', 'femerge', 'femorphology', 'feoffset', 'fespecularlighting', 'fetile', 'feturbulence',
]);
/** referenced elements that copy no drawing (gradients are cheap; a filter's cost is its filter work) */
const NOT_COPYING = new Set(['lineargradient', 'radialgradient', 'stop', 'filter', 'solidcolor', 'meshgradient']);
const REF_ATTRS = new Set(['fill', 'stroke', 'filter', 'mask', 'clip-path', 'marker-start', 'marker-mid', 'marker-end', 'marker']);
const TEXT_TAGS = new Set(['text', 'tspan', 'textpath', 'tref']);

interface Subtree {
  tag: string;
  elements: number;
  refs: Ref[];
  /** largest scale inside the subtree, and the scale of its parent (the reference frame) */
  maxScale: number;
  parentScale: number;
  /** a <symbol>'s viewBox size (0 when none): its scale is set by the <use> that draws it */
  vbw: number;
  vbh: number;
}
interface Ref {
  target: string;
  scale: number;
  /** the box a <use> gives a <symbol> (its width/height, or its viewport) */
  boxW: number;
  boxH: number;
}
interface Frame {
  tag: string;
  name: string;
  scale: number;
  /** font size in user units of this element */
  font: number;
  /** viewport size in user units (for percentages and nested viewports) */
  vw: number;
  vh: number;
  id: string | null;
  elements: number;
  refs: Ref[];
  maxScale: number;
  /** the gradient (stop counting) or filter (primitive collection) this element belongs to */
  inFilter: FilterInfo | null;
  stops: number;
  vb: [number, number] | null;
}
interface FilterInfo {
  /** per output pixel of the region: the summed cost of the primitives but morphology's */
  work: number;
  /** feMorphology radii in user units (their cost per pixel is (2 rx + 1) (2 ry + 1) in output pixels) */
  morph: Array<[number, number]>;
  /** region as a multiple of the element's box (objectBoundingBox) or in user units */
  userSpace: boolean;
  w: number;
  h: number;
}

/**
 * Scans an SVG text and throws SvgRejectedError when it is not acceptable (see the module comment).
 * `output` says how it will be drawn (default: a logo, longer side 1200 px).
 */
export function scanSvg(text: string, output: SvgOutput = LOGO_OUTPUT): SvgScanReport {
  const s = text;
  const n = s.length;
  const B = SVG_BUDGETS;
  let i = 0;
  let elements = 0;
  let maxDepth = 0;
  let primitives = 0;
  let patterns = 0;
  let pathCommands = 0;
  let stopsTotal = 0;
  let textChars = 0;
  let images = 0;
  let styleRefs: string[] = [];
  let styleScale = 1;
  let styleFont = 0;
  let maxFontUser = 0;
  let nonUtf8Declaration = false;
  let rootSeen = false;
  let rootClosed = false;
  let outW = 0;
  let outH = 0;
  const subtrees = new Map<string, Subtree>();
  const filters = new Map<string, FilterInfo>();
  /** pattern tiles: side in user units (userSpaceOnUse) or as a fraction of the box, checked at the end with the final scale */
  const tiles: Array<{ w: number; h: number; userSpace: boolean }> = [];
  /** filter region sides in user units (userSpaceOnUse) */
  const regions: Array<{ w: number; h: number; userSpace: boolean }> = [];
  const stack: Frame[] = [];
  let styleText = null as string[] | null;
  let textDepth = 0;
  let rootInfo: { elements: number; refs: Ref[]; maxScale: number } = { elements: 0, refs: [], maxScale: 1 };
  let maxStrokeWidth = 1;
  let primitiveBBox = false;
  /** radii and deviations, checked in pixels once the largest scale is known */
  const pendingFilterParams: Array<['morphology' | 'blur', { value: number; bbox: boolean }]> = [];
  /** the document handed to the parser (see SvgScanReport.text) */
  const out: string[] = [];
  let charData = 0;
  let styleChars = 0;
  let cssRules = 0;
  let styleAttrChars = 0;
  let textElements = 0;
  let imagePixels = 0;
  let painted = 0;
  let dashes = 0;
  let maxSpacingUser = 0;
  let styleSpacing = 0;
  /** id -> the id its href names, for gradients and patterns (inheritance chains) */
  const inherits = new Map<string, string>();

  /** character data from..to (CDATA when `cdata`): budgeted, and copied to the output (escaped if CDATA) */
  const emitText = (from: number, to: number, cdata: boolean) => {
    if (styleText) {
      styleChars += to - from;
      if (styleChars > B.styleSheetChars) refuse(`its style sheets hold more than ${fmt(B.styleSheetChars)} characters`);
      for (let k = s.indexOf('{', from); k >= 0 && k < to; k = s.indexOf('{', k + 1)) {
        if (++cssRules > B.cssRules) refuse(`its style sheets have more than ${fmt(B.cssRules)} rules`);
      }
      const part = s.slice(from, to);
      styleText.push(part);
      out.push(cdata ? escapeText(part) : part);
      return;
    }
    let blank = true;
    for (let k = from; k < to && blank; k++) if (!isSpace(s.charCodeAt(k))) blank = false;
    if (blank && textDepth === 0) {
      if (!cdata) out.push(' ');
      return;
    }
    charData += to - from;
    if (charData > B.characterData) refuse(`it has more than ${fmt(B.characterData)} characters of text and descriptions`);
    if (textDepth > 0) {
      textChars += to - from;
      if (textChars > B.textCharacters) refuse(`it has more than ${fmt(B.textCharacters)} characters of text`);
    }
    out.push(cdata ? escapeText(s.slice(from, to)) : s.slice(from, to));
  };

  const top = () => stack[stack.length - 1];

  while (i < n) {
    const lt = s.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      if (stack.length === 0) {
        // outside the root only whitespace (and a BOM, removed by the caller) is allowed
        for (let k = i; k < textEnd; k++) if (!isSpace(s.charCodeAt(k))) malformed('text outside the <svg> element');
      } else emitText(i, textEnd, false);
    }
    if (lt < 0) break;
    const c1 = s.charCodeAt(lt + 1);
    if (c1 === 0x21 /* ! */) {
      if (s.startsWith('<!--', lt)) {
        const end = s.indexOf('-->', lt + 4);
        if (end < 0) malformed('a comment is not closed');
        i = end + 3;
        continue;
      }
      if (s.startsWith('<![CDATA[', lt)) {
        const end = s.indexOf(']]>', lt + 9);
        if (end < 0) malformed('a CDATA section is not closed');
        if (stack.length === 0) malformed('text outside the <svg> element');
        emitText(lt + 9, end, true);
        i = end + 3;
        continue;
      }
      throw new SvgRejectedError('Invalid file: SVG files with a DOCTYPE or entity declarations are not accepted.');
    }
    if (c1 === 0x3f /* ? */) {
      const end = s.indexOf('?>', lt + 2);
      if (end < 0) malformed('a processing instruction is not closed');
      const body = s.slice(lt + 2, end);
      if (lower(body.slice(0, 3)) === 'xml' && (body.length === 3 || isSpace(body.charCodeAt(3)))) {
        const enc = lower(body).indexOf('encoding');
        if (enc >= 0) {
          const rest = lower(body.slice(enc + 8));
          let k = 0;
          while (k < rest.length && (isSpace(rest.charCodeAt(k)) || rest[k] === '=' || rest[k] === '"' || rest[k] === "'")) k++;
          const name = rest.slice(k, k + 6);
          if (!(name.startsWith('utf-8') || name.startsWith('utf8'))) nonUtf8Declaration = true;
        }
      }
      i = end + 2;
      continue;
    }
    if (c1 === 0x2f /* / */) {
      let k = lt + 2;
      const nameStart = k;
      while (k < n && isNameChar(s.charCodeAt(k))) k++;
      if (k - nameStart > B.nameLength) refuse(`an element name is longer than ${B.nameLength} characters`);
      const name = s.slice(nameStart, k);
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (s.charCodeAt(k) !== 0x3e) malformed('an end tag is not closed');
      const frame = top();
      if (!frame || frame.name !== name) malformed(`</${name.slice(0, 40)}> does not close the open element`);
      closeFrame();
      out.push(s.slice(lt, k + 1));
      i = k + 1;
      continue;
    }
    // a start tag
    let k = lt + 1;
    const nameStart = k;
    if (k >= n || !isNameStart(s.charCodeAt(k))) malformed('a "<" does not start a tag');
    while (k < n && isNameChar(s.charCodeAt(k))) {
      k++;
      if (k - nameStart > B.nameLength) refuse(`an element name is longer than ${B.nameLength} characters`);
    }
    const name = s.slice(nameStart, k);
    const attrs: Array<[string, string]> = [];
    let selfClosing = false;
    for (;;) {
      const wsStart = k;
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k >= n) malformed('a tag is not closed');
      const c = s.charCodeAt(k);
      if (c === 0x3e /* > */) {
        k++;
        break;
      }
      if (c === 0x2f /* / */) {
        if (s.charCodeAt(k + 1) !== 0x3e) malformed('a tag is not closed');
        selfClosing = true;
        k += 2;
        break;
      }
      if (k === wsStart) malformed('attributes must be separated by spaces');
      const an = k;
      while (k < n && isNameChar(s.charCodeAt(k))) {
        k++;
        if (k - an > B.nameLength) refuse(`an attribute name is longer than ${B.nameLength} characters`);
      }
      if (k === an) malformed('a tag holds a character that starts no attribute');
      const attrName = s.slice(an, k);
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (s.charCodeAt(k) !== 0x3d /* = */) malformed(`the attribute ${attrName.slice(0, 40)} has no value`);
      k++;
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      const q = s.charCodeAt(k);
      if (q !== 0x22 && q !== 0x27) malformed(`the value of ${attrName.slice(0, 40)} is not quoted`);
      const end = s.indexOf(q === 0x22 ? '"' : "'", k + 1);
      if (end < 0) malformed('a quoted attribute value is not closed');
      const value = s.slice(k + 1, end);
      if (value.indexOf('<') >= 0) malformed('an attribute value holds "<"');
      attrs.push([attrName, value]);
      if (attrs.length > B.attributesPerElement) refuse(`an element has more than ${B.attributesPerElement} attributes`);
      k = end + 1;
    }
    if (rootClosed) malformed('more than one root element');
    openElement(name, attrs);
    out.push(s.slice(lt, k));
    if (selfClosing) closeFrame();
    i = k;
  }
  if (!rootSeen) malformed('no <svg> element');
  if (stack.length > 0) malformed(`<${stack[stack.length - 1].name.slice(0, 40)}> is not closed`);

  // ---- after the pass: fan-out and the largest scale anything is drawn at ----
  const expanded = new Map<string, { size: number; rel: number }>();
  const visiting = new Set<string>();
  const expand = (id: string): { size: number; rel: number } => {
    const known = expanded.get(id);
    if (known) return known;
    const sub = subtrees.get(id);
    if (!sub) return { size: 0, rel: 1 };
    if (visiting.has(id)) refuse('an element refers to itself (through <use>, a pattern, a marker, a mask or a filter)');
    visiting.add(id);
    let size = NOT_COPYING.has(sub.tag) ? 0 : sub.elements;
    const base = sub.parentScale > 0 ? sub.parentScale : 1;
    let rel = Math.max(1, sub.maxScale / base);
    for (const r of sub.refs) {
      const t = expand(r.target);
      size += t.size;
      rel = Math.max(rel, (r.scale / base) * t.rel * symbolStretch(r));
      if (size > B.elements) refuse(`it has more than ${fmt(B.elements)} elements once the copies made by <use>, patterns, markers and masks are counted`);
    }
    visiting.delete(id);
    const out = { size, rel };
    expanded.set(id, out);
    return out;
  };
  /** a <symbol> with a viewBox is stretched to the box of the <use> that draws it */
  function symbolStretch(r: Ref): number {
    const sub = subtrees.get(r.target);
    if (!sub || sub.tag !== 'symbol' || !(sub.vbw > 0)) return 1;
    return Math.max(r.boxW / sub.vbw, r.boxH / sub.vbh);
  }
  const rootFrame = rootInfo;
  let total = rootFrame.elements;
  let maxScale = rootFrame.maxScale;
  for (const r of rootFrame.refs) {
    const t = expand(r.target);
    total += t.size;
    maxScale = Math.max(maxScale, r.scale * t.rel * symbolStretch(r));
    if (total > B.elements) refuse(`it has more than ${fmt(B.elements)} elements once the copies made by <use>, patterns, markers and masks are counted`);
  }
  // rules of a <style> element may apply a reference to every element
  for (const id of styleRefs) {
    const t = expand(id);
    total += t.size * elements;
    if (total > B.elements) refuse(`it has more than ${fmt(B.elements)} elements once the copies made by a stylesheet's references are counted`);
  }
  if (styleScale > 1) refuse('a stylesheet scales elements (use the transform attribute instead)');

  // ---- budgets in output pixels ----
  const outputArea = outW * outH;
  const longSide = Math.max(outW, outH);
  for (const [name, v] of pendingFilterParams) {
    const px = v.value * (v.bbox ? longSide : maxScale);
    if (name === 'morphology' && px > B.morphologyRadiusPx)
      refuse(`the morphology radius is ${fmt1(px)} px at print size (maximum ${B.morphologyRadiusPx} px)`);
    if (name === 'blur' && px > B.blurDeviationPx) refuse(`the blur is ${fmt1(px)} px at print size (maximum ${B.blurDeviationPx} px)`);
  }
  for (const r of regions) {
    const w = r.userSpace ? r.w * maxScale : r.w * longSide;
    const h = r.userSpace ? r.h * maxScale : r.h * longSide;
    if (Math.max(w, h) > B.filterRegionSidePx)
      refuse(`a filter region is ${fmt(w)} × ${fmt(h)} px at print size (maximum ${fmt(B.filterRegionSidePx)} px a side)`);
  }
  // filter work: every use of a filter, including the uses inside copied subtrees, over its region
  // (at most the canvas the renderer draws into, or the declared region if smaller)
  const costOf = new Map<string, number>();
  const filterCost = (id: string): number => {
    const f = filters.get(id);
    if (!f) return 0;
    const regionPx = f.userSpace ? Math.min(outputArea, f.w * f.h * maxScale * maxScale) : outputArea * Math.min(1, f.w * f.h);
    let perPx = f.work;
    for (const [rx, ry] of f.morph) perPx += (2 * rx * maxScale + 1) * (2 * ry * maxScale + 1);
    return regionPx * perPx;
  };
  const workIn = (id: string): number => {
    const known = costOf.get(id);
    if (known !== undefined) return known;
    costOf.set(id, 0); // cycles were refused above
    let w = 0;
    for (const r of subtrees.get(id)?.refs ?? []) w += filterCost(r.target) + workIn(r.target);
    costOf.set(id, w);
    return w;
  };
  let filterWork = 0;
  for (const r of rootFrame.refs) filterWork += filterCost(r.target) + workIn(r.target);
  for (const id of styleRefs) filterWork += (filterCost(id) + workIn(id)) * elements;
  if (filterWork > B.filterWork) refuse(`its filters would take about ${fmt(filterWork / 1e6)} million pixel operations at print size (maximum ${fmt(B.filterWork / 1e6)} million)`);
  for (const t of tiles) {
    const w = t.userSpace ? t.w * maxScale : t.w * longSide;
    const h = t.userSpace ? t.h * maxScale : t.h * longSide;
    if (Math.max(w, h) > B.patternTileSidePx) refuse(`a pattern tile is ${fmt(w)} × ${fmt(h)} px at print size (maximum ${fmt(B.patternTileSidePx)} px a side)`);
  }
  const fontPx = Math.max(maxFontUser * maxScale, styleFont * maxScale);
  if (fontPx > B.fontSizePx) refuse(`the text is ${fmt(fontPx)} px high at print size (maximum ${fmt(B.fontSizePx)} px)`);
  const spacingPx = Math.max(maxSpacingUser, styleSpacing) * maxScale;
  if (spacingPx > B.spacingPx) refuse(`the letter or word spacing is ${fmt(spacingPx)} px at print size (maximum ${fmt(B.spacingPx)} px)`);
  // gradients and patterns inheriting through href: a renderer resolves each chain for each one
  for (const start of inherits.keys()) {
    let id: string | undefined = start;
    for (let hops = 0; id !== undefined; hops++) {
      if (hops > B.hrefChain) refuse(`more than ${B.hrefChain} gradients or patterns inherit from one another through href`);
      id = inherits.get(id);
    }
  }

  return { elements, expandedElements: total, depth: maxDepth, outputWidth: outW, outputHeight: outH, maxScale, filterWork, nonUtf8Declaration, text: out.join('') };

  // ------------------------------------------------------------------------------------------

  function openElement(name: string, attrs: Array<[string, string]>) {
    const colon = name.indexOf(':');
    const tag = lower(colon >= 0 ? name.slice(colon + 1) : name);
    elements++;
    if (elements > B.elements) refuse(`it has more than ${fmt(B.elements)} elements`);
    const parent = top();
    if (stack.length + 1 > B.depth) refuse(`elements are nested more than ${B.depth} deep`);
    maxDepth = Math.max(maxDepth, stack.length + 1);

    const a = new Map<string, string>();
    const refs: Ref[] = [];
    let styleDecls: Array<[string, string]> = [];
    for (const [an, av] of attrs) {
      const ln = lower(an);
      if (ln === 'style') {
        if (av.length > B.styleAttributeChars) refuse(`a style attribute is longer than ${fmt(B.styleAttributeChars)} characters`);
        styleAttrChars += av.length;
        if (styleAttrChars > B.styleAttributeCharsTotal) refuse(`its style attributes hold more than ${fmt(B.styleAttributeCharsTotal)} characters`);
        styleDecls = parseDeclarations(av);
      } else if (!a.has(ln)) a.set(ln, av);
    }
    for (const [dn, dv] of styleDecls) {
      if (lower(dn).endsWith('filter')) checkCssFilter(dv);
      if (!a.has(dn) || dn === 'transform' || dn === 'font-size') a.set(dn, dv);
    }
    if (a.has('filter')) checkCssFilter(a.get('filter')!);
    if (TEXT_TAGS.has(tag) && ++textElements > B.textElements) refuse(`it has more than ${fmt(B.textElements)} text and tspan elements`);

    let scale = parent ? parent.scale : 1;
    let symbolVb: [number, number] | null = null;
    let vw = parent ? parent.vw : 100;
    let vh = parent ? parent.vh : 100;
    if (!parent) {
      if (tag !== 'svg') throw new SvgRejectedError('Invalid file: Please upload an SVG.');
      rootSeen = true;
      const root = rootGeometry(a, output);
      outW = root.outW;
      outH = root.outH;
      if (outW * outH > B.outputPixels)
        refuse(`the drawing would be ${fmt(outW)} × ${fmt(outH)} px at print size (maximum ${fmt(B.outputPixels / 1e6)} million pixels)`);
      scale = root.scale;
      vw = root.vw;
      vh = root.vh;
    } else if (tag === 'symbol' && a.has('viewbox')) {
      // never drawn in place: the <use> that draws it sets its box (see `symbolStretch`)
      const vb = parseNumberList(a.get('viewbox')!, 4);
      checkViewBox(vb);
      if (vb.length === 4) {
        symbolVb = [vb[2], vb[3]];
        vw = vb[2];
        vh = vb[3];
      }
    } else if ((tag === 'svg' || tag === 'marker' || tag === 'pattern') && a.has('viewbox')) {
      const vb = parseNumberList(a.get('viewbox')!, 4);
      checkViewBox(vb);
      if (vb.length === 4 && vb[2] > 0 && vb[3] > 0) {
        const w = tag === 'marker' ? (absoluteLength(parseLength(a.get('markerwidth') ?? '3')) ?? 3) : lengthIn(a.get('width'), parent.vw);
        const h = tag === 'marker' ? (absoluteLength(parseLength(a.get('markerheight') ?? '3')) ?? 3) : lengthIn(a.get('height'), parent.vh);
        scale *= Math.max(w / vb[2], h / vb[3], 0);
        vw = vb[2];
        vh = vb[3];
      } else if (vb.length === 4) refuse('a viewBox has no size');
    }
    if (tag === 'marker' && lower(a.get('markerunits') ?? '') !== 'userspaceonuse') {
      // a marker is drawn in units of the stroke width of the path that uses it
      scale *= Math.max(1, maxStrokeWidth);
    }
    if (a.has('transform')) scale *= transformStretch(a.get('transform')!);
    if (tag === 'pattern' && a.has('patterntransform')) scale *= transformStretch(a.get('patterntransform')!);
    if (!Number.isFinite(scale) || scale > 1e9) refuse('a transform scales it without bound');

    if (a.has('stroke-width')) {
      const sw = absoluteLength(parseLength(a.get('stroke-width')!));
      if (sw !== null && Number.isFinite(sw)) maxStrokeWidth = Math.max(maxStrokeWidth, Math.abs(sw));
    }

    // font size in user units (em and % relative to the parent's)
    let font = parent ? parent.font : 16;
    if (a.has('font-size')) {
      const l = parseLength(a.get('font-size')!);
      if (l) {
        const abs = absoluteLength(l);
        if (abs !== null) font = Math.abs(abs);
        else if (l.unit === 'em' || l.unit === 'rem') font = Math.abs(l.value) * (l.unit === 'rem' ? 16 : font);
        else if (l.unit === '%') font = (Math.abs(l.value) / 100) * font;
      }
    }
    const isText = TEXT_TAGS.has(tag);
    if (isText) maxFontUser = Math.max(maxFontUser, font);
    for (const sp of ['letter-spacing', 'word-spacing']) {
      const l = a.has(sp) ? parseLength(a.get(sp)!) : null;
      if (!l) continue;
      const abs = absoluteLength(l);
      const user = abs !== null ? Math.abs(abs) : l.unit === 'em' || l.unit === 'rem' ? Math.abs(l.value) * font : l.unit === '%' ? (Math.abs(l.value) / 100) * font : 0;
      maxSpacingUser = Math.max(maxSpacingUser, Number.isFinite(user) ? user : Infinity);
    }
    if (PAINTED_SHAPES.has(tag)) {
      painted += paintedArea(tag, a, vw, vh, scale, outW * outH);
      if (painted > B.paintedPixels)
        refuse(`its shapes would paint about ${fmt(painted / 1e6)} million pixels at print size (maximum ${fmt(B.paintedPixels / 1e6)} million)`);
    }
    if (a.has('stroke-dasharray')) {
      let period = 0;
      for (const x of parseNumberList(a.get('stroke-dasharray')!, 64)) if (Number.isFinite(x)) period += Math.abs(x);
      if (period > 0) {
        dashes += outlineLength(tag, a, vw, vh) / period;
        if (!(dashes <= B.dashes)) refuse(`its dashed strokes would draw more than ${fmt(B.dashes)} dashes`);
      }
    }
    if ((tag === 'lineargradient' || tag === 'radialgradient' || tag === 'pattern') && a.has('id')) {
      const href = (a.get('href') ?? a.get('xlink:href') ?? '').trim();
      if (href.startsWith('#')) inherits.set(a.get('id')!.trim(), href.slice(1));
    }

    // references: href of <use>, patterns, feImage, textPath; url(#id) in paint, filter, mask, clip-path, markers
    for (const [an, av] of a) {
      if (an === 'href' || an.endsWith(':href')) {
        const v = av.trim();
        if (v.startsWith('#') && tag !== 'a') refs.push({ target: v.slice(1), scale, boxW: lengthIn(a.get('width'), vw), boxH: lengthIn(a.get('height'), vh) });
        else if (lower(v.slice(0, 5)) === 'data:') {
          images++;
          if (images > B.embeddedImages) refuse(`it embeds more than ${B.embeddedImages} images`);
          imagePixels += checkEmbeddedImage(v);
          if (imagePixels > B.embeddedImagePixelsTotal)
            refuse(`its embedded images hold more than ${fmt(B.embeddedImagePixelsTotal / 1e6)} million pixels`);
        }
      } else if (REF_ATTRS.has(an)) {
        for (const id of urlFragments(av)) refs.push({ target: id, scale, boxW: vw, boxH: vh });
      }
    }

    // counts
    if (tag === 'path' && a.has('d')) pathCommands += countPathCommands(a.get('d')!);
    else if ((tag === 'polyline' || tag === 'polygon') && a.has('points')) pathCommands += countNumbers(a.get('points')!) >> 1;
    if (pathCommands > B.pathCommands) refuse(`it has more than ${fmt(B.pathCommands)} path commands`);
    let inFilter = parent?.inFilter ?? null;
    if (tag === 'filter') {
      const userSpace = lower(a.get('filterunits') ?? '') === 'userspaceonuse';
      const w = regionLength(a.get('width'), userSpace, vw);
      const h = regionLength(a.get('height'), userSpace, vh);
      inFilter = { work: 0, morph: [], userSpace, w, h };
      regions.push({ w, h, userSpace });
      primitiveBBox = lower(a.get('primitiveunits') ?? '') === 'objectboundingbox';
      if (a.has('id')) filters.set(a.get('id')!.trim(), inFilter);
    } else if (tag.startsWith('fe') && FILTER_PRIMITIVES.has(tag)) {
      primitives++;
      if (primitives > B.filterPrimitives) refuse(`it has more than ${B.filterPrimitives} filter effects`);
      if (inFilter) primitiveWork(tag, a, inFilter, pendingFilterParams, primitiveBBox);
    }
    if (tag === 'pattern') {
      patterns++;
      if (patterns > B.patterns) refuse(`it has more than ${B.patterns} patterns`);
      const userSpace = lower(a.get('patternunits') ?? '') === 'userspaceonuse';
      const w = absoluteLength(parseLength(a.get('width') ?? '0')) ?? 0;
      const h = absoluteLength(parseLength(a.get('height') ?? '0')) ?? 0;
      tiles.push({ w: Math.abs(w), h: Math.abs(h), userSpace });
    }
    if (tag === 'stop' && parent) {
      parent.stops++;
      stopsTotal++;
      if (parent.stops > B.gradientStops) refuse(`a gradient has more than ${B.gradientStops} stops`);
      if (stopsTotal > B.gradientStopsTotal) refuse(`it has more than ${fmt(B.gradientStopsTotal)} gradient stops`);
    }
    if (tag === 'style') styleText = [];
    if (isText) textDepth++;

    const id = a.has('id') ? a.get('id')!.trim() : null;
    stack.push({ tag, name, scale, font, vw, vh, id, elements: 1, refs, maxScale: scale, inFilter, stops: 0, vb: symbolVb });
    if (!parent) rootInfo = top();
  }

  function closeFrame() {
    const frame = stack.pop()!;
    const parent = top();
    if (frame.tag === 'style' && styleText) {
      readStylesheet(styleText.join(''));
      styleText = null;
    }
    if (TEXT_TAGS.has(frame.tag)) textDepth--;
    if (frame.id && !subtrees.has(frame.id)) {
      subtrees.set(frame.id, {
        tag: frame.tag,
        elements: frame.elements,
        refs: frame.refs,
        maxScale: frame.maxScale,
        parentScale: parent ? parent.scale : frame.scale,
        vbw: frame.vb?.[0] ?? 0,
        vbh: frame.vb?.[1] ?? 0,
      });
    }
    if (parent) {
      parent.elements += frame.elements;
      for (const r of frame.refs) parent.refs.push(r);
      parent.maxScale = Math.max(parent.maxScale, frame.maxScale);
    } else {
      rootClosed = true;
    }
  }

  function readStylesheet(css: string) {
    // declarations anywhere in the sheet: a transform that stretches, the largest font size, references
    const low = lower(css);
    let from = 0;
    for (;;) {
      const at = low.indexOf('transform', from);
      if (at < 0) break;
      let k = at + 9;
      while (k < low.length && isSpace(low.charCodeAt(k))) k++;
      if (low[k] === ':') {
        let end = k + 1;
        while (end < low.length && low[end] !== ';' && low[end] !== '}') end++;
        styleScale = Math.max(styleScale, transformStretch(css.slice(k + 1, end)));
        from = end;
      } else from = at + 9;
    }
    from = 0;
    for (;;) {
      const at = low.indexOf('font-size', from);
      if (at < 0) break;
      let k = at + 9;
      while (k < low.length && isSpace(low.charCodeAt(k))) k++;
      if (low[k] === ':') {
        let end = k + 1;
        while (end < low.length && low[end] !== ';' && low[end] !== '}') end++;
        const l = parseLength(css.slice(k + 1, end).replace('!important', ''));
        const abs = absoluteLength(l);
        if (abs !== null) styleFont = Math.max(styleFont, Math.abs(abs));
        else if (l && (l.unit === 'em' || l.unit === 'rem' || l.unit === '%')) styleFont = Math.max(styleFont, Math.abs(l.value) * (l.unit === '%' ? 0.16 : 16));
        from = end;
      } else from = at + 9;
    }
    // filter: refused with a function other than url() (checkCssFilter); letter/word spacing: in pixels at the end
    const values = (prop: string, fn: (value: string) => void) => {
      for (let at = low.indexOf(prop); at >= 0; ) {
        let k = at + prop.length;
        // a declaration's name starts after `{`, `;`, space or a vendor prefix's `-` (not `.filter` in a selector)
        const before = at > 0 ? low.charCodeAt(at - 1) : 0x7b;
        if (before === 0x7b || before === 0x3b || before === 0x2d || isSpace(before)) {
          while (k < low.length && isSpace(low.charCodeAt(k))) k++;
          if (low[k] === ':') {
            let end = k + 1;
            while (end < low.length && low[end] !== ';' && low[end] !== '}') end++;
            fn(css.slice(k + 1, end));
            k = end;
          }
        }
        at = low.indexOf(prop, k);
      }
    };
    values('filter', checkCssFilter);
    for (const prop of ['letter-spacing', 'word-spacing']) {
      values(prop, (v) => {
        const l = parseLength(v.replace('!important', ''));
        const abs = absoluteLength(l);
        const user = abs !== null ? Math.abs(abs) : l && (l.unit === 'em' || l.unit === 'rem') ? Math.abs(l.value) * Math.max(16, styleFont, maxFontUser) : 0;
        styleSpacing = Math.max(styleSpacing, Number.isFinite(user) ? user : Infinity);
      });
    }
    styleRefs = styleRefs.concat(urlFragments(css, 256));
  }
}

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0x80;
}
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
}

/** A width/height in user units: absolute lengths, or a percentage of the given viewport side. */
function lengthIn(raw: string | undefined, viewport: number): number {
  if (raw === undefined) return viewport;
  const l = parseLength(raw);
  if (!l) return viewport;
  if (l.unit === '%') return (Math.abs(l.value) / 100) * viewport;
  const abs = absoluteLength(l);
  return abs === null ? viewport : Math.abs(abs);
}

/** A filter region side: a fraction of the box (default 120%) or user units. */
function regionLength(raw: string | undefined, userSpace: boolean, viewport: number): number {
  if (raw === undefined) return userSpace ? viewport * 1.2 : 1.2;
  const l = parseLength(raw);
  if (!l) return userSpace ? viewport * 1.2 : 1.2;
  if (l.unit === '%') return userSpace ? (Math.abs(l.value) / 100) * viewport : Math.abs(l.value) / 100;
  const abs = absoluteLength(l);
  return Math.abs(abs ?? (userSpace ? viewport : 1.2));
}

function rootGeometry(a: Map<string, string>, output: SvgOutput) {
  const vbRaw = a.get('viewbox');
  const vb = vbRaw === undefined ? [] : parseNumberList(vbRaw, 4);
  checkViewBox(vb);
  const hasVb = vb.length === 4;
  const wAttr = absoluteLength(parseLength(a.get('width') ?? ''));
  const hAttr = absoluteLength(parseLength(a.get('height') ?? ''));
  let W = wAttr !== null && wAttr > 0 ? wAttr : null;
  let H = hAttr !== null && hAttr > 0 ? hAttr : null;
  if (W === null && H === null) {
    W = hasVb ? vb[2] : 100;
    H = hasVb ? vb[3] : 100;
  } else if (W === null) W = hasVb ? (H! * vb[2]) / vb[3] : 100;
  else if (H === null) H = hasVb ? (W * vb[3]) / vb[2] : 100;
  const k = output.mode === 'width' ? output.pixels / W! : output.pixels / Math.max(W!, H!);
  const outW = W! * k;
  const outH = H! * k;
  // viewBox to viewport: the larger of the two axis scales (meet, slice or none: an upper bound)
  const scale = hasVb ? Math.max(outW / vb[2], outH / vb[3]) : k;
  return { outW, outH, scale, vw: hasVb ? vb[2] : W!, vh: hasVb ? vb[3] : H! };
}

/** Adds a filter primitive's per-pixel cost (feOffset = 1) to its filter; radii and deviations are kept to check in pixels later. */
function primitiveWork(
  tag: string,
  a: Map<string, string>,
  f: FilterInfo,
  pending: Array<['morphology' | 'blur', { value: number; bbox: boolean }]>,
  bbox: boolean,
): void {
  const nums = (name: string) => parseNumberList(a.get(name) ?? '', 4).map((x) => (Number.isNaN(x) ? 0 : Math.abs(x)));
  switch (tag) {
    case 'femorphology': {
      const r = nums('radius');
      const rx = r[0] ?? 0;
      const ry = r[1] ?? rx;
      pending.push(['morphology', { value: Math.max(rx, ry), bbox }]);
      f.morph.push([rx, ry]);
      f.work += 1;
      return;
    }
    case 'fegaussianblur':
    case 'fedropshadow': {
      const d = nums('stddeviation');
      pending.push(['blur', { value: Math.max(d[0] ?? 0, d[1] ?? 0), bbox }]);
      f.work += 8;
      return;
    }
    case 'feconvolvematrix': {
      const o = nums('order');
      const ox = o[0] ?? 3;
      const oy = o[1] ?? ox;
      if (Math.max(ox, oy) > SVG_BUDGETS.convolveOrder) refuse(`a convolution matrix is ${fmt(ox)} × ${fmt(oy)} (maximum ${SVG_BUDGETS.convolveOrder} × ${SVG_BUDGETS.convolveOrder})`);
      f.work += ox * oy * 4;
      return;
    }
    case 'feturbulence': {
      const o = nums('numoctaves')[0] ?? 1;
      if (o > SVG_BUDGETS.turbulenceOctaves) refuse(`the turbulence has ${fmt(o)} octaves (maximum ${SVG_BUDGETS.turbulenceOctaves})`);
      f.work += 20 * Math.max(1, o);
      return;
    }
    case 'fediffuselighting':
    case 'fespecularlighting':
    case 'fedisplacementmap':
      f.work += 10;
      return;
    default:
      f.work += 1;
  }
}

/** Path commands: the letters of `d` (an `e`/`E` exponent is not one). */
function countPathCommands(d: string): number {
  let count = 0;
  for (let k = 0; k < d.length; k++) {
    const c = d.charCodeAt(k) | 0x20;
    if (c >= 0x61 && c <= 0x7a && c !== 0x65) count++;
  }
  return count;
}

function countNumbers(s: string): number {
  let count = 0;
  let inNum = false;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    const digit = (c >= 0x30 && c <= 0x39) || c === 0x2e;
    if (digit && !inNum) count++;
    inNum = digit;
  }
  return count;
}

/** An embedded data: image: its declared size, from the first bytes (PNG, GIF, WebP, JPEG headers); returns its pixels. */
function checkEmbeddedImage(uri: string): number {
  const comma = uri.indexOf(',');
  if (comma < 0) return 0;
  const meta = lower(uri.slice(5, comma));
  if (!meta.endsWith(';base64')) return 0;
  // the first 48 KB decoded are enough for every header below (JPEG's size is in its first frame marker)
  let b64 = '';
  for (let k = comma + 1; k < uri.length && b64.length < 65_536; k++) {
    const c = uri.charCodeAt(k);
    if (!isSpace(c)) b64 += uri[k];
  }
  const bytes = Buffer.from(b64.slice(0, b64.length - (b64.length % 4)), 'base64');
  const size = imageHeaderSize(bytes);
  if (size && size.w * size.h > SVG_BUDGETS.embeddedImagePixels)
    refuse(`an embedded image is ${fmt(size.w)} × ${fmt(size.h)} pixels (maximum ${fmt(SVG_BUDGETS.embeddedImagePixels / 1e6)} million pixels)`);
  return size ? size.w * size.h : 0;
}

/** `<`, `>` and `&` as entities (CDATA content handed to the parser as ordinary text). */
function escapeText(t: string): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c !== 0x3c && c !== 0x3e && c !== 0x26) continue;
    out += t.slice(from, k) + (c === 0x3c ? '&lt;' : c === 0x3e ? '&gt;' : '&amp;');
    from = k + 1;
  }
  return from === 0 ? t : out + t.slice(from);
}

/** A viewBox must have a finite, positive size and an aspect ratio within the budget. */
function checkViewBox(vb: number[]) {
  if (vb.length !== 4) return;
  if (!vb.every(Number.isFinite) || !(vb[2] > 0 && vb[3] > 0)) refuse('a viewBox has no size');
  const ratio = Math.max(vb[2] / vb[3], vb[3] / vb[2]);
  if (!(ratio <= SVG_BUDGETS.viewBoxAspect)) refuse(`a viewBox is ${fmt(ratio)} times longer than it is wide (maximum ${SVG_BUDGETS.viewBoxAspect})`);
}

/**
 * CSS filter functions (blur(), drop-shadow(), ...) in a filter property or attribute are refused:
 * a blur's cost is in output pixels like feGaussianBlur's, and an SVG <filter> (budgeted above)
 * does the same. `url(#id)` and keywords pass.
 */
function checkCssFilter(value: string) {
  for (let k = value.indexOf('('); k >= 0; k = value.indexOf('(', k + 1)) {
    if (lower(value.slice(Math.max(0, k - 3), k)) !== 'url')
      refuse('CSS filter functions such as blur() or drop-shadow() are not accepted (use an SVG <filter> element)');
  }
}

/** An upper bound of a shape's outline length in user units (paths: twice the sum of their numbers' sizes). */
function outlineLength(tag: string, a: Map<string, string>, vw: number, vh: number): number {
  const len = (name: string, viewport: number) => (a.has(name) ? lengthIn(a.get(name), viewport) : 0);
  const diag = Math.hypot(vw, vh) / Math.SQRT2;
  if (tag === 'circle') return 2 * Math.PI * len('r', diag);
  if (tag === 'ellipse') return Math.PI * 2 * Math.max(len('rx', vw), len('ry', vh));
  if (tag === 'rect') return 2 * (len('width', vw) + len('height', vh));
  if (tag === 'line') return Math.hypot(len('x2', vw) - len('x1', vw), len('y2', vh) - len('y1', vh));
  const raw = tag === 'path' ? a.get('d') : tag === 'polyline' || tag === 'polygon' ? a.get('points') : undefined;
  if (raw === undefined) return 2 * (vw + vh); // text, use, groups: one viewport's outline (a guess, not a bound)
  let sum = 0;
  for (let k = 0; k < raw.length; ) {
    const c = raw.charCodeAt(k);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2e) {
      const start = k;
      while (k < raw.length) {
        const d = raw.charCodeAt(k);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || ((d === 0x65 || d === 0x45) && k > start)) k++;
        else if ((d === 0x2b || d === 0x2d) && (raw.charCodeAt(k - 1) | 0x20) === 0x65) k++;
        else break;
      }
      const x = Number(raw.slice(start, k));
      sum += Number.isNaN(x) ? 0 : x;
    } else k++;
  }
  return 2 * sum;
}

const PAINTED_SHAPES = new Set(['rect', 'circle', 'ellipse', 'line', 'image']);

/** A basic shape's box with its stroke, in output pixels, clipped to the canvas. */
function paintedArea(tag: string, a: Map<string, string>, vw: number, vh: number, scale: number, canvas: number): number {
  const len = (name: string, viewport: number, fallback = 0) => (a.has(name) ? lengthIn(a.get(name), viewport) : fallback);
  const stroke = a.has('stroke') && lower(a.get('stroke')!.trim()) !== 'none';
  const sw = stroke ? len('stroke-width', Math.hypot(vw, vh) / Math.SQRT2, 1) : 0;
  let w: number;
  let h: number;
  if (tag === 'circle') w = h = 2 * len('r', Math.hypot(vw, vh) / Math.SQRT2);
  else if (tag === 'ellipse') {
    w = 2 * len('rx', vw);
    h = 2 * len('ry', vh);
  } else if (tag === 'line') {
    w = Math.abs(len('x2', vw) - len('x1', vw));
    h = Math.abs(len('y2', vh) - len('y1', vh));
  } else {
    w = len('width', vw);
    h = len('height', vh);
  }
  const px = (w + sw) * scale * (h + sw) * scale;
  return Number.isFinite(px) ? Math.min(px, canvas) : canvas;
}

function imageHeaderSize(b: Buffer): { w: number; h: number } | null {
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return { w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return { w: b.readUInt16LE(6), h: b.readUInt16LE(8) };
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const kind = b.toString('latin1', 12, 16);
    if (kind === 'VP8X') return { w: 1 + b.readUIntLE(24, 3), h: 1 + b.readUIntLE(27, 3) };
    if (kind === 'VP8 ' && b.length >= 30) return { w: b.readUInt16LE(26) & 0x3fff, h: b.readUInt16LE(28) & 0x3fff };
    if (kind === 'VP8L' && b.length >= 25) {
      const v = b.readUInt32LE(21);
      return { w: 1 + (v & 0x3fff), h: 1 + ((v >> 14) & 0x3fff) };
    }
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let p = 2;
    while (p + 9 < b.length) {
      if (b[p] !== 0xff) return null;
      const marker = b[p + 1];
      const len = b.readUInt16BE(p + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { h: b.readUInt16BE(p + 5), w: b.readUInt16BE(p + 7) };
      if (len < 2) return null;
      p += 2 + len;
    }
  }
  return null;
}
