import { qrSvgGroup, type QrStyle, QR_QUIET_ZONE, QR_STYLES } from '#shared/qr/qr-svg';
import { fieldValues, TEMPLATE_FIELDS, type CardData, type FillOptions, type TemplateField } from './fields';
import { fitText, type FitResult } from './fit';
import { lookAfterFill, lookBeforeFill } from './apply-look';
import type { TextStyle } from './measure';
import { escapeXml, findElements, fmt, numAttr, replaceElements, serializeAttrs, styleProp, type Attrs, type FoundElement } from './xml';

/**
 * Fills a card template (SVG text) with a person's data. Pure string work: the same code runs in
 * the browser (live preview) and on the server (PNG/JPEG render).
 *
 * Template markup (see docs/decisions/03-02-card-template-markup.md):
 * - `<text data-field="fullName" ...>`: replaced by the value; `data-max-width`, `data-fit`
 *   (shrink | wrap), `data-max-lines`, `data-min-size`, `data-line-height`, `data-transform`
 *   (uppercase | lowercase), `data-grow="up"`. Removed when the value is empty.
 * - `<g data-stack="..." data-gap="46" [data-valign="middle" data-center-y="300"]>`: its fields are
 *   laid out one under another, empty ones dropped; `data-label`/`data-label-x` print a label.
 * - `<g data-slot="qr" data-x data-y data-size [data-qr-border data-qr-border-width data-qr-style]>`:
 *   replaced by the QR code of `qrUrl`, drawn with its quiet zone (CARD_QR_MARGIN modules) inside
 *   the `data-size` box; its own content is the placeholder shown without one.
 * - `<g data-slot="logo" data-x data-y data-width data-height [data-align]>`: replaced by the logo
 *   image; its own content (e.g. a monogram with {{initials}}) is shown without a logo.
 * - `data-if="companyName"` / `data-if-not="logo"` on any element: kept only when the field is
 *   (not) filled; `|` separates alternatives.
 * - `{{field}}` anywhere: replaced by the escaped value.
 * Every value is XML-escaped: user text is always text, never markup.
 */

export interface FillResult {
  svg: string;
  /** fields that had to be cut with an ellipsis to stay on the card */
  truncated: TemplateField[];
}

type Values = Record<TemplateField, string> & { logo: string; qr: string };

const isField = (f: string | undefined): f is TemplateField => !!f && (TEMPLATE_FIELDS as readonly string[]).includes(f);

export function fillTemplate(svg: string, data: CardData, opts: FillOptions = {}): string {
  return fillTemplateDetailed(svg, data, opts).svg;
}

export function fillTemplateDetailed(template: string, data: CardData, opts: FillOptions = {}): FillResult {
  const values: Values = { ...fieldValues(data, opts), logo: opts.logoHref ? 'yes' : '', qr: opts.qrUrl ? 'yes' : '' };
  const truncated = new Set<TemplateField>();
  // 0) the customer's font, the weights a metal can hold, the logo box (look.ts)
  const svg = lookBeforeFill(template, data.look);

  // 1) conditional elements
  let out = removeConditionals(svg, values);

  // 2) slots
  const slots = findElements(out, (tag, a) => tag === 'g' && a.has('data-slot'));
  out = replaceElements(out, slots, (el) => renderSlot(out, el, opts));

  // 3) stacks, then 4) single fields
  const stacks = findElements(out, (tag, a) => tag === 'g' && a.has('data-stack'));
  out = replaceElements(out, stacks, (el) => renderStack(out, el, values, truncated));
  const fields = findElements(out, (tag, a) => tag === 'text' && a.has('data-field'));
  out = replaceElements(out, fields, (el) => {
    const laid = layoutField(el, values, truncated);
    return laid ? renderText(laid, laid.y) : '';
  });

  // 5) tokens
  out = out.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (m, name: string) => (isField(name) ? escapeXml(values[name]) : m));
  // 6) the card type's metal, engraving colour and accent
  out = lookAfterFill(out, data.look);
  return { svg: out, truncated: [...truncated] };
}

function removeConditionals(svg: string, values: Values): string {
  const has = (expr: string) =>
    expr
      .split('|')
      .map((s) => s.trim())
      .some((f) => (f in values ? !!values[f as keyof Values] : false));
  // outermost first; strip the markers of kept elements and look again (they may hold more)
  let out = svg;
  for (let guard = 0; guard < 100; guard++) {
    const found = findElements(out, (_t, a) => a.has('data-if') || a.has('data-if-not'));
    if (found.length === 0) return out;
    const drop = found.filter((el) => {
      const ifv = el.attrs.get('data-if');
      const ifNot = el.attrs.get('data-if-not');
      return (ifv !== undefined && !has(ifv)) || (ifNot !== undefined && has(ifNot));
    });
    if (drop.length > 0) {
      out = replaceElements(out, drop, () => '');
      continue;
    }
    const src = out;
    out = replaceElements(src, found, (el) => {
      const attrs = new Map(el.attrs);
      attrs.delete('data-if');
      attrs.delete('data-if-not');
      return `<${el.tag}${serializeAttrs(attrs)}${el.selfClosing ? '/>' : '>'}` + (el.selfClosing ? '' : src.slice(el.openEnd, el.end));
    });
  }
  return out;
}

