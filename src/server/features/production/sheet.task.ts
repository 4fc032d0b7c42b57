import { NO_DEFAULT_FONT, registerPdfFonts } from '#server/infra/fonts';
import { loadPdfFontParser } from '#server/infra/pdf-fonts';
import { drawText } from '#server/infra/pdf-text';

/** One card's slot on the jig sheet: its label and its stored side images (PNG or JPEG bytes). */
export interface SheetSlot {
  label: string;
  front: Uint8Array | null;
  back: Uint8Array | null;
}

export interface SheetTaskInput {
  rows: number;
  columns: number;
  gapMm: number;
  registrationMarks: boolean;
  slots: SheetSlot[];
}

const PT_PER_MM = 72 / 25.4;
const CARD = { w: 88.9 * PT_PER_MM, h: 50.8 * PT_PER_MM }; // 3.5 x 2 in trim
const MARGIN = 15 * PT_PER_MM; // room for the registration marks and the caption

/** A registration mark: a circle with a cross through it, 8 mm across. */
function registrationMark(doc: PDFKit.PDFDocument, x: number, y: number) {
  const r = 4 * PT_PER_MM;
  doc.save().lineWidth(0.25).strokeColor('#000000');
  doc.circle(x, y, r * 0.6).stroke();
  doc.moveTo(x - r, y).lineTo(x + r, y).stroke();
  doc.moveTo(x, y - r).lineTo(x, y + r).stroke();
  doc.restore();
}

/**
 * The jig sheet (issue 22): the chosen cards laid out in rows and columns with the given gap, one
 * page per sheet and side (fronts, then backs in the same slots), trim outlines, slot labels and
 * registration marks at the four corners. Each slot shows the card's stored side image (1050 x 600,
 * 300 dpi at the trim size); the vector artwork stays in each card's own print PDF.
 */
export async function jigSheetTask(arg: SheetTaskInput): Promise<Uint8Array> {
  const gap = arg.gapMm * PT_PER_MM;
  const width = MARGIN * 2 + arg.columns * CARD.w + (arg.columns - 1) * gap;
  const height = MARGIN * 2 + arg.rows * CARD.h + (arg.rows - 1) * gap;
  // loaded on first use: a warm worker that never makes a PDF does not carry pdfkit (idle RSS)
  const [{ default: PDFDocument }] = await Promise.all([import('pdfkit'), loadPdfFontParser()]);
  const doc = new PDFDocument({ autoFirstPage: false, font: NO_DEFAULT_FONT, info: { Title: 'Jig sheet', Author: 'Metal Cards NYC' } });
  registerPdfFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const perSheet = arg.rows * arg.columns;
  const sheets = Math.max(1, Math.ceil(arg.slots.length / perSheet));
  for (let s = 0; s < sheets; s++) {
    const slots = arg.slots.slice(s * perSheet, (s + 1) * perSheet);
    for (const side of ['front', 'back'] as const) {
      doc.addPage({ size: [width, height], margin: 0 });
      doc.font('Body').fontSize(7).fillColor('#000000');
      doc.text(`Sheet ${s + 1} of ${sheets}, ${side} - ${arg.rows} x ${arg.columns}, gap ${arg.gapMm} mm`, MARGIN, MARGIN / 2 - 4, { lineBreak: false });
      slots.forEach((slot, i) => {
        const row = Math.floor(i / arg.columns);
        const col = i % arg.columns;
        const x = MARGIN + col * (CARD.w + gap);
        const y = MARGIN + row * (CARD.h + gap);
        const image = side === 'front' ? slot.front : slot.back;
        if (image) {
          try {
            doc.image(Buffer.from(image.buffer, image.byteOffset, image.byteLength), x, y, { width: CARD.w, height: CARD.h });
          } catch {
            // an image pdfkit cannot read (e.g. WebP): the slot keeps its outline and label
          }
        }
        doc.save().lineWidth(0.3).strokeColor('#FF00FF').rect(x, y, CARD.w, CARD.h).stroke().restore();
        drawText(doc.fontSize(5).fillColor('#000000'), 'Body', `${i + 1 + s * perSheet}. ${slot.label}`, x, y + CARD.h + 1, { width: CARD.w, lineBreak: false, ellipsis: true });
      });
      if (arg.registrationMarks) {
        const m = MARGIN / 2;
        for (const [x, y] of [
          [m, m],
          [width - m, m],
          [m, height - m],
          [width - m, height - m],
        ])
          registrationMark(doc, x, y);
      }
    }
  }
  doc.end();
  await done;
  const out = Buffer.concat(chunks);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
