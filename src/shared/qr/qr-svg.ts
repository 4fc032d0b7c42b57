import QRCode from 'qrcode';

/**
 * QR codes as SVG text, drawn by our own renderer from the `qrcode` package's module matrix.
 * Pure string work (no Node or DOM APIs): used by the server (`GET /api/qrcode`, card backs)
 * and by the web client.
 *
 * Styles (every one decodes with an ordinary phone reader):
 * - standard: square modules, square finder eyes
 * - rounded:  rounded modules and rounded finder eyes
 * - circular: round modules and round eyes, the code sitting inside a circle (the circle is the
 *             quiet zone, so the default margin is 0)
 * - dot:      round modules with square finder eyes
 * - square:   square modules with a small gap between them
 */
export type QrStyle = 'standard' | 'rounded' | 'circular' | 'dot' | 'square';
export type QrEcl = 'L' | 'M' | 'Q' | 'H';

export const QR_STYLES: readonly QrStyle[] = ['standard', 'rounded', 'circular', 'dot', 'square'];

export const QR_DEFAULTS = {
  size: 200,
  margin: 2,
  circularMargin: 0,
  ecl: 'H' as QrEcl,
  fg: '#000000',
  bg: '#ffffff',
  style: 'standard' as QrStyle,
};

/**
 * The quiet zone ISO/IEC 18004 asks for (4 modules): the default of `GET /api/qrcode` and of the
 * e-mail signature (issue 36). `QR_DEFAULTS.margin` stays 2 for codes drawn inside a card design,
 * where the card's own blank area around the code is the quiet zone the print check measures.
 */
export const QR_QUIET_ZONE = 4;

/**
 * Fewest pixels a module may be drawn with and still be read by ZXing and ZBar (measured across the
 * allowed sizes and data lengths, tests/standards/qr.test.ts): square modules survive anti-aliasing
 * at 2 px; rounded and dot modules need 3; the circular style (round modules, a ring) needs 4.
 */
export const QR_MIN_PX_PER_MODULE: Record<QrStyle, number> = { standard: 2, square: 2, rounded: 3, dot: 3, circular: 4 };

/** Longest text the server accepts for a QR code (error correction H holds about 1,270 bytes). */
export const QR_MAX_DATA_LENGTH = 1000;

export interface QrSvgOptions {
  style?: QrStyle;
  /** rendered width and height in pixels */
  size?: number;
  /** quiet zone in modules (default 2, 0 for circular; `GET /api/qrcode` defaults to QR_QUIET_ZONE) */
  margin?: number;
  ecl?: QrEcl;
  fg?: string;
  /** background colour; 'none' or 'transparent' draws no background */
  bg?: string;
}

export interface QrGroupOptions extends Omit<QrSvgOptions, 'size' | 'ecl'> {
  x: number;
  y: number;
  size: number;
  ecl?: QrEcl;
}

const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([0-9.,%\s]{5,40}\))$/;

function color(value: string | undefined, fallback: string): string {
  const c = (value ?? fallback).trim();
  if (!COLOR.test(c)) throw new Error(`invalid QR colour: ${c.slice(0, 40)}`);
  return c;
}

