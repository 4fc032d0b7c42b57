import type { CardTypeId, PrintProcess } from '#shared/catalogue';
import { CARD_TYPE_PROCESSES } from '#shared/catalogue';
import { finishOf, type CardFinish } from '#shared/templates/look';
import { MIN_INK, inkAmount, inkScale } from '#shared/templates/engraving';
import { IDENTITY, applyMatrix, multiply, parseTransform, pathBounds, type Matrix, type XNode } from './usvg';
import type { Box } from './geometry';

/**
 * The print artwork of one card side (issue 22, decision 22-01), built from usvg's simplified SVG
 * of the same filled template the previews use. Every drawn thing becomes an item on a process:
 *
 * - Engraving (Standard Metal, Black Anodized, Luxury Titanium): the template is drawn as light
 *   marks on the black metal background; how much of the engraving tone a colour holds (0 = the
 *   metal, 1 = the engraving) becomes the tint of the spot colour "Engrave". The metal itself (the
 *   background, tones under MIN_INK) is not engraved.
 * - Colour print (Color Metal): the same tones decide what is metal; the rest is printed in CMYK.
 * - The QR code is drawn from its module matrix: where the engraving is lighter than the metal
 *   (black steel, black aluminium), the light part (a 4-module quiet zone around the code, minus the
 *   dark modules) is engraved; where it is darker (titanium) or printed, the dark modules are.
 */

export type FillRule = 'nonzero' | 'evenodd';
export type Ink = { process: 'engrave'; tint: number } | { process: 'cmyk'; cmyk: [number, number, number, number] };

export interface ClipPath {
  /** path data in card units (already transformed) */
  d: string;
  rule: FillRule;
}

export interface PathItem {
  kind: 'path';
  d: string;
  /** the path's matrix in card units */
  m: Matrix;
  fill: { ink: Ink; rule: FillRule } | null;
  stroke: { ink: Ink; width: number; cap: 'butt' | 'round' | 'square'; join: 'miter' | 'round' | 'bevel'; miter: number; dash: number[] | null; offset: number } | null;
  clips: ClipPath[];
}

export interface ImageItem {
  kind: 'image';
  process: PrintProcess;
  m: Matrix;
  /** the image's box in its own coordinates (before the aspect-ratio fit) */
  box: Box;
  preserveAspectRatio: string;
  href: string;
  opacity: number;
  clips: ClipPath[];
  /** set by the worker once the image is read: where it is drawn (its own coordinates), its
   * effective resolution and the separation preview (PNG data URI) the SVG and the proof show */
  drawn?: Box;
  dpi?: number;
  previewHref?: string;
}

export type ArtItem = PathItem | ImageItem;

export interface QrPlacement {
  /** the slot's box in card units (the code with its 2-module margin, as the preview draws it) */
  box: Box;
  modules: number;
  moduleUnits: number;
  /** modules of quiet zone the print file draws around the code */
  quietModules: number;
  /** where the code's own modules start (card units) */
  origin: { x: number; y: number };
  /** engrave the light part (quiet zone minus dark modules), or the dark modules */
  marks: 'light' | 'dark';
  item: PathItem;
}

export interface TextBox {
  id: string;
  text: string;
  bounds: { minX: number; minY: number; maxX: number; maxY: number } | null;
}

export interface PrintSide {
  side: 'front' | 'back';
  process: PrintProcess;
  items: ArtItem[];
  qr: QrPlacement[];
  texts: TextBox[];
  warnings: string[];
}

// the ink rule is shared with the designer's "as engraved" preview (decision 37-06)
export { MIN_INK, inkAmount, inkScale };
/** The quiet zone the print file gives the QR code (ISO/IEC 18004 asks for 4 modules). */
export const QR_QUIET_MODULES = 4;

export const QR_MARKER_ID = 'mcprint-qr';
export const TEXT_MARKER_PREFIX = 'mcprint-t';

const lum = (rgb: [number, number, number]) => (rgb[0] + rgb[1] + rgb[2]) / 3 / 255;

