import type { PrintCheckItem } from '#shared/schemas/print';
import { SAFE_AREA_UNITS, SAFE_IN, UNITS_PER_INCH, MM_PER_INCH } from './geometry';
import type { TextBox } from './artwork';

/**
 * The print check's rules (issue 22, decision 22-01): pure functions of what the worker measured on
 * the print raster and the artwork. `fail` blocks "Approve" unless staff give an override reason;
 * `warning` is shown and does not block. A figure outside its limit is always a failure (issue 35).
 */

export const MIN_IMAGE_DPI = 300;
export const QR_QUIET_ZONE_MODULES = 4;

const round = (v: number, digits: number) => Number(v.toFixed(digits));
const mm = (v: number) => `${v.toFixed(2)} mm`;

/** True when `decoded` opens `expected`: same scheme, host and path (a trailing slash does not matter). */
export function sameUrl(decoded: string, expected: string): boolean {
  try {
    const a = new URL(decoded);
    const b = new URL(expected);
    const path = (u: URL) => u.pathname.replace(/\/+$/, '') || '/';
    return a.protocol === b.protocol && a.host.toLowerCase() === b.host.toLowerCase() && path(a) === path(b) && a.search === b.search;
  } catch {
    return false;
  }
}

export function qrDecodeCheck(input: { expectedUrl: string | null; decoded: string | null; hasQr: boolean }): PrintCheckItem {
  const base = { id: 'qr-decode' as const, label: 'QR code in the print file' };
  if (!input.expectedUrl) return { ...base, status: 'fail', figure: 'no code URL', message: 'The card has no code URL yet (no profile or card link), so its QR code has nowhere to lead.' };
  if (!input.hasQr) return { ...base, status: 'fail', figure: 'no QR code', message: 'The template has no QR code slot: the card would have no code to scan.' };
  if (!input.decoded) return { ...base, status: 'fail', figure: 'not readable', message: 'No QR code could be read in the 300 DPI print raster.' };
  if (!sameUrl(input.decoded, input.expectedUrl)) return { ...base, status: 'fail', figure: input.decoded, message: `The QR code opens ${input.decoded}, not the card's code URL ${input.expectedUrl}.` };
  return { ...base, status: 'ok', figure: input.decoded, message: "Read from the print raster: it opens the card's code URL." };
}

export function qrModuleCheck(moduleMm: number | null, minMm: number): PrintCheckItem {
  const base = { id: 'qr-module' as const, label: 'QR module size' };
  if (moduleMm === null) return { ...base, status: 'fail', figure: 'no QR code', message: 'There is no QR code to measure.' };
  const figure = `${mm(moduleMm)} (minimum ${mm(minMm)})`;
  // judged on the figure staff read (issue 36): never a tick beside a number under the minimum
  if (round(moduleMm, 2) < round(minMm, 2)) return { ...base, status: 'fail', figure, message: `The modules are smaller than the ${mm(minMm)} the engraver holds: the code may not scan. Use a larger QR slot or a shorter URL.` };
  return { ...base, status: 'ok', figure, message: 'The modules are large enough to engrave and print sharply.' };
}

/**
 * ISO/IEC 18004 asks for 4 modules of clear margin; an engraved code narrower than that may not scan,
 * so anything below is a failure (issue 36: it was a warning from 2 modules, and 3.8 even passed),
 * judged on the one-decimal figure staff read. Staff may still approve with an override reason.
 */
export function quietZoneCheck(modules: number | null): PrintCheckItem {
  const base = { id: 'qr-quiet-zone' as const, label: 'QR quiet zone' };
  if (modules === null) return { ...base, status: 'fail', figure: 'not measured', message: 'The quiet zone could not be measured (the code was not read).' };
  const shown = round(modules, 1);
  const figure = `${shown.toFixed(1)} modules (minimum ${QR_QUIET_ZONE_MODULES})`;
  if (shown >= QR_QUIET_ZONE_MODULES) return { ...base, status: 'ok', figure, message: 'The code has a clear margin all round.' };
  return { ...base, status: 'fail', figure, message: `Something is drawn closer than ${QR_QUIET_ZONE_MODULES} modules to the QR code: engravers and readers need that clear margin all round. Move it, use a smaller QR slot, or approve with an override reason.` };
}

export function safeAreaCheck(texts: Array<Pick<TextBox, 'text' | 'bounds'> & { side: 'front' | 'back' }>): PrintCheckItem {
  const base = { id: 'safe-area' as const, label: 'Text inside the safe area' };
  const s = SAFE_AREA_UNITS;
  const outside: string[] = [];
  let worst = 0;
  for (const t of texts) {
    if (!t.bounds) continue;
    const over = Math.max(s.x - t.bounds.minX, s.y - t.bounds.minY, t.bounds.maxX - (s.x + s.width), t.bounds.maxY - (s.y + s.height));
    if (over > 0.5) {
      worst = Math.max(worst, over);
      outside.push(`"${t.text.length > 40 ? t.text.slice(0, 39) + '…' : t.text}" (${t.side})`);
    }
  }
  const safeMm = SAFE_IN * MM_PER_INCH;
  if (!outside.length) return { ...base, status: 'ok', figure: `${texts.filter((t) => t.bounds).length} texts inside`, message: `Every text is at least ${safeMm.toFixed(1)} mm inside the trim.` };
  return {
    ...base,
    status: 'fail',
    figure: `${outside.length} outside by up to ${mm((worst / UNITS_PER_INCH) * MM_PER_INCH)}`,
    message: `Text closer than ${safeMm.toFixed(1)} mm to the trim may be cut: ${outside.join(', ')}.`,
  };
}

