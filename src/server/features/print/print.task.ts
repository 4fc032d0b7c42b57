import sharp from 'sharp';
import { DEFAULT_FONT_FAMILY } from '#shared/fonts';
import { fillTemplateDetailed } from '#shared/templates/fill';
import type { CardData } from '#shared/templates/fields';
import { qrMatrix } from '#shared/qr/qr-svg';
import { buildPrintSide, inkScale, printFinish, MIN_INK, type ArtItem, type ImageItem, type PrintSide } from './art/artwork';
import { markForPrint } from './art/mark';
import { parseXml } from './art/usvg';
import { printSvg, proofSvg, PROOF_SIZE } from './art/svg';
import { effectiveDpi, measureQuietZone, type SideElements } from './art/checks';
import { unitsToMm } from './art/geometry';
import { fontFilesFor } from '#server/infra/fonts';
import { loadSvg, renderPixels } from '#server/infra/images/resvg';
import { writePrintPdf, writePrintSheet, type PdfImage, type SheetLayout } from './pdf';

/**
 * Print files on the worker pool (issue 22, decision 22-01): the card's two sides are filled by the
 * previews' filler, simplified by usvg (text to outlines) and turned into print artwork; the PDF is
 * written with pdfkit, the SVG and the proof from the same artwork.
 */

export interface PrintTaskInput {
  cardType: string;
  front: string;
  back: string;
  data: CardData;
  /** the card's code URL (its QR code) */
  qrUrl: string | null;
  /** the logo as a data: URI */
  logoHref: string | null;
  /** the card's previews show a logo (its URL is set): the print check wants one in the print file too */
  previewLogo?: boolean;
  title: string;
}

/** Images are kept at no more than this resolution at print size (plenty for engraving and UV print). */
const MAX_IMAGE_DPI = 600;

function usvg(svg: string): string {
  return loadSvg(svg, {
    font: { loadSystemFonts: false, fontFiles: fontFilesFor(svg), defaultFontFamily: DEFAULT_FONT_FAMILY, sansSerifFamily: 'Inter', serifFamily: 'Playfair Display', monospaceFamily: 'JetBrains Mono' },
    logLevel: 'off',
  }).toString();
}

function fitImage(it: ImageItem, pxW: number, pxH: number) {
  const b = it.box;
  const par = it.preserveAspectRatio.trim();
  if (par === 'none' || !pxW || !pxH) return { ...b };
  const slice = /slice/.test(par);
  const s = slice ? Math.max(b.width / pxW, b.height / pxH) : Math.min(b.width / pxW, b.height / pxH);
  const w = pxW * s;
  const h = pxH * s;
  const ax = /xMin/.test(par) ? 0 : /xMax/.test(par) ? 1 : 0.5;
  const ay = /YMin/.test(par) ? 0 : /YMax/.test(par) ? 1 : 0.5;
  return { x: b.x + (b.width - w) * ax, y: b.y + (b.height - h) * ay, width: w, height: h };
}

interface Prepared {
  sides: PrintSide[];
  /** per side: the elements of the preview's filling and of the print artwork (issue 35) */
  elements: SideElements[];
  images: Map<ArtItem, PdfImage>;
  warnings: string[];
  qrUrl: string | null;
}

