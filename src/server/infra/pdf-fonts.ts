import fs from 'node:fs';

/**
 * Faces parsed once per thread for the PDFs we write with text (job ticket, jig sheet). Given a
 * path or bytes, pdfkit parses the font with fontkit again for every document, and the first
 * `widthOfString` of each document decodes the face's GSUB/GPOS lookups again: Inter's are large,
 * and that was about 100 ms of every job ticket (the 500-card ZIP went from 29 s to 110 s). pdfkit
 * also takes a parsed fontkit font (`PDFFontFactory.open`: anything with `layout`), and a parsed
 * font is read-only for it: each document still makes its own subset (`createSubset`) and its own
 * layout cache, and the font's glyph objects are dropped for each document (see below), so the
 * files are the same, byte for byte but the date; only the parsing and the decoded tables are shared.
 *
 * fontkit is loaded on first use (`loadPdfFontParser`, awaited by the tasks with pdfkit itself):
 * a worker that never writes such a PDF does not carry it. Before it is loaded, `pdfFontSource`
 * gives pdfkit the path or bytes as before.
 */

/** What we use of a fontkit font (opaque to us: pdfkit reads it). */
interface ParsedFont {
  layout(text: string): unknown;
}
type Create = (buffer: Uint8Array) => ParsedFont;

let create: Create | null = null;
/** Parsed faces by key (a path, or a CJK face's key), most recently used last. */
const parsed = new Map<string, ParsedFont>();
/** Faces kept parsed per thread (3 bundled faces and the CJK files of recent names). */
const PARSED_MAX = 48;

/** Loads fontkit (the parser pdfkit uses) once per thread. */
export async function loadPdfFontParser(): Promise<void> {
  if (create) return;
  const fontkit = (await import('fontkit')) as unknown as { create: Create };
  create = fontkit.create;
}

/**
 * The source to give `doc.registerFont` for a face: the face parsed once per thread when the
 * parser is loaded, else its path or bytes (pdfkit parses them itself).
 */
export function pdfFontSource(key: string, load: () => string | Buffer): PDFKit.Mixins.PDFFontSource {
  if (!create) return load();
  let font = parsed.get(key);
  if (font) {
    parsed.delete(key);
    // fontkit keeps each glyph object with the characters of its first layout, and pdfkit writes
    // those as the glyph's ToUnicode entry: a document must start with no glyph object from an
    // earlier one (a '.' first met inside another document's ligature or context lost its text)
    (font as unknown as { _glyphs: Record<number, unknown> })._glyphs = {};
  } else {
    const src = load();
    font = create(typeof src === 'string' ? fs.readFileSync(src) : src);
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
  }
  parsed.set(key, font);
  // pdfkit's types list paths and bytes only; its factory also takes a parsed font
  return font as unknown as PDFKit.Mixins.PDFFontSource;
}
