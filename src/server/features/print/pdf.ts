import type { ArtItem, Ink, PrintSide } from './art/artwork';
import { CARD_UNITS, PAGE, BLEED_IN, MARK_GAP_IN, MARK_LENGTH_IN, cropMarks, inchesToPt, pdfBox, type Box } from './art/geometry';
import { LAYER_NAMES } from './art/svg';

/**
 * The print PDF (issue 22, decision 22-01), written with pdfkit on a worker: one page per side, the
 * TrimBox (3.5 x 2 in) and BleedBox (0.125 in more) set, crop marks outside the bleed. Everything is
 * vector paths (text arrives as outlines from usvg, the QR code as its modules); images are image
 * XObjects in the process's colour space. Each process is an optional content group (layer): the
 * engraving in the spot colour "Engrave", the colour print in DeviceCMYK, the die line (the trim
 * outline, spot colour "DieLine") on a layer that is off for printing.
 */

/** What the worker prepared for each image item: the pixels in the process's colour space. */
export interface PdfImage {
  item: ArtItem;
  width: number;
  height: number;
  /** tint bytes (Engrave) or CMYK bytes */
  data: Buffer;
  /** alpha bytes */
  alpha: Buffer | null;
}

type Doc = PDFKit.PDFDocument & {
  _root: { data: Record<string, unknown> };
  page: { dictionary: { data: Record<string, unknown> }; resources: { data: Record<string, unknown> }; xobjects: Record<string, unknown> };
  circle(x: number, y: number, r: number): Doc;
  spotColors: Record<string, { id: string; ref: unknown }>;
  ref(data: Record<string, unknown>): { end(data?: Buffer): void };
  addContent(op: string): Doc;
  addSpotColor(name: string, c: number, m: number, y: number, k: number): Doc;
};

const n = (v: number) => String(Math.round(v * 10000) / 10000);

interface Placement {
  side: PrintSide;
  /** the trim's top-left corner on the page (points) */
  x: number;
  y: number;
  /** how far past the trim the artwork may reach (points): the bleed, or less between close cards */
  reach: number;
}

interface PageSpec {
  width: number;
  height: number;
  trim?: Box;
  bleed?: Box;
  cards: Placement[];
  marks: Array<[number, number, number, number]>;
  /** registration targets: centre and radius (points) */
  targets: Array<[number, number, number]>;
}

