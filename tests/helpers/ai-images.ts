import crypto from 'node:crypto';
import sharp from 'sharp';

/**
 * Generated test pictures for background removal: a logo on a flat or near-flat background, a
 * busy picture with no plain background, and oversized files.
 */

export interface LogoImageOptions {
  width?: number;
  height?: number;
  /** background colour, or a vertical gradient [top, bottom] (a studio sweep) */
  background?: string | [string, string];
  /** +/- noise added to every channel (sensor noise, JPEG) */
  noise?: number;
  format?: 'png' | 'jpeg' | 'webp';
}

/**
 * A red ring (with a hole showing the background), a blue rounded block and a dark bar on the
 * background. Known points: corners are background; (0.39w, 0.5h) is the ring's hole;
 * (0.39w, 0.5h - 0.19h) is on the ring; (0.76w, 0.5h) is in the block.
 */
export async function logoImage(opts: LogoImageOptions = {}): Promise<Buffer> {
  const w = opts.width ?? 1024;
  const h = opts.height ?? 768;
  const bg = opts.background ?? '#F2F2F2';
  const fill = Array.isArray(bg)
    ? `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg[0]}"/><stop offset="1" stop-color="${bg[1]}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`
    : `<rect width="100%" height="100%" fill="${bg}"/>`;
  const r = Math.round(h * 0.26);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${fill}
<circle cx="${Math.round(w * 0.39)}" cy="${Math.round(h * 0.5)}" r="${r}" fill="#C0392B"/>
<circle cx="${Math.round(w * 0.39)}" cy="${Math.round(h * 0.5)}" r="${Math.round(r * 0.45)}" fill="${Array.isArray(bg) ? bg[0] : bg}"/>
<rect x="${Math.round(w * 0.64)}" y="${Math.round(h * 0.27)}" width="${Math.round(w * 0.24)}" height="${Math.round(h * 0.46)}" rx="${Math.round(w * 0.03)}" fill="#1F3A93"/>
<rect x="${Math.round(w * 0.64)}" y="${Math.round(h * 0.78)}" width="${Math.round(w * 0.24)}" height="${Math.round(h * 0.06)}" fill="#222222"/></svg>`;
  let img = sharp(Buffer.from(svg));
  if (opts.noise) {
    const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i] + Math.round((rnd() - 0.5) * 2 * opts.noise)));
    img = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  }
  if (opts.format === 'jpeg') return img.jpeg({ quality: 92 }).toBuffer();
  if (opts.format === 'webp') return img.webp({ quality: 92 }).toBuffer();
  return img.png().toBuffer();
}

/** Random coloured noise everywhere: no plain background to find. */
export async function busyImage(width = 400, height = 300): Promise<Buffer> {
  const data = crypto.randomBytes(width * height * 3);
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** A real PNG just over `bytes` (incompressible noise, stored without compression). */
export async function pngOfAtLeast(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3)) + 8;
  const data = crypto.randomBytes(side * side * 3);
  return sharp(data, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/** A small file holding a very large picture (flat colour compresses to almost nothing). */
export async function manyPixelsPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png({ compressionLevel: 9 }).toBuffer();
}

export async function rgbaAt(png: Buffer, x: number, y: number): Promise<[number, number, number, number]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const p = (y * info.width + x) * 4;
  return [data[p], data[p + 1], data[p + 2], data[p + 3]];
}
