import { cjkFaceBytes, scriptRuns, type TextRun } from './script-fonts';
import { pdfFontSource } from './pdf-fonts';

/** The faces registerPdfFonts gives every PDF, and the weight of each (for the CJK fallback). */
export type PdfFont = 'Body' | 'Bold' | 'Mono';
const WEIGHT: Record<PdfFont, number> = { Body: 400, Bold: 700, Mono: 400 };

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/**
 * Writes a text that may hold a name in any script (issue 36, decision 36-03): a text without CJK
 * characters is one `doc.text` call in the given face, exactly as before; otherwise it is drawn as
 * runs (pdfkit's `continued` text, one line wrapper), each CJK run in the Noto Sans file that has
 * its characters, registered on the document on first use (pdfkit embeds only the glyphs used).
 * `x`/`y` undefined continues at the document's cursor, like `doc.text(text, options)`.
 */
export function drawText(doc: PDFKit.PDFDocument, font: PdfFont, text: string, x: number | undefined, y: number | undefined, options: PDFKit.Mixins.TextOptions = {}): PDFKit.PDFDocument {
  const runs = scriptRuns(text, WEIGHT[font]);
  if (runs.length === 1 && !runs[0].face) {
    doc.font(font);
    return x === undefined ? doc.text(text, options) : doc.text(text, x, y, options);
  }
  let names = registered.get(doc);
  if (!names) {
    names = new Set();
    registered.set(doc, names);
  }
  const setFont = (run: TextRun) => {
    if (!run.face) return doc.font(font);
    if (!names.has(run.face.key)) {
      doc.registerFont(run.face.key, pdfFontSource(`cjk:${run.face.key}`, () => cjkFaceBytes(run.face!)));
      names.add(run.face.key);
    }
    return doc.font(run.face.key);
  };
  // pdfkit puts each fragment's top at the line's top, so faces with other ascenders would sit
  // higher or lower: every run takes the base face's baseline instead
  const ascender = (doc.font(font) as unknown as { _font: { ascender: number } })._font.ascender;
  const baseline = -((ascender / 1000) * ((doc as unknown as { _fontSize: number })._fontSize));
  if (options.lineBreak === false && options.width) return oneLine(doc, font, runs, x, y, options, setFont, baseline);
  runs.forEach((run, i) => {
    setFont(run);
    const opts = { ...options, baseline, continued: i < runs.length - 1 || !!options.continued };
    if (i === 0 && x !== undefined) doc.text(run.text, x, y, opts);
    else doc.text(run.text, opts);
  });
  return doc.font(font);
}

/** One line cut to `width` (with "…" when `ellipsis`): pdfkit's wrapper cuts each run on its own. */
function oneLine(doc: PDFKit.PDFDocument, font: PdfFont, runs: TextRun[], x: number | undefined, y: number | undefined, options: PDFKit.Mixins.TextOptions, setFont: (r: TextRun) => PDFKit.PDFDocument, baseline: number): PDFKit.PDFDocument {
  const width = options.width!;
  const widthOf = (r: TextRun) => setFont(r).widthOfString(r.text);
  let total = runs.reduce((n, r) => n + widthOf(r), 0);
  const fitted = runs.map((r) => ({ ...r }));
  if (total > width) {
    const mark = options.ellipsis === true || options.ellipsis === undefined ? '…' : String(options.ellipsis || '');
    const room = width - (options.ellipsis ? doc.font(font).widthOfString(mark) : 0);
    while (fitted.length && total > room) {
      const last = fitted[fitted.length - 1];
      const chars = [...last.text];
      const before = widthOf(last);
      last.text = chars.slice(0, -1).join('');
      total -= before - widthOf(last);
      if (!last.text) fitted.pop();
    }
    if (options.ellipsis) fitted.push({ text: mark, face: null });
  }
  const { width: _w, ellipsis: _e, continued: _c, ...rest } = options;
  fitted.forEach((run, i) => {
    setFont(run);
    const opts = { ...rest, lineBreak: false, baseline };
    if (i === 0 && x !== undefined) doc.text(run.text, x, y, opts);
    else doc.text(run.text, opts);
  });
  return doc.font(font);
}