export function parseColor(c: string | undefined): [number, number, number] | null {
  if (!c) return null;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(c.trim());
  if (m) {
    const h = m[1].length === 3 ? m[1].replace(/./g, (x) => x + x) : m[1];
    return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
  }
  const r = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(c.trim());
  if (r) return [Number(r[1]), Number(r[2]), Number(r[3])];
  if (c === 'black') return [0, 0, 0];
  if (c === 'white') return [255, 255, 255];
  return null;
}

/** The finish a card type prints on (an unknown type prints as Standard Metal). */
export function printFinish(cardType: string): CardFinish {
  return finishOf(cardType) ?? finishOf('standard')!;
}

export function processOf(cardType: string): PrintProcess {
  return (CARD_TYPE_PROCESSES[cardType as CardTypeId] ?? CARD_TYPE_PROCESSES.standard)[0];
}

/** A naive RGB -> CMYK (no ICC profile: the printer's RIP makes the final conversion). Values 0..1. */
export function rgbToCmyk(rgb: [number, number, number]): [number, number, number, number] {
  const [r, g, b] = rgb.map((v) => v / 255);
  const k = 1 - Math.max(r, g, b);
  if (k >= 1) return [0, 0, 0, 1];
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  return [r3((1 - r - k) / (1 - k)), r3((1 - g - k) / (1 - k)), r3((1 - b - k) / (1 - k)), r3(k)];
}

/** Engraving lightens the metal (steel, aluminium) or darkens it (titanium). */
export function engravingLightens(f: CardFinish): boolean {
  return lum(parseColor(f.ink)!) > lum(parseColor(f.base)!);
}

export function inkFor(rgb: [number, number, number], alpha: number, process: PrintProcess, f: CardFinish): Ink | null {
  const amount = inkAmount(rgb, f) * alpha;
  if (amount < MIN_INK) return null;
  if (process === 'engrave') return { process, tint: Math.round(Math.min(1, amount) * 100) / 100 };
  const a = Math.min(1, alpha);
  return { process, cmyk: rgbToCmyk(rgb).map((v) => Math.round(v * a * 1000) / 1000) as [number, number, number, number] };
}

/** Rewrites absolute path data (usvg's M/L/Q/C/Z) through a matrix. */
export function transformPath(d: string, m: Matrix): string {
  if (m === IDENTITY) return d;
  const tokens = d.match(/[MLQCZ]|-?\d*\.?\d+(?:e[-+]?\d+)?/gi) ?? [];
  const out: string[] = [];
  let pending: number[] = [];
  const flush = () => {
    for (let i = 0; i + 1 < pending.length; i += 2) {
      const [x, y] = applyMatrix(m, pending[i], pending[i + 1]);
      out.push(`${round(x)} ${round(y)}`);
    }
    pending = [];
  };
  for (const t of tokens) {
    if (/^[MLQCZ]$/i.test(t)) {
      flush();
      out.push(t.toUpperCase());
    } else pending.push(Number(t));
  }
  flush();
  return out.join(' ');
}

const round = (v: number) => String(Math.round(v * 1000) / 1000);

interface Defs {
  byId: Map<string, XNode>;
}

function collectDefs(node: XNode, defs: Defs) {
  if (node.attrs.id) defs.byId.set(node.attrs.id, node);
  for (const c of node.children) collectDefs(c, defs);
}