function attrNum(a: Attrs, name: string, fallback: number) {
  return numAttr(a, name, fallback);
}

/**
 * The clear margin, in modules of the code itself, that a card's QR slot keeps inside its box
 * (issue 36): the 4 modules ISO/IEC 18004 asks for, plus one for the engraver's registration and the
 * print check's 300 DPI measure (an exactly-4 margin reads 3.3-3.8 there). The code shrinks inside
 * the slot as its version grows, so the margin holds at every data length; the preview draws it as
 * the code's light square and the print file clears the same square (print what was previewed).
 */
export const CARD_QR_MARGIN = QR_QUIET_ZONE + 1;

/** QR drawings are the same for the same URL and slot: keep the last few (typing re-fills often). */
const qrCache = new Map<string, string>();

function renderSlot(svg: string, el: FoundElement, opts: FillOptions): string {
  const a = el.attrs;
  const kind = a.get('data-slot');
  const inner = el.selfClosing ? '' : svg.slice(el.openEnd, el.closeStart);
  const x = attrNum(a, 'data-x', 0);
  const y = attrNum(a, 'data-y', 0);
  if (kind === 'qr') {
    const size = attrNum(a, 'data-size', 160);
    const border = a.get('data-qr-border');
    const borderWidth = attrNum(a, 'data-qr-border-width', 2);
    const pad = attrNum(a, 'data-qr-border-pad', 8);
    const radius = attrNum(a, 'data-qr-border-radius', 6);
    const styleAttr = a.get('data-qr-style') as QrStyle | undefined;
    const style: QrStyle = styleAttr && QR_STYLES.includes(styleAttr) ? styleAttr : 'standard';
    const borderRect =
      border && /^#[0-9a-fA-F]{3,8}$/.test(border)
        ? `<rect x="${fmt(x - pad)}" y="${fmt(y - pad)}" width="${fmt(size + 2 * pad)}" height="${fmt(size + 2 * pad)}" rx="${fmt(radius)}" fill="none" stroke="${border}" stroke-width="${fmt(borderWidth)}"/>`
        : '';
    if (!opts.qrUrl) return `<g class="qr-slot">${borderRect}${inner}</g>`;
    const fg = a.get('data-qr-fg');
    const bg = a.get('data-qr-bg');
    const key = `${opts.qrUrl}|${x}|${y}|${size}|${style}|${fg ?? ''}|${bg ?? ''}`;
    let group = qrCache.get(key);
    if (group === undefined) {
      group = qrSvgGroup(opts.qrUrl, {
        x,
        y,
        size,
        style,
        ecl: 'M',
        margin: style === 'circular' ? 0 : CARD_QR_MARGIN,
        ...(fg && /^#[0-9a-fA-F]{3,8}$/.test(fg) ? { fg } : {}),
        ...(bg && /^#[0-9a-fA-F]{3,8}$/.test(bg) ? { bg } : {}),
      });
      if (qrCache.size >= 64) qrCache.delete(qrCache.keys().next().value as string);
      qrCache.set(key, group);
    }
    return `<g class="qr-code">${borderRect}${group}</g>`;
  }
  if (kind === 'logo') {
    if (!opts.logoHref) return `<g class="logo-slot">${inner}</g>`;
    const w = attrNum(a, 'data-width', 120);
    const h = attrNum(a, 'data-height', 120);
    const align = a.get('data-align') === 'right' ? 'xMax' : a.get('data-align') === 'left' ? 'xMin' : 'xMid';
    return `<g class="logo"><image x="${fmt(x)}" y="${fmt(y)}" width="${fmt(w)}" height="${fmt(h)}" preserveAspectRatio="${align}YMid meet" href="${escapeXml(opts.logoHref)}"/></g>`;
  }
  return `<g>${inner}</g>`;
}

interface LaidOut {
  el: FoundElement;
  style: TextStyle;
  fit: FitResult;
  lineHeightPx: number;
  y: number;
  growUp: boolean;
}

function textStyle(a: Attrs): TextStyle {
  const weightRaw = a.get('font-weight') ?? styleProp(a, 'font-weight');
  const weight = weightRaw === 'bold' ? 700 : weightRaw === 'normal' || !weightRaw ? 400 : parseInt(weightRaw, 10) || 400;
  const styleRaw = a.get('font-style') ?? styleProp(a, 'font-style');
  return {
    fontFamily: a.get('font-family') ?? styleProp(a, 'font-family'),
    fontSize: numAttr(a, 'font-size', 16),
    fontWeight: weight,
    fontStyle: styleRaw === 'italic' ? 'italic' : 'normal',
    letterSpacing: numAttr(a, 'letter-spacing', 0),
  };
}

function layoutField(el: FoundElement, values: Values, truncated: Set<TemplateField>): LaidOut | null {
  const a = el.attrs;
  const field = a.get('data-field');
  if (!isField(field)) return null;
  let value = values[field];
  if (!value) return null;
  const transform = a.get('data-transform');
  if (transform === 'uppercase') value = value.toLocaleUpperCase('en-US');
  else if (transform === 'lowercase') value = value.toLocaleLowerCase('en-US');
  const style = textStyle(a);
  const fit = fitText(value, style, {
    maxWidth: attrNum(a, 'data-max-width', 0),
    mode: a.get('data-fit') === 'wrap' ? 'wrap' : 'shrink',
    maxLines: attrNum(a, 'data-max-lines', 2),
    minSize: attrNum(a, 'data-min-size', Math.round(style.fontSize * 0.6)),
  });
  if (fit.truncated) truncated.add(field);
  return {
    el,
    style,
    fit,
    lineHeightPx: attrNum(a, 'data-line-height', 1.2) * fit.fontSize,
    y: attrNum(a, 'y', 0),
    growUp: a.get('data-grow') === 'up',
  };
}

function renderText(l: LaidOut, y: number): string {
  const attrs: Attrs = new Map();
  for (const [k, v] of l.el.attrs) {
    if (k.startsWith('data-') || k === 'y' || k === 'font-size' || k === 'letter-spacing') continue;
    if (k === 'style') {
      const kept = v
        .split(';')
        .filter((d) => d.trim() && !/^\s*(font-size|letter-spacing)\s*:/i.test(d))
        .join(';');
      if (kept) attrs.set(k, kept);
      continue;
    }
    attrs.set(k, v);
  }
  const lines = l.fit.lines;
  const firstY = l.growUp ? y - (lines.length - 1) * l.lineHeightPx : y;
  attrs.set('y', fmt(firstY));
  attrs.set('font-size', fmt(l.fit.fontSize));
  if (l.fit.letterSpacing) attrs.set('letter-spacing', fmt(l.fit.letterSpacing));
  if (lines.length <= 1) return `<text${serializeAttrs(attrs)}>${escapeXml(lines[0] ?? '')}</text>`;
  const x = l.el.attrs.get('x') ?? '0';
  const spans = lines
    .map((line, i) => `<tspan x="${escapeXml(x)}" y="${fmt(firstY + i * l.lineHeightPx)}">${escapeXml(line)}</tspan>`)
    .join('');
  return `<text${serializeAttrs(attrs)}>${spans}</text>`;
}

function renderStack(svg: string, el: FoundElement, values: Values, truncated: Set<TemplateField>): string {
  const a = el.attrs;
  const gap = attrNum(a, 'data-gap', 40);
  const inner = svg.slice(el.openEnd, el.closeStart);
  const items = findElements(inner, (tag, at) => tag === 'text' && at.has('data-field'));
  const laid = items.map((it) => layoutField(it, values, truncated));
  const present = laid.filter((l): l is LaidOut => l !== null);

  // advance of each item: the gap, plus the extra lines it wrapped onto
  const advances = present.map((l) => gap + (l.fit.lines.length - 1) * l.lineHeightPx);
  let y0 = present.length ? attrNum(items[0].attrs, 'y', 0) : 0;
  if (a.get('data-valign') === 'middle' && present.length) {
    const centerY = attrNum(a, 'data-center-y', 300);
    const span = advances.slice(0, -1).reduce((s, v) => s + v, 0) + (present[present.length - 1].fit.lines.length - 1) * present[present.length - 1].lineHeightPx;
    const capHalf = present[0].fit.fontSize * 0.36;
    y0 = centerY - span / 2 + capHalf;
  }

  const rendered = new Map<FoundElement, string>();
  let y = y0;
  present.forEach((l, i) => {
    let label = '';
    const labelText = l.el.attrs.get('data-label');
    if (labelText) {
      const la: Attrs = new Map();
      la.set('x', l.el.attrs.get('data-label-x') ?? '0');
      la.set('y', fmt(y));
      for (const k of ['font-family', 'font-weight', 'letter-spacing']) {
        const v = l.el.attrs.get(`data-label-${k}`) ?? l.el.attrs.get(k);
        if (v) la.set(k, v);
      }
      la.set('font-size', l.el.attrs.get('data-label-size') ?? fmt(l.style.fontSize * 0.8));
      la.set('fill', l.el.attrs.get('data-label-fill') ?? '#9a9a9a');
      if (l.el.attrs.get('data-label-anchor')) la.set('text-anchor', l.el.attrs.get('data-label-anchor')!);
      label = `<text${serializeAttrs(la)}>${escapeXml(labelText)}</text>`;
    }
    rendered.set(l.el, label + renderText(l, y));
    y += advances[i];
  });
  const body = replaceElements(inner, items, (it) => rendered.get(it) ?? '');
  const ga: Attrs = new Map([...a].filter(([k]) => !k.startsWith('data-')));
  return `<g${serializeAttrs(ga)}>${body}</g>`;
}