/** Decodes each image once: size at print, effective DPI, the pixels in the process's colours, a preview. */
async function prepareImages(sides: PrintSide[], cardType: string, forPdf: boolean, withPreview: boolean): Promise<Map<ArtItem, PdfImage>> {
  const { base, span } = inkScale(printFinish(cardType));
  const out = new Map<ArtItem, PdfImage>();
  for (const side of sides) {
    for (const it of side.items) {
      if (it.kind !== 'image') continue;
      const m = /^data:image\/[a-z+.-]+;base64,(.*)$/s.exec(it.href);
      if (!m) continue;
      const bytes = Buffer.from(m[1], 'base64');
      let meta;
      try {
        meta = await sharp(bytes).metadata();
      } catch {
        continue;
      }
      const pxW = meta.width ?? 0;
      const pxH = meta.height ?? 0;
      const drawn = fitImage(it, pxW, pxH);
      // the drawn size in card units (the item's matrix scales it)
      const sx = Math.hypot(it.m[0], it.m[1]);
      const sy = Math.hypot(it.m[2], it.m[3]);
      it.drawn = drawn;
      it.dpi = effectiveDpi(pxW, pxH, drawn.width * sx, drawn.height * sy);
      if (!forPdf && !withPreview) continue;
      // more pixels than MAX_IMAGE_DPI needs are not kept
      const maxW = Math.max(1, Math.round(((drawn.width * sx) / 300) * MAX_IMAGE_DPI));
      const raw = await sharp(bytes).resize({ width: Math.min(pxW, maxW), withoutEnlargement: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const { width, height } = raw.info;
      const px = raw.data;
      const count = width * height;
      const alpha = Buffer.alloc(count);
      const data = Buffer.alloc(it.process === 'engrave' ? count : count * 4);
      const preview = withPreview && it.process === 'engrave' ? Buffer.alloc(count * 4) : null;
      for (let i = 0; i < count; i++) {
        const r = px[i * 4];
        const g = px[i * 4 + 1];
        const b = px[i * 4 + 2];
        const a = px[i * 4 + 3];
        alpha[i] = Math.round(a * Math.min(1, it.opacity));
        if (it.process === 'engrave') {
          const amount = Math.max(0, Math.min(1, ((r + g + b) / 765 - base) / span));
          const tint = amount < MIN_INK ? 0 : Math.round(amount * 255);
          data[i] = tint;
          if (preview) {
            const v = 255 - tint;
            preview[i * 4] = v;
            preview[i * 4 + 1] = v;
            preview[i * 4 + 2] = v;
            preview[i * 4 + 3] = tint ? alpha[i] : 0;
          }
        } else {
          // the naive conversion of rgbToCmyk, in bytes
          const max = Math.max(r, g, b);
          const k = 255 - max;
          data[i * 4] = max ? Math.round(((max - r) / max) * 255) : 0;
          data[i * 4 + 1] = max ? Math.round(((max - g) / max) * 255) : 0;
          data[i * 4 + 2] = max ? Math.round(((max - b) / max) * 255) : 0;
          data[i * 4 + 3] = k;
        }
      }
      if (preview) {
        const png = await sharp(preview, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 3 }).toBuffer();
        it.previewHref = `data:image/png;base64,${png.toString('base64')}`;
      }
      out.set(it, { item: it, width, height, data, alpha: alpha.some((v) => v !== 255) ? alpha : null });
    }
  }
  return out;
}

async function prepare(arg: PrintTaskInput, opts: { forPdf: boolean; withPreview: boolean }): Promise<Prepared> {
  const fillOpts = { qrUrl: arg.qrUrl, logoHref: arg.logoHref };
  const matrix = arg.qrUrl ? qrMatrix(arg.qrUrl, 'M') : null;
  const sides: PrintSide[] = [];
  const previews: string[][] = [];
  const warnings = new Set<string>();
  for (const side of ['front', 'back'] as const) {
    const filled = fillTemplateDetailed(side === 'front' ? arg.front : arg.back, arg.data, fillOpts);
    // the preview's filling: the same, with a logo wherever the previews had one (a logo that could
    // not be read for print leaves its slot to the template's fallback, e.g. initials)
    const preview = arg.previewLogo && !arg.logoHref ? fillTemplateDetailed(side === 'front' ? arg.front : arg.back, arg.data, { ...fillOpts, logoHref: STAND_IN_LOGO }).svg : filled.svg;
    previews.push(elementsOfFilling(preview));
    for (const t of filled.truncated) warnings.add(`The ${t} had to be shortened to fit the ${side}.`);
    const marked = markForPrint(filled.svg);
    const tree = parseXml(usvg(marked.svg));
    const margin = matrix && marked.qrTotals.length ? (marked.qrTotals[0] - matrix.length) / 2 : 0;
    const built = buildPrintSide({ side, cardType: arg.cardType, tree, textContent: marked.texts, qrMatrix: matrix, qrPreviewMargin: margin });
    for (const w of built.warnings) warnings.add(w);
    sides.push(built);
  }
  const images = await prepareImages(sides, arg.cardType, opts.forPdf, opts.withPreview);
  for (const side of sides) {
    for (const it of side.items) {
      if (it.kind === 'image' && it.dpi !== undefined && it.dpi < 300) warnings.add(`An image on the ${side.side} is ${Math.round(it.dpi)} DPI at print size (under 300).`);
    }
  }
  const elements = sides.map((side, i) => ({ side: side.side, preview: previews[i], print: elementsOfArtwork(side, images) }));
  return { sides, elements, images, warnings: [...warnings], qrUrl: arg.qrUrl };
}

/** A 1 x 1 PNG: the preview's logo when the print file has none, to list the preview's elements. */
const STAND_IN_LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** What a filled side shows: its texts (content), `logo` per image, `QR code` per code drawing. */
function elementsOfFilling(svg: string): string[] {
  const marked = markForPrint(svg);
  const texts = [...marked.texts.values()].filter((t) => t.trim());
  const images = (svg.match(/<image\b/g) ?? []).length;
  return [...texts, ...Array<string>(images).fill('logo'), ...Array<string>(marked.qrTotals.length).fill('QR code')];
}

/** What the print artwork of a side draws: texts with glyph outlines, images read, QR codes. */
function elementsOfArtwork(side: PrintSide, images: Map<ArtItem, PdfImage>): string[] {
  const texts = side.texts.filter((t) => t.bounds && t.text.trim()).map((t) => t.text);
  const drawn = side.items.filter((it) => it.kind === 'image' && (images.has(it) || (it as ImageItem).dpi !== undefined)).length;
  return [...texts, ...Array<string>(drawn).fill('logo'), ...Array<string>(side.qr.length).fill('QR code')];
}

export async function printFilesTask(arg: PrintTaskInput): Promise<{ pdf: Uint8Array; svg: string; warnings: string[] }> {
  const p = await prepare(arg, { forPdf: true, withPreview: true });
  const pdf = await writePrintPdf(p.sides, p.images, { title: arg.title });
  return { pdf, svg: printSvg(p.sides, arg.title), warnings: p.warnings };
}

/** Several cards on one jig sheet (fronts, then backs mirrored), with registration marks. */
export async function printSheetTask(arg: { cards: PrintTaskInput[]; layout: SheetLayout; title: string }): Promise<Uint8Array> {
  const all: PrintSide[][] = [];
  const images = new Map<ArtItem, PdfImage>();
  for (const card of arg.cards) {
    const p = await prepare(card, { forPdf: true, withPreview: false });
    all.push(p.sides);
    for (const [k, v] of p.images) images.set(k, v);
  }
  return writePrintSheet(all, images, arg.layout, { title: arg.title });
}

export interface ProofMeasurements {
  proofs: Array<{ side: 'front' | 'back'; png: Uint8Array; width: number; height: number }>;
  decodedText: string | null;
  qrModuleMm: number | null;
  quietZoneModules: number | null;
  /** light against dark modules on the proof (0-1) */
  qrContrast: number | null;
  elements: SideElements[];
  hasQr: boolean;
  texts: Array<{ side: 'front' | 'back'; text: string; bounds: { minX: number; minY: number; maxX: number; maxY: number } | null }>;
  images: Array<{ side: 'front' | 'back'; dpi: number }>;
  warnings: string[];
}

/** The print check's measurements: the proof of each side at 300 DPI, the QR code read from it. */
export async function printProofTask(arg: PrintTaskInput): Promise<ProofMeasurements> {
  const { default: jsQR } = await import('jsqr'); // loaded on first use (idle RSS)
  const p = await prepare(arg, { forPdf: false, withPreview: true });
  const proofs: ProofMeasurements['proofs'] = [];
  let decodedText: string | null = null;
  let quiet: number | null = null;
  let contrast: number | null = null;
  let moduleMm: number | null = null;
  for (const side of p.sides) {
    const img = renderPixels(loadSvg(proofSvg(side), { fitTo: { mode: 'width', value: PROOF_SIZE.width }, background: '#ffffff', logLevel: 'off', font: { loadSystemFonts: false } }));
    proofs.push({ side: side.side, png: img.asPng(), width: img.width, height: img.height });
    if (side.qr.length) {
      const q = side.qr[0];
      moduleMm = Math.round(unitsToMm(q.moduleUnits) * 1000) / 1000;
      if (decodedText === null) {
        const rgba = new Uint8ClampedArray(img.pixels.buffer, img.pixels.byteOffset, img.pixels.byteLength);
        const code = jsQR(rgba, img.width, img.height, { inversionAttempts: 'attemptBoth' });
        if (code) {
          decodedText = code.data;
          const gray = new Uint8Array(img.width * img.height);
          for (let i = 0; i < gray.length; i++) gray[i] = Math.round((rgba[i * 4] + rgba[i * 4 + 1] + rgba[i * 4 + 2]) / 3);
          const L = code.location;
          const dim = 17 + 4 * code.version;
          const modulePx = Math.hypot(L.topRightCorner.x - L.topLeftCorner.x, L.topRightCorner.y - L.topLeftCorner.y) / dim;
          // a light module: in the finder pattern's light ring, two modules right of its centre
          const lx = Math.round(L.topLeftFinderPattern.x + 2 * modulePx);
          const ly = Math.round(L.topLeftFinderPattern.y);
          const light = gray[ly * img.width + lx];
          // a dark module: the centre of the finder pattern
          const dark = gray[Math.round(L.topLeftFinderPattern.y) * img.width + Math.round(L.topLeftFinderPattern.x)];
          contrast = Math.round((Math.abs(light - dark) / 255) * 1000) / 1000;
          const box = {
            x0: Math.min(L.topLeftCorner.x, L.bottomLeftCorner.x),
            y0: Math.min(L.topLeftCorner.y, L.topRightCorner.y),
            x1: Math.max(L.topRightCorner.x, L.bottomRightCorner.x),
            y1: Math.max(L.bottomLeftCorner.y, L.bottomRightCorner.y),
          };
          quiet = measureQuietZone(gray, img.width, img.height, box, modulePx, light);
        }
      }
    }
  }
  return {
    proofs,
    decodedText,
    qrModuleMm: moduleMm,
    quietZoneModules: quiet,
    qrContrast: contrast,
    elements: p.elements,
    hasQr: p.sides.some((s) => s.qr.length > 0),
    texts: p.sides.flatMap((s) => s.texts.map((t) => ({ side: s.side, text: t.text, bounds: t.bounds }))),
    images: p.sides.flatMap((s) => s.items.filter((i): i is ImageItem => i.kind === 'image' && i.dpi !== undefined).map((i) => ({ side: s.side, dpi: i.dpi! }))),
    warnings: p.warnings,
  };
}
