import { findElements, replaceElements, serializeAttrs, unescapeXml } from '#shared/templates/xml';
import { QR_MARKER_ID, TEXT_MARKER_PREFIX } from './artwork';

/**
 * Marks a filled card side before usvg simplifies it (decision 22-01): every <text> gets an id (usvg
 * keeps ids on the group its outlines become, so the safe-area check finds each text's outline),
 * and each QR drawing becomes a plain rectangle with an id (the print file draws the code itself,
 * from its module matrix, in that box). Returns the module count of each QR drawing's box.
 */
export function markForPrint(filled: string): { svg: string; texts: Map<string, string>; qrTotals: number[] } {
  const texts = new Map<string, string>();
  let n = 0;
  const src = filled;
  const textEls = findElements(src, (tag) => tag === 'text');
  let out = replaceElements(src, textEls, (el) => {
    const id = `${TEXT_MARKER_PREFIX}${n++}`;
    const attrs = new Map(el.attrs);
    attrs.set('id', id);
    const inner = el.selfClosing ? '' : src.slice(el.openEnd, el.closeStart);
    texts.set(id, unescapeXml(inner.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim());
    return `<text${serializeAttrs(attrs)}${el.selfClosing ? '/>' : '>'}${el.selfClosing ? '' : src.slice(el.openEnd, el.end)}`;
  });

  const qrTotals: number[] = [];
  const codes = findElements(out, (tag, a) => tag === 'g' && a.get('class') === 'qr-code');
  const src2 = out;
  out = replaceElements(src2, codes, (el) => {
    const inner = src2.slice(el.openEnd, el.closeStart);
    const groups = findElements(inner, (tag, a) => tag === 'g' && /translate\(/.test(a.get('transform') ?? ''));
    const g = groups[0];
    if (!g) return src2.slice(el.start, el.end);
    const t = /translate\(\s*([-\d.e]+)[\s,]+([-\d.e]+)\s*\)\s*scale\(\s*([-\d.e]+)\s*\)/.exec(g.attrs.get('transform') ?? '');
    const bg = /<rect[^>]*\swidth="([\d.]+)"/.exec(inner.slice(g.openEnd, g.closeStart));
    if (!t) return src2.slice(el.start, el.end);
    const [x, y, s] = [Number(t[1]), Number(t[2]), Number(t[3])];
    // the drawing's width in modules: its background square, else its outermost path extent
    let total = bg ? Number(bg[1]) : 0;
    if (!total) {
      const nums = inner.slice(g.openEnd, g.closeStart).match(/-?\d*\.?\d+/g)?.map(Number) ?? [0];
      total = Math.ceil(Math.max(...nums));
    }
    qrTotals.push(total);
    const rect = `<rect id="${QR_MARKER_ID}-${qrTotals.length - 1}" x="${x}" y="${y}" width="${total * s}" height="${total * s}" fill="#ff00ff"/>`;
    return `<g${serializeAttrs(el.attrs)}>${inner.slice(0, g.start)}${rect}${inner.slice(g.end)}</g>`;
  });
  return { svg: out, texts, qrTotals };
}