function refId(v: string | undefined): string | null {
  const m = /^url\(#([^)]+)\)$/.exec(v?.trim() ?? '');
  return m ? m[1] : null;
}

/** A gradient's paint as one colour: the mean of its stops (gradients are rare in print artwork). */
function gradientColor(node: XNode, defs: Defs): { rgb: [number, number, number]; alpha: number } | null {
  let stops = node.children.filter((c) => c.tag === 'stop');
  const href = node.attrs['xlink:href'] ?? node.attrs.href;
  if (!stops.length && href?.startsWith('#')) {
    const base = defs.byId.get(href.slice(1));
    if (base) stops = base.children.filter((c) => c.tag === 'stop');
  }
  const cols = stops.map((s) => ({ rgb: parseColor(s.attrs['stop-color'] ?? '#000000'), a: Number(s.attrs['stop-opacity'] ?? 1) })).filter((s) => s.rgb);
  if (!cols.length) return null;
  const rgb = [0, 1, 2].map((i) => cols.reduce((s, c) => s + c.rgb![i], 0) / cols.length) as [number, number, number];
  return { rgb, alpha: cols.reduce((s, c) => s + c.a, 0) / cols.length };
}

interface Ctx {
  defs: Defs;
  process: PrintProcess;
  finish: CardFinish;
  items: ArtItem[];
  qrBoxes: Box[];
  texts: TextBox[];
  textContent: Map<string, string>;
  warnings: Set<string>;
}

function paint(ctx: Ctx, value: string | undefined, opacity: number): Ink | null {
  if (value === 'none') return null;
  const id = refId(value);
  if (id) {
    const node = ctx.defs.byId.get(id);
    if (node && (node.tag === 'linearGradient' || node.tag === 'radialGradient')) {
      const g = gradientColor(node, ctx.defs);
      return g ? inkFor(g.rgb, opacity * g.alpha, ctx.process, ctx.finish) : null;
    }
    ctx.warnings.add('A pattern fill was left out of the print file.');
    return null;
  }
  const rgb = parseColor(value ?? '#000000');
  return rgb ? inkFor(rgb, opacity, ctx.process, ctx.finish) : null;
}

function clipsOf(ctx: Ctx, node: XNode, m: Matrix): ClipPath[] {
  const id = refId(node.attrs['clip-path']);
  if (!id) return [];
  const cp = ctx.defs.byId.get(id);
  if (!cp) return [];
  const base = multiply(m, parseTransform(cp.attrs.transform));
  const parts: string[] = [];
  let rule: FillRule = 'nonzero';
  const walk = (n: XNode, mm: Matrix) => {
    for (const c of n.children) {
      const cm = multiply(mm, parseTransform(c.attrs.transform));
      if (c.tag === 'path' && c.attrs.d) {
        parts.push(transformPath(c.attrs.d, cm));
        if (c.attrs['clip-rule'] === 'evenodd') rule = 'evenodd';
      } else if (c.tag === 'g') walk(c, cm);
    }
  };
  walk(cp, base);
  const own = parts.length ? [{ d: parts.join(' '), rule }] : [{ d: 'M 0 0 Z', rule }];
  // a clip path may itself be clipped
  return [...own, ...clipsOf(ctx, cp, base)];
}

function walk(ctx: Ctx, node: XNode, m: Matrix, opacity: number, clips: ClipPath[], textId: string | null) {
  for (const n of node.children) {
    if (n.tag === 'defs' || n.tag === 'clipPath' || n.tag === 'mask' || n.tag === 'linearGradient' || n.tag === 'radialGradient' || n.tag === 'pattern' || n.tag === 'filter') continue;
    const mm = multiply(m, parseTransform(n.attrs.transform));
    const op = opacity * Number(n.attrs.opacity ?? 1);
    const cl = [...clips, ...clipsOf(ctx, n, mm)];
    if (n.attrs.mask) ctx.warnings.add('A mask was left out of the print file (its content is drawn whole).');
    if (n.attrs.filter) ctx.warnings.add('A filter effect was left out of the print file.');
    const id = n.attrs.id ?? '';
    if (id.startsWith(QR_MARKER_ID)) {
      const b = n.tag === 'path' && n.attrs.d ? pathBounds(n.attrs.d, mm) : null;
      if (b) ctx.qrBoxes.push({ x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY });
      continue;
    }
    let tId = textId;
    if (id.startsWith(TEXT_MARKER_PREFIX) && !textId) {
      tId = id;
      ctx.texts.push({ id, text: ctx.textContent.get(id) ?? '', bounds: null });
    }
    if (n.tag === 'g') {
      walk(ctx, n, mm, op, cl, tId);
      continue;
    }
    if (n.tag === 'path' && n.attrs.d) {
      const fillInk = paint(ctx, n.attrs.fill, op * Number(n.attrs['fill-opacity'] ?? 1));
      const strokeInk = n.attrs.stroke ? paint(ctx, n.attrs.stroke, op * Number(n.attrs['stroke-opacity'] ?? 1)) : null;
      if (!fillInk && !strokeInk) continue;
      const width = Number(n.attrs['stroke-width'] ?? 1);
      const dash = n.attrs['stroke-dasharray'] && n.attrs['stroke-dasharray'] !== 'none' ? n.attrs['stroke-dasharray'].split(/[\s,]+/).map(Number) : null;
      ctx.items.push({
        kind: 'path',
        d: n.attrs.d,
        m: mm,
        fill: fillInk ? { ink: fillInk, rule: n.attrs['fill-rule'] === 'evenodd' ? 'evenodd' : 'nonzero' } : null,
        stroke: strokeInk
          ? {
              ink: strokeInk,
              width,
              cap: (['round', 'square'].includes(n.attrs['stroke-linecap'] ?? '') ? n.attrs['stroke-linecap'] : 'butt') as 'butt',
              join: (['round', 'bevel'].includes(n.attrs['stroke-linejoin'] ?? '') ? n.attrs['stroke-linejoin'] : 'miter') as 'miter',
              miter: Number(n.attrs['stroke-miterlimit'] ?? 4),
              dash,
              offset: Number(n.attrs['stroke-dashoffset'] ?? 0),
            }
          : null,
        clips: cl,
      });
      if (tId) {
        const t = ctx.texts.find((x) => x.id === tId)!;
        const b = pathBounds(n.attrs.d, mm);
        if (b) t.bounds = t.bounds ? { minX: Math.min(t.bounds.minX, b.minX), minY: Math.min(t.bounds.minY, b.minY), maxX: Math.max(t.bounds.maxX, b.maxX), maxY: Math.max(t.bounds.maxY, b.maxY) } : b;
      }
      continue;
    }
    if (n.tag === 'image') {
      const href = n.attrs['xlink:href'] ?? n.attrs.href ?? '';
      if (!href.startsWith('data:image/')) continue;
      ctx.items.push({
        kind: 'image',
        process: ctx.process,
        m: mm,
        box: { x: Number(n.attrs.x ?? 0), y: Number(n.attrs.y ?? 0), width: Number(n.attrs.width ?? 0), height: Number(n.attrs.height ?? 0) },
        preserveAspectRatio: n.attrs.preserveAspectRatio ?? 'xMidYMid',
        href,
        opacity: op,
        clips: cl,
      });
    }
  }
}

/**
 * The outlines of the dark modules: each connected region as one closed loop (holes as loops too),
 * traced along the grid edges between dark and light modules, so no seams show between modules
 * (separate squares leave hairlines in many rasterisers). Drawn with the even-odd rule.
 */
export function qrOutlines(matrix: boolean[][]): Array<Array<[number, number]>> {
  const n = matrix.length;
  const dark = (r: number, c: number) => r >= 0 && c >= 0 && r < n && c < n && matrix[r][c];
  // directed boundary edges, clockwise around dark cells: key "x,y" -> next points
  const next = new Map<string, Array<[number, number]>>();
  const add = (x1: number, y1: number, x2: number, y2: number) => {
    const k = `${x1},${y1}`;
    const list = next.get(k);
    if (list) list.push([x2, y2]);
    else next.set(k, [[x2, y2]]);
  };
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!matrix[r][c]) continue;
      if (!dark(r - 1, c)) add(c, r, c + 1, r);
      if (!dark(r, c + 1)) add(c + 1, r, c + 1, r + 1);
      if (!dark(r + 1, c)) add(c + 1, r + 1, c, r + 1);
      if (!dark(r, c - 1)) add(c, r + 1, c, r);
    }
  }
  const loops: Array<Array<[number, number]>> = [];
  for (const [startKey] of next) {
    while ((next.get(startKey)?.length ?? 0) > 0) {
      const [sx, sy] = startKey.split(',').map(Number);
      const loop: Array<[number, number]> = [[sx, sy]];
      let key = startKey;
      for (let guard = 0; guard < 4 * n * n + 8; guard++) {
        const list = next.get(key);
        if (!list || !list.length) break;
        const [x, y] = list.pop()!;
        key = `${x},${y}`;
        if (key === startKey) break;
        loop.push([x, y]);
      }
      // keep the corners only
      const pts = loop.filter((p, i) => {
        const a = loop[(i - 1 + loop.length) % loop.length];
        const b = loop[(i + 1) % loop.length];
        return !((a[0] === p[0] && p[0] === b[0]) || (a[1] === p[1] && p[1] === b[1]));
      });
      loops.push(pts);
    }
  }
  return loops;
}

