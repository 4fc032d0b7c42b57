import { escapeXml } from '#shared/templates/xml';
import type { ArtItem, ClipPath, Ink, PrintSide } from './artwork';
import { CARD_UNITS, PAGE, UNITS_PER_INCH, BLEED_IN, cropMarks } from './geometry';
import type { Matrix } from './usvg';

/**
 * The print artwork as SVG (issue 22, decision 22-01): for engraver software (one file, both sides,
 * each on a page of the PDF's size with its crop marks) and for the proof the design review shows
 * (one side, rasterised at 300 DPI in the worker). Layers are groups named as in the PDF
 * (Inkscape's layer attributes, which engraver software reads). The engraving is black (tint as
 * grey), the colour print its RGB equivalent, the die line magenta.
 */

export const LAYER_NAMES = { engrave: 'Engrave', cmyk: 'Color print', dieline: 'Die line' } as const;
export const DIE_LINE_RGB = '#ec008c';

const r = (v: number) => String(Math.round(v * 1000) / 1000);
const hex = (v: number) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0');

export function inkRgb(ink: Ink): string {
  if (ink.process === 'engrave') {
    const g = 255 * (1 - ink.tint);
    return `#${hex(g)}${hex(g)}${hex(g)}`;
  }
  const [c, m, y, k] = ink.cmyk;
  return `#${hex(255 * (1 - c) * (1 - k))}${hex(255 * (1 - m) * (1 - k))}${hex(255 * (1 - y) * (1 - k))}`;
}

const matrixAttr = (m: Matrix) => (m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && m[4] === 0 && m[5] === 0 ? '' : ` transform="matrix(${m.map(r).join(' ')})"`);

function itemSvg(it: ArtItem): string {
  if (it.kind === 'image') {
    if (!it.drawn) return '';
    const b = it.drawn;
    const op = it.opacity < 1 ? ` opacity="${r(it.opacity)}"` : '';
    return `<image${matrixAttr(it.m)} x="${r(b.x)}" y="${r(b.y)}" width="${r(b.width)}" height="${r(b.height)}" preserveAspectRatio="none"${op} href="${escapeXml(it.previewHref ?? it.href)}"/>`;
  }
  let a = `<path${matrixAttr(it.m)} d="${it.d}"`;
  a += it.fill ? ` fill="${inkRgb(it.fill.ink)}"${it.fill.rule === 'evenodd' ? ' fill-rule="evenodd"' : ''}` : ' fill="none"';
  if (it.stroke) {
    const s = it.stroke;
    a += ` stroke="${inkRgb(s.ink)}" stroke-width="${r(s.width)}"`;
    if (s.cap !== 'butt') a += ` stroke-linecap="${s.cap}"`;
    if (s.join !== 'miter') a += ` stroke-linejoin="${s.join}"`;
    if (s.miter !== 4) a += ` stroke-miterlimit="${r(s.miter)}"`;
    if (s.dash) a += ` stroke-dasharray="${s.dash.map(r).join(' ')}" stroke-dashoffset="${r(s.offset)}"`;
  }
  return a + '/>';
}

/** One side's page: artwork (clipped to the bleed) in its layers, the die line, the crop marks. */
function sidePage(side: PrintSide, idPrefix: string, clipIds: Map<string, string>, defs: string[]): string {
  const clipId = (c: ClipPath) => {
    const key = `${c.rule}|${c.d}`;
    let id = clipIds.get(key);
    if (!id) {
      id = `${idPrefix}clip${clipIds.size + 1}`;
      clipIds.set(key, id);
      defs.push(`<clipPath id="${id}"><path d="${c.d}"${c.rule === 'evenodd' ? ' clip-rule="evenodd"' : ''}/></clipPath>`);
    }
    return id;
  };
  const bleedU = BLEED_IN * UNITS_PER_INCH;
  const bleedClip = clipId({ d: `M ${-bleedU} ${-bleedU} L ${CARD_UNITS.width + bleedU} ${-bleedU} L ${CARD_UNITS.width + bleedU} ${CARD_UNITS.height + bleedU} L ${-bleedU} ${CARD_UNITS.height + bleedU} Z`, rule: 'nonzero' });
  const body = side.items
    .map((it) => {
      let s = itemSvg(it);
      for (const c of [...it.clips].reverse()) s = `<g clip-path="url(#${clipId(c)})">${s}</g>`;
      return s;
    })
    .join('');
  const layer = (name: string, content: string) => `<g id="${idPrefix}${name.replace(/\s+/g, '-').toLowerCase()}" inkscape:groupmode="layer" inkscape:label="${name}">${content}</g>`;
  const t = PAGE.trim;
  const dieWidth = 0.5 / PAGE.scale;
  const marks = cropMarks()
    .map(([x1, y1, x2, y2]) => `<line x1="${r(x1)}" y1="${r(y1)}" x2="${r(x2)}" y2="${r(y2)}"/>`)
    .join('');
  return (
    `<g transform="translate(${r(t.x)} ${r(t.y)}) scale(${r(PAGE.scale)})">` +
    `<g clip-path="url(#${bleedClip})">${layer(LAYER_NAMES[side.process], body)}</g>` +
    layer(LAYER_NAMES.dieline, `<rect x="0" y="0" width="${CARD_UNITS.width}" height="${CARD_UNITS.height}" fill="none" stroke="${DIE_LINE_RGB}" stroke-width="${r(dieWidth)}"/>`) +
    `</g>` +
    `<g id="${idPrefix}crop-marks" stroke="#000000" stroke-width="0.25" fill="none">${marks}</g>`
  );
}

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"';

/** Both sides, one under the other, each on a page the size of the PDF's (4.25 x 2.75 in). */
export function printSvg(sides: PrintSide[], title: string): string {
  const defs: string[] = [];
  const clipIds = new Map<string, string>();
  const pages = sides
    .map((s, i) => `<g id="${s.side}" transform="translate(0 ${r(i * PAGE.height)})"><title>${escapeXml(s.side === 'front' ? 'Front' : 'Back')}</title>${sidePage(s, `${s.side}-`, clipIds, defs)}</g>`)
    .join('');
  const h = PAGE.height * sides.length;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg ${NS} width="${r(PAGE.width / 72)}in" height="${r(h / 72)}in" viewBox="0 0 ${r(PAGE.width)} ${r(h)}">` +
    `<title>${escapeXml(title)}</title>` +
    `<defs>${defs.join('')}</defs>` +
    `<rect width="${r(PAGE.width)}" height="${r(h)}" fill="#ffffff"/>` +
    pages +
    `</svg>`
  );
}

/** One side's page for the proof raster (white paper, as a PDF viewer shows it). */
export function proofSvg(side: PrintSide): string {
  const defs: string[] = [];
  const page = sidePage(side, 'p-', new Map(), defs);
  return `<svg ${NS} width="${r(PAGE.width)}" height="${r(PAGE.height)}" viewBox="0 0 ${r(PAGE.width)} ${r(PAGE.height)}"><defs>${defs.join('')}</defs><rect width="${r(PAGE.width)}" height="${r(PAGE.height)}" fill="#ffffff"/>${page}</svg>`;
}

/** Proof raster size at 300 DPI (pixels). */
export const PROOF_DPI = 300;
export const PROOF_SIZE = { width: Math.round((PAGE.width / 72) * PROOF_DPI), height: Math.round((PAGE.height / 72) * PROOF_DPI) };
