import { unescapeXml } from '#shared/templates/xml';

/**
 * Reading usvg's simplified SVG (what `new Resvg(svg).toString()` writes, decision 22-01): every
 * text is already paths, shapes are paths, styles are attributes, `use` and CSS are resolved. This
 * is a small reader for that regular, machine-written XML, not a general parser: elements and
 * attributes only (usvg writes no text content once text is outlined).
 */

export interface XNode {
  tag: string;
  attrs: Record<string, string>;
  children: XNode[];
}

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function parseXml(text: string): XNode {
  const root: XNode = { tag: '#root', attrs: {}, children: [] };
  const stack: XNode[] = [root];
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    if (text.startsWith('<?', lt) || text.startsWith('<!', lt)) {
      const end = text.indexOf('>', lt);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    // find the end of the tag, skipping quoted attribute values
    let j = lt + 1;
    let quote = '';
    for (; j < text.length; j++) {
      const ch = text[j];
      if (quote) {
        if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '>') break;
    }
    const tag = text.slice(lt + 1, j);
    i = j + 1;
    if (tag.startsWith('/')) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const name = /^[^\s/>]+/.exec(body)?.[0] ?? '';
    const attrs: Record<string, string> = {};
    for (const m of body.slice(name.length).matchAll(ATTR)) attrs[m[1]] = unescapeXml(m[2] ?? m[3] ?? '');
    const node: XNode = { tag: name, attrs, children: [] };
    stack[stack.length - 1].children.push(node);
    if (!selfClosing) stack.push(node);
  }
  return root.children.find((c) => c.tag === 'svg') ?? root;
}

/** An affine matrix [a b c d e f] (SVG's order). */
export type Matrix = [number, number, number, number, number, number];
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 then m2 applied inside it: the matrix of a child whose own transform is `m2` under `m1`. */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [a2, b2, c2, d2, e2, f2] = m2;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** usvg writes transforms as one `matrix(...)`; translate/scale are read too for safety. */
export function parseTransform(t: string | undefined): Matrix {
  if (!t) return IDENTITY;
  let m: Matrix = IDENTITY;
  for (const part of t.matchAll(/(matrix|translate|scale|rotate)\s*\(([^)]*)\)/g)) {
    const v = part[2].split(/[\s,]+/).filter(Boolean).map(Number);
    let k: Matrix = IDENTITY;
    if (part[1] === 'matrix' && v.length === 6) k = v as Matrix;
    else if (part[1] === 'translate') k = [1, 0, 0, 1, v[0] ?? 0, v[1] ?? 0];
    else if (part[1] === 'scale') k = [v[0] ?? 1, 0, 0, v[1] ?? v[0] ?? 1, 0, 0];
    else if (part[1] === 'rotate') {
      const r = ((v[0] ?? 0) * Math.PI) / 180;
      k = [Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), 0, 0];
    }
    m = multiply(m, k);
  }
  return m;
}

/** The points of a usvg path (M/L/Q/C/Z with absolute coordinates), for bounding boxes. */
export function pathPoints(d: string): Array<[number, number]> {
  const nums = d.match(/-?\d*\.?\d+(?:e[-+]?\d+)?/gi)?.map(Number) ?? [];
  const pts: Array<[number, number]> = [];
  for (let i = 0; i + 1 < nums.length; i += 2) pts.push([nums[i], nums[i + 1]]);
  return pts;
}

/** Bounding box of a path's points (control points included: a safe over-estimate) under a matrix. */
export function pathBounds(d: string, m: Matrix): { minX: number; minY: number; maxX: number; maxY: number } | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [px, py] of pathPoints(d)) {
    const [x, y] = applyMatrix(m, px, py);
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return Number.isFinite(minX) ? { minX, minY, maxX, maxY } : null;
}