/** The QR code's path: the light part (quiet zone minus the dark modules) or the dark modules (even-odd). */
export function qrPath(matrix: boolean[][], origin: { x: number; y: number }, module: number, marks: 'light' | 'dark', quiet: number): string {
  const n = matrix.length;
  const r = (v: number) => round(v);
  let d = '';
  if (marks === 'light') {
    const x0 = origin.x - quiet * module;
    const y0 = origin.y - quiet * module;
    const s = (n + 2 * quiet) * module;
    d += `M ${r(x0)} ${r(y0)} L ${r(x0 + s)} ${r(y0)} L ${r(x0 + s)} ${r(y0 + s)} L ${r(x0)} ${r(y0 + s)} Z `;
  }
  for (const loop of qrOutlines(matrix)) {
    d += loop.map(([x, y], i) => `${i ? 'L' : 'M'} ${r(origin.x + x * module)} ${r(origin.y + y * module)}`).join(' ') + ' Z ';
  }
  return d.trim();
}

export interface BuildInput {
  side: 'front' | 'back';
  cardType: string;
  /** usvg's simplified SVG of the filled side, parsed */
  tree: XNode;
  /** the text each marked <text> element held (for messages) */
  textContent: Map<string, string>;
  /** the QR code's module matrix (the card's code URL), when the side has a QR slot */
  qrMatrix: boolean[][] | null;
  /** the quiet zone (modules) the preview's QR drawing has around its modules */
  qrPreviewMargin: number;
}

