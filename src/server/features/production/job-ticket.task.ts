import { NO_DEFAULT_FONT, registerPdfFonts } from '#server/infra/fonts';
import { loadPdfFontParser } from '#server/infra/pdf-fonts';
import { drawText } from '#server/infra/pdf-text';
import { qrMatrix } from '#shared/qr/qr-svg';

/** What the job ticket shows: plain data, made on the main thread, drawn here (worker pool). */
export interface JobTicketData {
  orderId: number;
  title: string;
  dueLabel: string;
  dueAt: string;
  overdue: boolean;
  rush: boolean;
  rows: Array<[string, string]>;
  codes: Array<{ code: string; url: string; tlvHex: string; bytes: number; fitsNtag213: boolean; fitsNtag215: boolean }>;
  notes: string[];
  adminUrl: string;
  generatedAt: string;
}

const MARGIN = 40;
const PAGE = { width: 612, height: 792 }; // US Letter
const QR_SIZE = 110;

/** Draws the QR modules as filled squares (no image: it stays sharp at any print resolution). */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const m = qrMatrix(text, 'M');
  const quiet = 4; // ISO/IEC 18004 quiet zone
  const cell = size / (m.length + quiet * 2);
  doc.save().rect(x, y, size, size).fill('#FFFFFF');
  doc.fillColor('#000000');
  for (let r = 0; r < m.length; r++) {
    for (let c = 0; c < m.length; c++) if (m[r][c]) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
  }
  doc.fill().restore();
}

/**
 * One page per order for the floor: order number, due date, customer, card type, style, quantity,
 * delivery, the batch codes with their NFC payloads, notes, and a QR code that opens the order in
 * /admin. Long lists are cut to fit the page (the NFC CSV has every code).
 */
export async function jobTicketTask(t: JobTicketData): Promise<Uint8Array> {
  // loaded on first use: a warm worker that never makes a PDF does not carry pdfkit (idle RSS)
  const [{ default: PDFDocument }] = await Promise.all([import('pdfkit'), loadPdfFontParser()]);
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, font: NO_DEFAULT_FONT, info: { Title: `${t.title}`, Author: 'Metal Cards NYC', Subject: 'Job ticket' } });
  registerPdfFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const width = PAGE.width - MARGIN * 2;
  const textWidth = width - QR_SIZE - 20;

  drawText(doc.fontSize(22).fillColor('#000000'), 'Bold', t.title, MARGIN, MARGIN, { width: textWidth });
  doc.moveDown(0.2);
  doc.font('Bold').fontSize(14).fillColor(t.overdue ? '#B00020' : '#000000').text(`Due: ${t.dueLabel}${t.overdue ? '  (OVERDUE)' : ''}${t.rush ? '  RUSH' : ''}`, { width: textWidth });
  doc.fillColor('#000000');
  drawQr(doc, t.adminUrl, PAGE.width - MARGIN - QR_SIZE, MARGIN, QR_SIZE);
  doc.font('Body').fontSize(7).text('Scan: open in /admin', PAGE.width - MARGIN - QR_SIZE, MARGIN + QR_SIZE + 2, { width: QR_SIZE, align: 'center' });

  let y = Math.max(doc.y + 12, MARGIN + QR_SIZE + 16);
  doc.moveTo(MARGIN, y).lineTo(PAGE.width - MARGIN, y).lineWidth(0.5).stroke();
  y += 8;
  for (const [label, value] of t.rows) {
    doc.font('Bold').fontSize(10).text(label, MARGIN, y, { width: 110 });
    drawText(doc.fontSize(10), 'Body', value || '-', MARGIN + 115, y, { width: width - 115 });
    y = Math.max(doc.y, y + 12) + 3;
  }

  y += 6;
  doc.font('Bold').fontSize(12).text(`Batch codes and NFC payloads (${t.codes.length})`, MARGIN, y);
  y = doc.y + 4;
  const bottomReserve = 150;
  let shown = 0;
  for (const c of t.codes) {
    if (y > PAGE.height - MARGIN - bottomReserve) break;
    doc.font('Bold').fontSize(9).text(`${c.code}  ${c.url}`, MARGIN, y, { width });
    const fit = `${c.bytes} bytes: ${c.fitsNtag213 ? 'fits NTAG213' : 'too big for NTAG213'}, ${c.fitsNtag215 ? 'fits NTAG215' : 'too big for NTAG215'}`;
    doc.font('Body').fontSize(8).text(fit, MARGIN, doc.y + 1, { width });
    doc.font('Mono').fontSize(7).text(c.tlvHex, MARGIN, doc.y + 1, { width });
    y = doc.y + 5;
    shown++;
  }
  if (shown < t.codes.length) {
    doc.font('Body').fontSize(9).text(`... and ${t.codes.length - shown} more: see the order's NFC CSV.`, MARGIN, y);
    y = doc.y + 4;
  }
  if (t.codes.length === 0) {
    doc.font('Body').fontSize(9).text('No batch code yet.', MARGIN, y);
    y = doc.y + 4;
  }

  y += 6;
  doc.font('Bold').fontSize(12).text('Notes', MARGIN, y);
  doc.font('Body').fontSize(9);
  const notes = t.notes.length ? t.notes : ['None.'];
  for (const n of notes) {
    if (doc.y > PAGE.height - MARGIN - 30) break;
    drawText(doc, 'Body', n, MARGIN, doc.y + 2, { width, height: PAGE.height - MARGIN - 20 - doc.y, ellipsis: true });
  }
  doc.font('Body').fontSize(7).fillColor('#555555').text(`Printed ${t.generatedAt}`, MARGIN, PAGE.height - MARGIN - 10, { width, lineBreak: false });
  doc.end();
  await done;
  const out = Buffer.concat(chunks);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