async function writePdf(pages: PageSpec[], images: Map<ArtItem, PdfImage>, meta: { title: string }): Promise<Buffer> {
  // loaded on first use: a warm worker that never makes a PDF does not carry pdfkit (idle RSS)
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, pdfVersion: '1.6', info: { Title: meta.title, Creator: 'Metal Cards NYC', Producer: 'Metal Cards NYC print files' } }) as unknown as Doc;
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.addSpotColor('Engrave', 0, 0, 0, 100);
  doc.addSpotColor('DieLine', 0, 100, 0, 0);
  doc.addSpotColor('All', 100, 100, 100, 100);
  const spot = (name: string) => doc.spotColors[name];

  const ocg = (name: string, print: boolean) => {
    const ref = doc.ref({ Type: 'OCG', Name: new String(name), Usage: { Print: { PrintState: print ? 'ON' : 'OFF' }, View: { ViewState: 'ON' }, Export: { ExportState: 'ON' } } });
    ref.end();
    return ref;
  };
  const processes = [...new Set(pages.flatMap((pg) => pg.cards.map((c) => c.side.process)))];
  const layers: Record<string, ReturnType<typeof ocg>> = {};
  for (const p of processes) layers[p] = ocg(LAYER_NAMES[p], true);
  const die = ocg(LAYER_NAMES.dieline, false);
  const all = [...Object.values(layers), die];
  doc._root.data.OCProperties = {
    OCGs: all,
    D: {
      Name: new String('Print layers'),
      Order: all,
      ON: all,
      OFF: [],
      // the die line shows on screen and never prints
      AS: [
        { Event: 'Print', OCGs: all, Category: ['Print'] },
        { Event: 'View', OCGs: all, Category: ['View'] },
      ],
    },
  };
  const names: Record<string, string> = {};
  processes.forEach((p, i) => (names[p] = `OC${i + 1}`));

  let imageCount = 0;
  const setInk = (ink: Ink, stroke: boolean) => {
    if (ink.process === 'engrave') {
      const s = spot('Engrave');
      doc.addContent(`/${s.id} ${stroke ? 'CS' : 'cs'} ${n(ink.tint)} ${stroke ? 'SCN' : 'scn'}`);
    } else {
      doc.addContent(`${ink.cmyk.map(n).join(' ')} ${stroke ? 'K' : 'k'}`);
    }
  };
  const clip = (d: string, rule: 'nonzero' | 'evenodd') => {
    doc.path(d);
    doc.addContent(rule === 'evenodd' ? 'W* n' : 'W n');
  };

  const drawCard = (c: Placement) => {
    const side = c.side;
    doc.save();
    doc.translate(c.x, c.y);
    doc.scale(PAGE.scale);
    // the artwork, clipped to the bleed
    doc.addContent(`/OC /${names[side.process]} BDC`);
    doc.save();
    const b = c.reach / PAGE.scale;
    doc.rect(-b, -b, CARD_UNITS.width + 2 * b, CARD_UNITS.height + 2 * b);
    doc.addContent('W n');
    for (const it of side.items) {
      doc.save();
      for (const k of it.clips) clip(k.d, k.rule);
      doc.transform(...it.m);
      if (it.kind === 'path') {
        if (it.fill) {
          setInk(it.fill.ink, false);
          doc.path(it.d);
          doc.addContent(it.fill.rule === 'evenodd' ? 'f*' : 'f');
        }
        if (it.stroke) {
          const s = it.stroke;
          setInk(s.ink, true);
          doc.addContent(`${n(s.width)} w ${{ butt: 0, round: 1, square: 2 }[s.cap]} J ${{ miter: 0, round: 1, bevel: 2 }[s.join]} j ${n(s.miter)} M`);
          doc.addContent(s.dash ? `[${s.dash.map(n).join(' ')}] ${n(s.offset)} d` : '[] 0 d');
          doc.path(it.d);
          doc.addContent('S');
        }
      } else {
        const img = images.get(it);
        if (img && it.drawn) {
          const label = `PI${++imageCount}`;
          let smask: { end(data?: Buffer): void } | undefined;
          if (img.alpha) {
            smask = doc.ref({ Type: 'XObject', Subtype: 'Image', Width: img.width, Height: img.height, BitsPerComponent: 8, ColorSpace: 'DeviceGray' });
            smask.end(img.alpha);
          }
          const xo = doc.ref({
            Type: 'XObject',
            Subtype: 'Image',
            Width: img.width,
            Height: img.height,
            BitsPerComponent: 8,
            ColorSpace: it.process === 'engrave' ? spot('Engrave').ref : 'DeviceCMYK',
            ...(smask ? { SMask: smask } : {}),
          });
          xo.end(img.data);
          doc.page.xobjects[label] = xo;
          const d = it.drawn;
          doc.addContent(`${n(d.width)} 0 0 ${n(-d.height)} ${n(d.x)} ${n(d.y + d.height)} cm /${label} Do`);
        }
      }
      doc.restore();
    }
    doc.restore();
    doc.addContent('EMC');
    // the die line: the trim outline, on its own layer that never prints
    doc.addContent('/OC /OCD BDC');
    doc.save();
    doc.addContent(`/${spot('DieLine').id} CS 1 SCN ${n(0.5 / PAGE.scale)} w`);
    doc.rect(0, 0, CARD_UNITS.width, CARD_UNITS.height);
    doc.addContent('S');
    doc.restore();
    doc.addContent('EMC');
    doc.restore();
  };

  for (const pg of pages) {
    doc.addPage({ size: [pg.width, pg.height], margin: 0 });
    const page = doc.page;
    if (pg.trim) page.dictionary.data.TrimBox = pdfBox(pg.trim, pg.height);
    if (pg.bleed) page.dictionary.data.BleedBox = pdfBox(pg.bleed, pg.height);
    page.dictionary.data.CropBox = [0, 0, pg.width, pg.height];
    const props: Record<string, unknown> = {};
    for (const p of processes) props[names[p]] = layers[p];
    props.OCD = die;
    page.resources.data.Properties = props;
    for (const c of pg.cards) drawCard(c);
    // crop marks and registration targets, in registration colour
    doc.save();
    doc.addContent(`/${spot('All').id} CS 1 SCN 0.25 w`);
    for (const [x1, y1, x2, y2] of pg.marks) {
      doc.moveTo(x1, y1).lineTo(x2, y2);
      doc.addContent('S');
    }
    for (const [cx, cy, r] of pg.targets) {
      doc.circle(cx, cy, r);
      doc.addContent('S');
      doc.moveTo(cx - r * 1.6, cy).lineTo(cx + r * 1.6, cy);
      doc.addContent('S');
      doc.moveTo(cx, cy - r * 1.6).lineTo(cx, cy + r * 1.6);
      doc.addContent('S');
    }
    doc.restore();
  }
  doc.end();
  return done;
}