export function buildPrintSide(input: BuildInput): PrintSide {
  const finish = printFinish(input.cardType);
  const process = processOf(input.cardType);
  const defs: Defs = { byId: new Map() };
  collectDefs(input.tree, defs);
  const ctx: Ctx = { defs, process, finish, items: [], qrBoxes: [], texts: [], textContent: input.textContent, warnings: new Set() };
  walk(ctx, input.tree, IDENTITY, 1, [], null);
  const qr: QrPlacement[] = [];
  if (input.qrMatrix) {
    const n = input.qrMatrix.length;
    const marks = process === 'engrave' && engravingLightens(finish) ? 'light' : 'dark';
    for (const box of ctx.qrBoxes) {
      const moduleUnits = box.width / (n + 2 * input.qrPreviewMargin);
      const origin = { x: box.x + input.qrPreviewMargin * moduleUnits, y: box.y + input.qrPreviewMargin * moduleUnits };
      // the clear margin the preview drew around the code (the slot keeps at least 4 modules, fill.ts)
      const quiet = marks === 'light' ? Math.max(QR_QUIET_MODULES, input.qrPreviewMargin) : 0;
      // nothing else is engraved or printed where the code and its quiet zone are (the preview's
      // white square covers them too)
      const k = (marks === 'light' ? quiet : input.qrPreviewMargin) * moduleUnits;
      const kx = origin.x - k;
      const ky = origin.y - k;
      const ks = n * moduleUnits + 2 * k;
      const knockout: ClipPath = {
        d: `M -10000 -10000 L 20000 -10000 L 20000 20000 L -10000 20000 Z M ${round(kx)} ${round(ky)} L ${round(kx + ks)} ${round(ky)} L ${round(kx + ks)} ${round(ky + ks)} L ${round(kx)} ${round(ky + ks)} Z`,
        rule: 'evenodd',
      };
      for (const it of ctx.items) it.clips = [...it.clips, knockout];
      const ink: Ink = process === 'engrave' ? { process, tint: 1 } : { process, cmyk: [0, 0, 0, 1] };
      const item: PathItem = {
        kind: 'path',
        d: qrPath(input.qrMatrix, origin, moduleUnits, marks, quiet),
        m: IDENTITY,
        fill: { ink, rule: 'evenodd' },
        stroke: null,
        clips: [],
      };
      ctx.items.push(item);
      qr.push({ box, modules: n, moduleUnits, quietModules: QR_QUIET_MODULES, origin, marks, item });
    }
  }
  return { side: input.side, process, items: ctx.items, qr, texts: ctx.texts, warnings: [...ctx.warnings] };
}
