/**
 * Print geometry (issue 22, decision 22-01). A card template is drawn in a 1050 x 600 box: 300 units
 * per inch on a 3.5 x 2 in card. The print file's page is the trim, a 0.125 in bleed around it and,
 * beyond the bleed, room for the crop marks. Everything here is in PDF points (1/72 in) unless the
 * name says otherwise; the page origin is its top-left corner (y down), as the writers draw.
 */

export const CARD_UNITS = { width: 1050, height: 600 } as const;
export const UNITS_PER_INCH = 300;
export const PT_PER_INCH = 72;
export const MM_PER_INCH = 25.4;

export const TRIM_IN = { width: 3.5, height: 2 } as const;
export const BLEED_IN = 0.125;
/** text must stay this far inside the trim */
export const SAFE_IN = 0.125;
/** the crop marks: a gap past the bleed, then the mark */
export const MARK_GAP_IN = 0.0417;
export const MARK_LENGTH_IN = 0.2083;

export const inchesToPt = (inches: number) => inches * PT_PER_INCH;
export const unitsToMm = (units: number) => (units / UNITS_PER_INCH) * MM_PER_INCH;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MARGIN_PT = inchesToPt(BLEED_IN + MARK_GAP_IN + MARK_LENGTH_IN);

/** The page of one side, in points: media (with the marks), bleed and trim boxes (top-left origin). */
export const PAGE = (() => {
  const trimW = inchesToPt(TRIM_IN.width);
  const trimH = inchesToPt(TRIM_IN.height);
  const bleed = inchesToPt(BLEED_IN);
  const width = trimW + 2 * MARGIN_PT;
  const height = trimH + 2 * MARGIN_PT;
  return {
    width,
    height,
    trim: { x: MARGIN_PT, y: MARGIN_PT, width: trimW, height: trimH } satisfies Box,
    bleed: { x: MARGIN_PT - bleed, y: MARGIN_PT - bleed, width: trimW + 2 * bleed, height: trimH + 2 * bleed } satisfies Box,
    /** card units to points */
    scale: trimW / CARD_UNITS.width,
  };
})();

/** A PDF box array [llx lly urx ury] (bottom-left origin) from a top-left box. */
export function pdfBox(b: Box, pageHeight = PAGE.height): [number, number, number, number] {
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return [r(b.x), r(pageHeight - b.y - b.height), r(b.x + b.width), r(pageHeight - b.y)];
}

/** The crop marks: short lines in line with the trim edges, outside the bleed (x1 y1 x2 y2 in points). */
export function cropMarks(): Array<[number, number, number, number]> {
  const t = PAGE.trim;
  const start = inchesToPt(BLEED_IN + MARK_GAP_IN);
  const end = start + inchesToPt(MARK_LENGTH_IN);
  const left = t.x;
  const right = t.x + t.width;
  const top = t.y;
  const bottom = t.y + t.height;
  const out: Array<[number, number, number, number]> = [];
  for (const x of [left, right]) {
    out.push([x, top - start, x, top - end]);
    out.push([x, bottom + start, x, bottom + end]);
  }
  for (const y of [top, bottom]) {
    out.push([left - start, y, left - end, y]);
    out.push([right + start, y, right + end, y]);
  }
  return out;
}

/** The safe area in card units (the trim inset by SAFE_IN). */
export const SAFE_AREA_UNITS: Box = {
  x: SAFE_IN * UNITS_PER_INCH,
  y: SAFE_IN * UNITS_PER_INCH,
  width: CARD_UNITS.width - 2 * SAFE_IN * UNITS_PER_INCH,
  height: CARD_UNITS.height - 2 * SAFE_IN * UNITS_PER_INCH,
};