export function imageResolutionCheck(images: Array<{ side: 'front' | 'back'; dpi: number }>): PrintCheckItem {
  const base = { id: 'image-resolution' as const, label: 'Image resolution' };
  if (!images.length) return { ...base, status: 'ok', figure: 'no images', message: 'The print file has no photos or logos (the elements check says whether the preview had any).' };
  const low = images.filter((i) => i.dpi < MIN_IMAGE_DPI);
  const lowest = Math.min(...images.map((i) => i.dpi));
  const figure = `${Math.round(lowest)} DPI lowest (minimum ${MIN_IMAGE_DPI})`;
  // judged on the figure staff read, as the other limits (issue 35): under the minimum is a failure
  if (Math.round(lowest) >= MIN_IMAGE_DPI) return { ...base, status: 'ok', figure, message: `Every image is embedded at ${MIN_IMAGE_DPI} DPI or more.` };
  return { ...base, status: 'fail', figure, message: `${low.length} ${low.length === 1 ? 'image is' : 'images are'} under ${MIN_IMAGE_DPI} DPI at print size (${low.map((i) => `${Math.round(i.dpi)} DPI on the ${i.side}`).join(', ')}): it will look soft. Ask for a larger file, or approve with an override reason.` };
}

/** Light against dark modules of the printed code, as a share of the full range (ISO/IEC 15416 grade C is 40%). */
export const QR_MIN_CONTRAST = 0.4;

export function qrContrastCheck(contrast: number | null): PrintCheckItem {
  const base = { id: 'qr-contrast' as const, label: 'QR contrast' };
  if (contrast === null) return { ...base, status: 'fail', figure: 'not measured', message: 'The contrast could not be measured (the code was not read).' };
  const shown = Math.round(contrast * 100);
  const figure = `${shown}% (minimum ${Math.round(QR_MIN_CONTRAST * 100)}%)`;
  if (shown >= Math.round(QR_MIN_CONTRAST * 100)) return { ...base, status: 'ok', figure, message: 'Dark and light modules differ enough for readers.' };
  return { ...base, status: 'fail', figure, message: 'Dark and light modules are too close in tone: readers may not tell them apart. Change the engraving or print colour, or approve with an override reason.' };
}

/** One side's elements: what its preview filling holds and what the print file draws (issue 35). */
export interface SideElements {
  side: 'front' | 'back';
  /** texts (their content), `logo` for each image, `QR code` for each code */
  preview: string[];
  print: string[];
}

/** The elements of the preview each side's print file lacks (a multiset difference). */
export function missingElements(e: SideElements): string[] {
  const left = [...e.print];
  const missing: string[] = [];
  for (const el of e.preview) {
    const i = left.indexOf(el);
    if (i >= 0) left.splice(i, 1);
    else missing.push(el);
  }
  return missing;
}

/**
 * The print file holds every element of the approved preview (issue 35): each text, image (logo)
 * and QR code of the preview's filling is drawn in the print artwork. A missing one fails.
 */
export function elementsCheck(sides: SideElements[]): PrintCheckItem {
  const base = { id: 'elements' as const, label: 'Every element of the preview' };
  const count = sides.reduce((n, s) => n + s.preview.length, 0);
  const missing = sides.flatMap((s) => missingElements(s).map((el) => `${el.length > 40 ? el.slice(0, 39) + '…' : el} (${s.side})`));
  if (!missing.length) return { ...base, status: 'ok', figure: `${count} of ${count} elements`, message: 'Every text, logo and QR code of the preview is in the print file.' };
  return {
    ...base,
    status: 'fail',
    figure: `${count - missing.length} of ${count} elements`,
    message: `The print file lacks what the preview shows: ${missing.map((m) => `"${m}"`).join(', ')}.`,
  };
}

/**
 * The clear margin around a QR code on a greyscale raster, in modules: from each edge of the code
 * outward, how many pixel lines (across the code's width) keep the colour of its light modules.
 * `light` is that colour (0-255); `box` the code's outer edges in pixels.
 */
export function measureQuietZone(gray: Uint8Array, width: number, height: number, box: { x0: number; y0: number; x1: number; y1: number }, modulePx: number, light: number, maxModules = 8): number {
  const tol = 64;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? -1000 : gray[Math.round(y) * width + Math.round(x)]);
  const clear = (x: number, y: number) => Math.abs(at(x, y) - light) <= tol;
  const limit = Math.ceil(maxModules * modulePx);
  const lineClear = (fixed: number, from: number, to: number, vertical: boolean) => {
    for (let t = from; t <= to; t += 1) if (!(vertical ? clear(fixed, t) : clear(t, fixed))) return false;
    return true;
  };
  const pad = modulePx; // the line spans the code and a module either side
  const sides = [
    (k: number) => lineClear(box.y0 - k, box.x0 - pad, box.x1 + pad, false),
    (k: number) => lineClear(box.y1 + k, box.x0 - pad, box.x1 + pad, false),
    (k: number) => lineClear(box.x0 - k, box.y0 - pad, box.y1 + pad, true),
    (k: number) => lineClear(box.x1 + k, box.y0 - pad, box.y1 + pad, true),
  ];
  let min = Infinity;
  for (const ok of sides) {
    // the first pixel line is the code's own anti-aliased edge
    let k = 2;
    while (k <= limit && ok(k)) k++;
    min = Math.min(min, (k - 1) / modulePx);
  }
  return Math.round(Math.min(min, maxModules) * 10) / 10;
}

export function effectiveDpi(pxWidth: number, pxHeight: number, drawnWidthUnits: number, drawnHeightUnits: number): number {
  const w = drawnWidthUnits / UNITS_PER_INCH;
  const h = drawnHeightUnits / UNITS_PER_INCH;
  if (w <= 0 || h <= 0) return Infinity;
  return Math.min(pxWidth / w, pxHeight / h);
}
