/**
 * A template's real layout, read from its SVG (issue 37): each text field where the template
 * draws it (side, x, y), how wide it may run, its size and weight, how many lines it may wrap onto
 * and how far the filler may shrink it; where the QR code sits and whether it is framed. Design
 * feedback judges text fit against this, not against a hand-made model of the built-in designs.
 */
import { findElements, numAttr } from '#shared/templates/xml';
import { unitsToPt, type TextZone, type ZoneField } from '#shared/ai/layouts';

/** Template field -> the assistant's business-info field. */
const FIELD_OF: Record<string, ZoneField> = {
  fullName: 'fullName',
  jobTitle: 'jobTitle',
  companyName: 'companyName',
  email: 'email',
  phoneNumber: 'phone',
  website: 'website',
  address: 'address',
};
const HEADINGS = new Set<ZoneField>(['fullName', 'companyName']);
const CARD_WIDTH = 1050;

export interface RealZone extends TextZone {
  x: number;
  y: number;
  /** the smallest size the filler shrinks to (card units), when the template says */
  minSizeUnits?: number;
}

export interface TemplateLayout {
  id: number;
  name: string;
  qrBorder: boolean;
  qrSide: 'front' | 'back' | null;
  zones: RealZone[];
}

function zonesOf(svg: string, side: 'front' | 'back'): RealZone[] {
  const texts = findElements(svg, (tag, a) => tag === 'text' && !!a.get('data-field') && a.get('data-field')! in FIELD_OF);
  return texts.map((el) => {
    const a = el.attrs;
    const field = FIELD_OF[a.get('data-field')!];
    const x = numAttr(a, 'x', 0);
    const wrap = a.get('data-fit') === 'wrap';
    const minSize = numAttr(a, 'data-min-size', NaN);
    return {
      field,
      side,
      x,
      y: numAttr(a, 'y', 0),
      maxWidth: numAttr(a, 'data-max-width', Math.max(100, CARD_WIDTH - x - 40)),
      sizePt: Math.round(unitsToPt(numAttr(a, 'font-size', 24)) * 10) / 10,
      weight: numAttr(a, 'font-weight', 400),
      maxLines: wrap ? Math.max(1, Math.round(numAttr(a, 'data-max-lines', 2))) : 1,
      role: HEADINGS.has(field) ? 'heading' : 'detail',
      ...(Number.isFinite(minSize) ? { minSizeUnits: minSize } : {}),
    };
  });
}

/** The layout of a template's two sides. */
export function layoutFromSvg(t: { id: number; name: string; frontSvg: string | null; backSvg: string | null }): TemplateLayout {
  const zones: RealZone[] = [];
  let qrSide: TemplateLayout['qrSide'] = null;
  let qrBorder = false;
  for (const [side, svg] of [
    ['front', t.frontSvg],
    ['back', t.backSvg],
  ] as const) {
    if (!svg) continue;
    zones.push(...zonesOf(svg, side));
    const qr = findElements(svg, (tag, a) => tag === 'g' && a.get('data-slot') === 'qr');
    if (qr.length && !qrSide) {
      qrSide = side;
      qrBorder = qr.some((q) => !!q.attrs.get('data-qr-border') && numAttr(q.attrs, 'data-qr-border-width', 0) > 0);
    }
  }
  return { id: t.id, name: t.name, qrBorder, qrSide, zones };
}