/** The card's print PDF: one page per side. */
export function writePrintPdf(sides: PrintSide[], images: Map<ArtItem, PdfImage>, meta: { title: string }): Promise<Buffer> {
  return writePdf(
    sides.map((side) => ({ width: PAGE.width, height: PAGE.height, trim: PAGE.trim, bleed: PAGE.bleed, cards: [{ side, x: PAGE.trim.x, y: PAGE.trim.y, reach: inchesToPt(BLEED_IN) }], marks: cropMarks(), targets: [] })),
    images,
    meta,
  );
}

export interface SheetLayout {
  rows: number;
  columns: number;
  gapMm: number;
  registrationMarks: boolean;
}

/**
 * An imposition sheet for a printing jig: the cards' fronts in a grid of `rows` x `columns` trims
 * `gapMm` apart on one page, their backs on the next with the columns mirrored (the jig is turned
 * over about its vertical axis), more sheets when there are more cards. Each card keeps its bleed
 * (or half the gap, when the gap is narrower), its die line layer and crop marks at the sheet's
 * edges; registration targets sit in the margin corners.
 */
export function writePrintSheet(cards: PrintSide[][], images: Map<ArtItem, PdfImage>, layout: SheetLayout, meta: { title: string }): Promise<Buffer> {
  const margin = inchesToPt(0.75);
  const gap = (layout.gapMm / 25.4) * 72;
  const tw = PAGE.trim.width;
  const th = PAGE.trim.height;
  const width = 2 * margin + layout.columns * tw + (layout.columns - 1) * gap;
  const height = 2 * margin + layout.rows * th + (layout.rows - 1) * gap;
  const reach = Math.min(inchesToPt(BLEED_IN), gap / 2);
  const perSheet = layout.rows * layout.columns;
  const pages: PageSpec[] = [];
  const cell = (i: number, mirror: boolean) => {
    const row = Math.floor(i / layout.columns);
    const col = i % layout.columns;
    const c = mirror ? layout.columns - 1 - col : col;
    return { x: margin + c * (tw + gap), y: margin + row * (th + gap) };
  };
  const marks = (): Array<[number, number, number, number]> => {
    const out: Array<[number, number, number, number]> = [];
    const m0 = inchesToPt(BLEED_IN + MARK_GAP_IN);
    const len = inchesToPt(MARK_LENGTH_IN);
    for (let c = 0; c < layout.columns; c++) {
      for (const x of [margin + c * (tw + gap), margin + c * (tw + gap) + tw]) {
        out.push([x, margin - m0, x, margin - m0 - len]);
        out.push([x, height - margin + m0, x, height - margin + m0 + len]);
      }
    }
    for (let r = 0; r < layout.rows; r++) {
      for (const y of [margin + r * (th + gap), margin + r * (th + gap) + th]) {
        out.push([margin - m0, y, margin - m0 - len, y]);
        out.push([width - margin + m0, y, width - margin + m0 + len, y]);
      }
    }
    return out;
  };
  const r = inchesToPt(0.08);
  const targets: Array<[number, number, number]> = layout.registrationMarks
    ? [
        [margin / 2, margin / 2, r],
        [width - margin / 2, margin / 2, r],
        [margin / 2, height - margin / 2, r],
        [width - margin / 2, height - margin / 2, r],
      ]
    : [];
  for (let s = 0; s < cards.length; s += perSheet) {
    const batch = cards.slice(s, s + perSheet);
    for (const [sideIndex, mirror] of [
      [0, false],
      [1, true],
    ] as const) {
      pages.push({
        width,
        height,
        cards: batch.map((sides, i) => ({ side: sides[sideIndex], ...cell(i, mirror), reach })).filter((c) => c.side),
        marks: marks(),
        targets,
      });
    }
  }
  return writePdf(pages, images, meta);
}