function n(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** The module matrix: matrix[row][col] is true for a dark module. Throws on empty or too long text. */
export function qrMatrix(text: string, ecl: QrEcl = 'H'): boolean[][] {
  return qrModules(text, ecl).dark;
}

/** Dark modules plus which modules belong to function patterns (finders, timing, alignment, format). */
function qrModules(text: string, ecl: QrEcl): { dark: boolean[][]; reserved: boolean[][] } {
  if (!text) throw new Error('QR text is empty');
  const qr = QRCode.create(text, { errorCorrectionLevel: ecl });
  const size = qr.modules.size;
  const { data, reservedBit } = qr.modules;
  const dark: boolean[][] = [];
  const reserved: boolean[][] = [];
  for (let r = 0; r < size; r++) {
    const d: boolean[] = [];
    const f: boolean[] = [];
    for (let c = 0; c < size; c++) {
      d.push(Boolean(data[r * size + c]));
      f.push(Boolean(reservedBit[r * size + c]));
    }
    dark.push(d);
    reserved.push(f);
  }
  return { dark, reserved };
}

function inFinder(r: number, c: number, count: number): boolean {
  const near = (v: number) => v < 7;
  const far = (v: number) => v >= count - 7;
  return (near(r) && near(c)) || (near(r) && far(c)) || (far(r) && near(c));
}

/** Finder eye at module (x, y): a 7x7 ring and a 3x3 centre, in the style's shape. */
function eye(x: number, y: number, style: QrStyle, fg: string): string {
  if (style === 'circular') {
    return (
      `<circle cx="${n(x + 3.5)}" cy="${n(y + 3.5)}" r="3" fill="none" stroke="${fg}" stroke-width="1"/>` +
      `<circle cx="${n(x + 3.5)}" cy="${n(y + 3.5)}" r="1.5" fill="${fg}"/>`
    );
  }
  if (style === 'rounded') {
    return (
      `<rect x="${n(x + 0.5)}" y="${n(y + 0.5)}" width="6" height="6" rx="1.6" fill="none" stroke="${fg}" stroke-width="1"/>` +
      `<rect x="${n(x + 2)}" y="${n(y + 2)}" width="3" height="3" rx="0.9" fill="${fg}"/>`
    );
  }
  // square eyes (dot style keeps them square so readers find them easily)
  return (
    `<path d="M${n(x)} ${n(y)}h7v7h-7zM${n(x + 1)} ${n(y + 1)}v5h5v-5z" fill="${fg}" fill-rule="evenodd"/>` +
    `<rect x="${n(x + 2)}" y="${n(y + 2)}" width="3" height="3" fill="${fg}"/>`
  );
}

/** Quiet zone, the code's offset and the drawing's width, in modules. */
function frame(count: number, style: QrStyle, requestedMargin: number | undefined): { margin: number; offset: number; total: number } {
  const margin = Math.max(0, Math.min(20, Math.floor(requestedMargin ?? (style === 'circular' ? QR_DEFAULTS.circularMargin : QR_DEFAULTS.margin))));
  // circular: the square code sits inside a circle whose ring is the quiet zone; the ring keeps 4
  // modules from the code's corners (half the diagonal, 0.7071 x count), not only from its sides
  const ringPad = style === 'circular' ? Math.ceil(count * 0.2072 + 4.5) : 0;
  const offset = margin + ringPad;
  return { margin, offset, total: count + 2 * offset };
}

/**
 * The smallest width in pixels at which the code of `text` (with this style and quiet zone) is still
 * readable: its width in modules times the style's `QR_MIN_PX_PER_MODULE`. Throws like `qrMatrix`.
 */
export function qrMinReadableSize(text: string, opts: { style?: QrStyle; margin?: number; ecl?: QrEcl } = {}): number {
  const style: QrStyle = opts.style && QR_STYLES.includes(opts.style) ? opts.style : 'standard';
  const count = qrMatrix(text, opts.ecl ?? QR_DEFAULTS.ecl).length;
  return Math.ceil(frame(count, style, opts.margin).total * QR_MIN_PX_PER_MODULE[style]);
}

/**
 * The drawing in module units: origin at the top-left of the quiet zone, `total` modules wide.
 * Returns the inner SVG markup and the total width in modules.
 */
function draw(text: string, opts: QrSvgOptions): { body: string; total: number } {
  const style: QrStyle = opts.style && QR_STYLES.includes(opts.style) ? opts.style : 'standard';
  const ecl = opts.ecl ?? QR_DEFAULTS.ecl;
  const fg = color(opts.fg, QR_DEFAULTS.fg);
  const bgRaw = color(opts.bg, QR_DEFAULTS.bg);
  const noBg = bgRaw === 'none' || bgRaw === 'transparent';
  const bg = noBg ? 'none' : bgRaw;
  const { dark: matrix, reserved } = qrModules(text, ecl);
  const count = matrix.length;
  const { margin, offset, total } = frame(count, style, opts.margin);
  const parts: string[] = [];

  if (style === 'circular') {
    const c = total / 2;
    if (!noBg) parts.push(`<rect width="${n(total)}" height="${n(total)}" fill="${bg}"/>`);
    const r = c - margin - 0.5;
    parts.push(`<circle cx="${n(c)}" cy="${n(c)}" r="${n(r)}" fill="${noBg ? 'none' : bg}" stroke="${fg}" stroke-width="0.6"/>`);
  } else if (!noBg) {
    parts.push(`<rect width="${n(total)}" height="${n(total)}" fill="${bg}"/>`);
  }

  if (style === 'standard' || style === 'square') {
    // standard: merge horizontal runs into one path; square: one small square per module
    let d = '';
    for (let r = 0; r < count; r++) {
      if (style === 'standard') {
        let c = 0;
        while (c < count) {
          if (!matrix[r][c]) {
            c++;
            continue;
          }
          const start = c;
          while (c < count && matrix[r][c]) c++;
          d += `M${start + offset} ${r + offset}h${c - start}v1h-${c - start}z`;
        }
      } else {
        for (let c = 0; c < count; c++) {
          if (!matrix[r][c] || inFinder(r, c, count)) continue;
          d += `M${n(c + offset + 0.08)} ${n(r + offset + 0.08)}h0.84v0.84h-0.84z`;
        }
      }
    }
    parts.push(`<path d="${d}" fill="${fg}"/>`);
    if (style === 'square') {
      parts.push(eye(offset, offset, style, fg));
      parts.push(eye(offset + count - 7, offset, style, fg));
      parts.push(eye(offset, offset + count - 7, style, fg));
    }
  } else {
    let d = '';
    for (let r = 0; r < count; r++) {
      for (let c = 0; c < count; c++) {
        if (!matrix[r][c] || inFinder(r, c, count)) continue;
        const x = c + offset;
        const y = r + offset;
        if (reserved[r][c] && style !== 'rounded') {
          // timing and alignment patterns stay solid so readers lock onto the grid
          d += `M${x} ${y}h1v1h-1z`;
        } else if (style === 'rounded') {
          // rounded square, radius 0.3 (drawn with arcs so it stays one path)
          const k = 0.3;
          d += `M${n(x + k)} ${n(y)}h${n(1 - 2 * k)}a${k} ${k} 0 0 1 ${k} ${k}v${n(1 - 2 * k)}a${k} ${k} 0 0 1 -${k} ${k}h-${n(1 - 2 * k)}a${k} ${k} 0 0 1 -${k} -${k}v-${n(1 - 2 * k)}a${k} ${k} 0 0 1 ${k} -${k}z`;
        } else {
          const rad = style === 'dot' ? 0.42 : 0.46;
          d += `M${n(x + 0.5 - rad)} ${n(y + 0.5)}a${rad} ${rad} 0 1 0 ${n(2 * rad)} 0a${rad} ${rad} 0 1 0 -${n(2 * rad)} 0z`;
        }
      }
    }
    parts.push(`<path d="${d}" fill="${fg}"/>`);
    parts.push(eye(offset, offset, style, fg));
    parts.push(eye(offset + count - 7, offset, style, fg));
    parts.push(eye(offset, offset + count - 7, style, fg));
  }
  return { body: parts.join(''), total };
}

/** A complete `<svg>` document of the QR code. Throws on empty text or text too long for a QR code. */
export function qrSvg(text: string, opts: QrSvgOptions = {}): string {
  const size = Math.max(16, Math.min(4096, Math.round(opts.size ?? QR_DEFAULTS.size)));
  const { body, total } = draw(text, opts);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${n(total)} ${n(total)}" ` +
    `shape-rendering="${opts.style === 'standard' || !opts.style ? 'crispEdges' : 'geometricPrecision'}" role="img" aria-label="QR code">` +
    body +
    `</svg>`
  );
}

/** The QR code as a `<g>` fragment placed at (x, y) with the given size, for embedding in another SVG. */
export function qrSvgGroup(text: string, opts: QrGroupOptions): string {
  const { body, total } = draw(text, opts);
  const scale = opts.size / total;
  return `<g transform="translate(${n(opts.x)} ${n(opts.y)}) scale(${n(scale)})">${body}</g>`;
}
