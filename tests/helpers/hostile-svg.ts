import zlib from 'node:zlib';
import fc from 'fast-check';

/**
 * A seeded generator of hostile SVGs (issue 32), shared by the security tests and bench/hostile.ts.
 *
 * Each attack class is a small grammar: a function of a seeded random source and a target size
 * that writes one SVG of that class at about that size. The same (seed, index) always gives the
 * same file, so a failure seen in the bench is replayed with `hostileSvg(seed, index)`. Sizes run
 * from about 250 bytes to just over the 1 MB SVG cap, log-uniform (as many small files as big).
 * `hostileSvgArb(cls)` is the same grammar as a fast-check arbitrary.
 */

export const SVG_CAP_BYTES = 1024 * 1024;

export const ATTACK_CLASSES = [
  'deep-nesting',
  'name-run',
  'attr-name-run',
  'value-run',
  'comment-run',
  'cdata-run',
  'text-run',
  'unclosed',
  'entity-doctype',
  'scaled-filter',
  'huge-viewbox',
  'nested-transform',
  'use-fanout',
  'pattern-fanout',
  'gradient-stops',
  'giant-text',
  'element-count',
  'embedded-image',
  'mixture',
] as const;
export type AttackClass = (typeof ATTACK_CLASSES)[number];

export interface HostileSvg {
  /** corpus seed and index (replay: hostileSvg(seed, index)) */
  seed: number;
  index: number;
  cls: AttackClass;
  /** which shape of the class, for reports */
  variant: string;
  svg: Buffer;
}

// ---------------------------------------------------------------- seeded random source

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast, good enough for test data */
export function rng(seed: number): Rng {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

const mix = (seed: number, index: number) => (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;

/** A size from about 250 bytes to just over the cap, log-uniform; one in 16 lands just past the cap. */
export function targetSize(r: Rng): number {
  if (r.chance(1 / 16)) return SVG_CAP_BYTES + r.int(1, 4096);
  return Math.round(250 * Math.pow((SVG_CAP_BYTES * 1.02) / 250, r.next()));
}

// ---------------------------------------------------------------- building blocks

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
const rep = (unit: string, bytes: number, min = 1) => unit.repeat(Math.max(min, Math.floor(bytes / Math.max(1, unit.length))));
const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** a run of `n` characters from `alphabet` (blocks repeated, so a 1 MB run costs little to make) */
function run(r: Rng, n: number, alphabet = NAME_CHARS): string {
  const block = Array.from({ length: Math.min(n, 64) }, () => alphabet[r.int(0, alphabet.length - 1)]).join('');
  return block.repeat(Math.ceil(n / Math.max(1, block.length))).slice(0, Math.max(0, n));
}

interface Parts {
  variant: string;
  /** attributes of the root <svg> (without xmlns) */
  root?: string;
  /** before the root (DOCTYPE, processing instructions) */
  prolog?: string;
  inner?: string;
  /** the whole file, when the class breaks the document's shape itself */
  raw?: string;
}

type ClassGen = (r: Rng, bytes: number) => Parts;

const logoRoot = (r: Rng) => {
  const px = r.pick([1200, 800, 1024, 2000]);
  return `width="${px}" height="${px}"`;
};

// ---------------------------------------------------------------- PNG bytes for embedded images

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function ihdr(w: number, h: number, bitDepth: number, colorType: number): Buffer {
  const b = Buffer.alloc(13);
  b.writeUInt32BE(w >>> 0, 0);
  b.writeUInt32BE(h >>> 0, 4);
  b[8] = bitDepth;
  b[9] = colorType;
  return b;
}
/** a PNG header claiming w x h pixels, with a few bytes of (truncated) image data */
export function pngHeaderOnly(w: number, h: number): Buffer {
  return Buffer.concat([PNG_SIG, chunk('IHDR', ihdr(w, h, 8, 6)), chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
}
const bombCache = new Map<number, Buffer>();
/** a valid 1-bit PNG of side x side pixels (side / 8 bytes a row, all zero: it compresses ~1000:1) */
export function pngBomb(side: number): Buffer {
  let b = bombCache.get(side);
  if (!b) {
    const row = Math.ceil(side / 8) + 1;
    const raw = Buffer.alloc(row * side);
    b = Buffer.concat([PNG_SIG, chunk('IHDR', ihdr(side, side, 1, 0)), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
    bombCache.set(side, b);
  }
  return b;
}

// ---------------------------------------------------------------- the classes

const GENERATORS: Record<Exclude<AttackClass, 'mixture'>, ClassGen> = {
  'deep-nesting': (r, bytes) => {
    const el = r.pick(['g', 'svg', 'a', 'switch', 'symbol', 'mask', 'clipPath', 'tspan', 'defs', 'marker']);
    const open = el === 'svg' ? `<svg viewBox="0 0 ${r.pick([1, 10, 100])} ${r.pick([1, 10, 100])}">` : `<${el}>`;
    const close = r.chance(0.3) ? '' : `</${el}>`;
    const depth = Math.max(65, Math.floor((bytes - 120) / (open.length + close.length)));
    return { variant: `${el}${close ? '' : ' unclosed'}`, root: logoRoot(r), inner: open.repeat(depth) + '<rect width="1" height="1"/>' + close.repeat(depth) };
  },
  'name-run': (r, bytes) => {
    const n = Math.max(64, bytes - 80);
    const v = r.pick(['element', 'prefixed', 'closing', 'attr-prefix']);
    if (v === 'element') return { variant: v, inner: `<${run(r, n)}/>` };
    if (v === 'prefixed') return { variant: v, inner: `<${rep('a:', n)}rect/>` };
    if (v === 'closing') return { variant: v, inner: `<g></${run(r, n)}>` };
    return { variant: v, inner: `<rect ${rep('x:', n)}a="1"/>` };
  },
  'attr-name-run': (r, bytes) => {
    const n = Math.max(64, bytes - 60);
    const v = r.pick(['one run', 'one run then =', 'short names', 'names with =', 'mixed chars', 'no tag end', 'child element']);
    const head = `<svg ${NS}`;
    if (v === 'one run') return { variant: v, raw: `${head} ${run(r, n)}></svg>` };
    if (v === 'one run then =') return { variant: v, raw: `${head} ${run(r, n)}="1"></svg>` };
    if (v === 'short names') return { variant: v, raw: `${head}${rep(' ' + run(r, r.int(1, 4)), n)}></svg>` };
    if (v === 'names with =') return { variant: v, raw: `${head}${rep(' a=', n)}></svg>` };
    if (v === 'mixed chars') return { variant: v, raw: `${head} ${run(r, n, 'ab-_.:9')}></svg>` };
    if (v === 'no tag end') return { variant: v, raw: `${head} ${run(r, n)}` };
    return { variant: v, raw: `${head}><rect ${run(r, n)}/></svg>` };
  },
  'value-run': (r, bytes) => {
    const n = Math.max(64, bytes - 120);
    const v = r.pick(['path data', 'style', 'fill', 'transform list', 'url ref', 'points', 'dash array']);
    if (v === 'path data') return { variant: v, root: logoRoot(r), inner: `<path d="M0 0${rep(' L1 1', n)}"/>` };
    if (v === 'style') return { variant: v, root: logoRoot(r), inner: `<rect width="9" height="9" style="${rep('fill:red;', n)}"/>` };
    if (v === 'fill') return { variant: v, root: logoRoot(r), inner: `<rect width="9" height="9" fill="${run(r, n)}"/>` };
    if (v === 'transform list') return { variant: v, root: logoRoot(r), inner: `<rect width="9" height="9" transform="${rep('scale(2)', n)}"/>` };
    if (v === 'url ref') return { variant: v, root: logoRoot(r), inner: `<rect width="9" height="9" fill="url(#${run(r, n)})"/>` };
    if (v === 'points') return { variant: v, root: logoRoot(r), inner: `<polyline points="${rep('1,1 ', n)}"/>` };
    return { variant: v, root: logoRoot(r), inner: `<line x2="9" y2="9" stroke="red" stroke-dasharray="${rep('0.001 ', n)}"/>` };
  },
  'comment-run': (r, bytes) => {
    const n = Math.max(64, bytes - 100);
    const v = r.pick(['dashes', 'text', 'many comments', 'processing instruction', 'double-hyphen']);
    if (v === 'dashes') return { variant: v, inner: `<!--${rep('-', n)}-->` };
    if (v === 'text') return { variant: v, inner: `<!--${run(r, n)}-->` };
    if (v === 'many comments') return { variant: v, inner: rep('<!---->', n) };
    if (v === 'processing instruction') return { variant: v, prolog: `<?xml-stylesheet ${run(r, n)}?>`, inner: '' };
    return { variant: v, inner: `<!--${rep('- -', n)}-->` };
  },
  'cdata-run': (r, bytes) => {
    const n = Math.max(64, bytes - 100);
    const v = r.pick(['brackets', 'text', 'in style', 'many sections']);
    if (v === 'brackets') return { variant: v, inner: `<text><![CDATA[${rep(']', n)}]]></text>` };
    if (v === 'text') return { variant: v, inner: `<text><![CDATA[${run(r, n)}]]></text>` };
    if (v === 'in style') return { variant: v, inner: `<style><![CDATA[${rep('a{}', n)}]]></style>` };
    return { variant: v, inner: `<text>${rep('<![CDATA[a]]>', n)}</text>` };
  },
  'text-run': (r, bytes) => {
    const n = Math.max(64, bytes - 100);
    const v = r.pick(['letters', 'lt entities', 'spaces', 'style rules', 'angle runs']);
    if (v === 'letters') return { variant: v, inner: `<desc>${run(r, n)}</desc>` };
    if (v === 'lt entities') return { variant: v, inner: `<desc>${rep('&lt;', n)}</desc>` };
    if (v === 'spaces') return { variant: v, inner: `<g>${rep(' \n\t', n)}</g>` };
    if (v === 'style rules') return { variant: v, inner: `<style>${rep('*{filter:blur(99px)}', n)}</style>` };
    return { variant: v, inner: `<desc>${rep('>', n)}</desc>` };
  },
  unclosed: (r, bytes) => {
    const n = Math.max(64, bytes - 80);
    const v = r.pick(['double quote', 'single quote', 'comment', 'cdata', 'tag opens', 'open angles', 'doctype', 'root never closed']);
    const head = `<svg ${NS}>`;
    if (v === 'double quote') return { variant: v, raw: `${head}<rect fill="${run(r, n)}` };
    if (v === 'single quote') return { variant: v, raw: `${head}<rect fill='${run(r, n)}></rect></svg>` };
    if (v === 'comment') return { variant: v, raw: `${head}<!--${run(r, n)}</svg>` };
    if (v === 'cdata') return { variant: v, raw: `${head}<text><![CDATA[${run(r, n)}</text></svg>` };
    if (v === 'tag opens') return { variant: v, raw: `${head}${rep('<rect ', n)}</svg>` };
    if (v === 'open angles') return { variant: v, raw: `${head}${rep('<', n)}</svg>` };
    if (v === 'doctype') return { variant: v, raw: `<!DOCTYPE svg [${run(r, n)}${head}</svg>` };
    return { variant: v, raw: `${head}${rep('<g><rect width="1" height="1"/>', n)}` };
  },
  'entity-doctype': (r, bytes) => {
    const v = r.pick(['billion laughs', 'external entity', 'parameter entity', 'many references', 'char refs', 'long entity name', 'huge internal subset']);
    const n = Math.max(64, bytes - 200);
    if (v === 'billion laughs') {
      const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
      return { variant: v, prolog: `<!DOCTYPE svg [<!ENTITY l0 "lol">${levels}]>`, inner: `<text>${rep('&l9;', Math.max(4, n - 600))}</text>` };
    }
    if (v === 'external entity') return { variant: v, prolog: '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>', inner: `<text>${rep('&x;', Math.max(3, n - 80))}</text>` };
    if (v === 'parameter entity') return { variant: v, prolog: `<!DOCTYPE svg [<!ENTITY % p "<!ENTITY e 'x'>">%p;${rep('%p;', Math.max(3, n - 80))}]>`, inner: '<text>&e;</text>' };
    if (v === 'many references') return { variant: v, prolog: '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>', inner: `<text>${rep('&a;', n)}</text>` };
    if (v === 'char refs') return { variant: v, inner: `<text>${rep(r.pick(['&#65;', '&#x10FFFF;', '&#0;', '&#xD800;', '&#99999999;']), n)}</text>` };
    if (v === 'long entity name') return { variant: v, inner: `<text>&${run(r, n)};</text>` };
    return { variant: v, prolog: `<!DOCTYPE svg [${rep('<!ENTITY e "x">', n)}]>`, inner: '' };
  },
  'scaled-filter': (r, bytes) => {
    const prim = r.pick(['feMorphology', 'feGaussianBlur', 'feTurbulence', 'feConvolveMatrix', 'feDropShadow']);
    const k = r.pick([1, 2, 5, 20, 50]);
    const f =
      prim === 'feMorphology'
        ? `<feMorphology radius="${k}"/>`
        : prim === 'feGaussianBlur'
          ? `<feGaussianBlur stdDeviation="${k}"/>`
          : prim === 'feTurbulence'
            ? `<feTurbulence baseFrequency="${r.pick([1, 10, 100])}" numOctaves="${r.pick([8, 10, 30])}"/>`
            : prim === 'feConvolveMatrix'
              ? (() => {
                  const order = r.pick([9, 15, 25]);
                  return `<feConvolveMatrix order="${order}" kernelMatrix="${'1 '.repeat(order * order).trim()}"/>`;
                })()
              : `<feDropShadow dx="0" dy="0" stdDeviation="${k}"/>`;
    const region = r.chance(0.4) ? ' x="-50" y="-50" width="100" height="100"' : '';
    const head = `<filter id="f"${region}>${f}</filter>`;
    const el = '<rect width="1" height="1" filter="url(#f)"/>';
    const count = Math.max(1, Math.floor((bytes - 160 - head.length) / el.length));
    return { variant: `${prim} ${k}${region ? ' wide region' : ''}`, root: `width="1200" height="1200" viewBox="0 0 1 1"`, inner: head + el.repeat(count) };
  },
  'huge-viewbox': (r, bytes) => {
    const vb = r.pick(['0 0 0.001 0.001', '0 0 1 0.0001', '0 0 0.00001 1', '-1e-9 -1e-9 2e-9 2e-9']);
    const paint = r.pick([
      '<circle r="0.5" stroke="red" stroke-width="0.5"/>',
      '<filter id="b"><feGaussianBlur stdDeviation="0.01"/></filter><rect width="1" height="1" filter="url(#b)"/>',
      '<rect width="1" height="1" rx="0.1" stroke="#000" stroke-width="1" stroke-dasharray="0.00001"/>',
    ]);
    const n = Math.max(1, Math.floor((bytes - 150) / paint.length));
    return { variant: vb, root: `width="1200" height="1200" viewBox="${vb}" preserveAspectRatio="none"`, inner: paint.repeat(Math.min(n, 5)) + (n > 5 ? `<!--${'p'.repeat(bytes - 150 - paint.length * 5)}-->` : '') };
  },
  'nested-transform': (r, bytes) => {
    const t = r.pick(['scale(50)', 'scale(10)', 'matrix(100 0 0 100 0 0)', 'scale(1e6)', 'rotate(45) scale(20)']);
    const depth = r.int(2, 12);
    const body = r.pick([
      '<filter id="b"><feGaussianBlur stdDeviation="2"/></filter><rect width="1" height="1" filter="url(#b)"/>',
      '<filter id="m"><feMorphology radius="1"/></filter><circle r="1" filter="url(#m)"/>',
      '<rect width="1" height="1" stroke="red" stroke-width="0.01" stroke-dasharray="0.001"/>',
      '<text font-size="1">transform</text>',
    ]);
    const pad = Math.max(0, bytes - 160 - depth * 40 - body.length);
    return { variant: `${t} x${depth}`, root: logoRoot(r), inner: `<g transform="${t}">`.repeat(depth) + body + '</g>'.repeat(depth) + (pad ? `<desc>${'t'.repeat(pad)}</desc>` : '') };
  },
  'use-fanout': (r, bytes) => {
    const width = r.int(2, 20);
    const levels = r.int(3, 12);
    const attr = r.chance(0.5) ? 'href' : 'xlink:href';
    let defs = `<g id="u0"><rect width="1" height="1"/></g>`;
    for (let i = 1; i <= levels; i++) defs += `<g id="u${i}">${`<use ${attr}="#u${i - 1}"/>`.repeat(width)}</g>`;
    const top = `<use ${attr}="#u${levels}"/>`;
    const copies = Math.max(1, Math.floor((bytes - defs.length - 160) / top.length));
    return { variant: `${width}^${levels}`, root: logoRoot(r), inner: `<defs>${defs}</defs>` + top.repeat(Math.min(copies, 5000)) };
  },
  'pattern-fanout': (r, bytes) => {
    const tile = r.pick(['0.001', '0.01', '0.0001']);
    const nested = r.int(1, 6);
    let defs = `<pattern id="p0" width="${tile}" height="${tile}" patternUnits="userSpaceOnUse"><rect width="${tile}" height="${tile}" fill="red"/></pattern>`;
    for (let i = 1; i <= nested; i++) defs += `<pattern id="p${i}" width="${tile}" height="${tile}" patternUnits="userSpaceOnUse" patternTransform="scale(${r.pick([0.5, 2, 10])})"><rect width="1" height="1" fill="url(#p${i - 1})"/></pattern>`;
    const el = `<rect width="1200" height="1200" fill="url(#p${nested})"/>`;
    const copies = Math.max(1, Math.floor((bytes - defs.length - 160) / el.length));
    return { variant: `tile ${tile} nested ${nested}`, root: logoRoot(r), inner: `<defs>${defs}</defs>` + el.repeat(copies) };
  },
  'gradient-stops': (r, bytes) => {
    const v = r.pick(['linear stops', 'radial repeat', 'href chain']);
    if (v === 'href chain') {
      const unit = '<linearGradient id="gN" href="#gM"/>';
      const n = Math.max(10, Math.floor((bytes - 200) / (unit.length + 6)));
      let s = '<linearGradient id="g0"><stop offset="0" stop-color="red"/><stop offset="1"/></linearGradient>';
      for (let i = 1; i < n; i++) s += `<linearGradient id="g${i}" href="#g${i - 1}"/>`;
      return { variant: `${v} ${n}`, root: logoRoot(r), inner: `<defs>${s}</defs><rect width="100%" height="100%" fill="url(#g${n - 1})"/>` };
    }
    const stop = '<stop offset="0.5" stop-color="#f00"/>';
    const n = Math.max(1000, Math.floor((bytes - 250) / stop.length));
    const grad = v === 'linear stops' ? `<linearGradient id="g">${stop.repeat(n)}</linearGradient>` : `<radialGradient id="g" r="0.0001" spreadMethod="repeat">${stop.repeat(n)}</radialGradient>`;
    return { variant: `${v} ${n}`, root: logoRoot(r), inner: `<defs>${grad}</defs><rect width="100%" height="100%" fill="url(#g)"/>` };
  },
  'giant-text': (r, bytes) => {
    const v = r.pick(['font-size', 'long text', 'many tspans', 'letter-spacing', 'scaled']);
    const n = Math.max(16, bytes - 200);
    if (v === 'font-size') return { variant: v, root: logoRoot(r), inner: `<text font-size="${r.pick(['1e6', '99999', '1e30'])}" y="1">${rep('W', Math.min(n, 4096))}</text>` };
    if (v === 'long text') return { variant: v, root: logoRoot(r), inner: `<text font-size="200" y="200">${run(r, n, 'WM@# ')}</text>` };
    if (v === 'many tspans') return { variant: v, root: logoRoot(r), inner: `<text font-size="100">${rep('<tspan dx="1">W</tspan>', n)}</text>` };
    if (v === 'letter-spacing') return { variant: v, root: logoRoot(r), inner: `<text letter-spacing="1e9" stroke="red" stroke-width="50">${rep('W', Math.min(n, 20000))}</text>` };
    return { variant: v, root: 'width="1200" height="1200" viewBox="0 0 1 1"', inner: `<text font-size="5" stroke="red" stroke-width="2">${rep('W', Math.min(n, 50000))}</text>` };
  },
  'element-count': (r, bytes) => {
    const v = r.pick(['rects', 'paths', 'circles with stroke', 'one long path']);
    const n = Math.max(16, bytes - 150);
    if (v === 'rects') return { variant: v, root: logoRoot(r), inner: rep('<rect width="1" height="1"/>', n) };
    if (v === 'paths') return { variant: v, root: logoRoot(r), inner: rep('<path d="M0 0h9v9z"/>', n) };
    if (v === 'circles with stroke') return { variant: v, root: logoRoot(r), inner: rep('<circle r="600" stroke="red" stroke-width="99" fill="none"/>', n) };
    return { variant: v, root: logoRoot(r), inner: `<path d="M0 0${rep(' c1 1 2 2 3 3', n)}" stroke="red"/>` };
  },
  'embedded-image': (r, bytes) => {
    const v = r.pick(['huge PNG header', '1-bit PNG bomb', 'many images', 'nested SVG', 'external href', 'huge image box']);
    if (v === 'huge PNG header') {
      const side = r.pick([65_535, 100_000, 1_000_000, 0x7fffffff]);
      const uri = `data:image/png;base64,${pngHeaderOnly(side, side).toString('base64')}`;
      const el = `<image width="1200" height="1200" href="${uri}"/>`;
      return { variant: `${v} ${side}`, root: logoRoot(r), inner: el.repeat(Math.max(1, Math.floor((bytes - 150) / el.length))) };
    }
    if (v === '1-bit PNG bomb') {
      // the bomb's size follows the target: 4,000 px a side is about 2 KB, 30,000 px about 110 KB
      const side = bytes > 200_000 ? 30_000 : bytes > 20_000 ? 12_000 : 4_000;
      const uri = `data:image/png;base64,${pngBomb(side).toString('base64')}`;
      const el = `<image width="1200" height="1200" href="${uri}"/>`;
      return { variant: `${v} ${side}`, root: logoRoot(r), inner: el.repeat(Math.max(1, Math.floor((bytes - 150) / el.length))) };
    }
    if (v === 'many images') {
      const uri = `data:image/png;base64,${pngHeaderOnly(4000, 4000).toString('base64')}`;
      const el = `<image width="9" height="9" href="${uri}"/>`;
      return { variant: v, root: logoRoot(r), inner: el.repeat(Math.max(1, Math.floor((bytes - 150) / el.length))) };
    }
    if (v === 'nested SVG') {
      const innerSvg = `<svg ${NS} width="1200" height="1200" viewBox="0 0 1 1"><filter id="f"><feMorphology radius="20"/></filter><rect width="1" height="1" filter="url(#f)"/>${'<g>'.repeat(Math.max(10, Math.floor((bytes * 0.7 - 400) / 7)))}</svg>`;
      return { variant: v, root: logoRoot(r), inner: `<image width="1200" height="1200" href="data:image/svg+xml;base64,${Buffer.from(innerSvg).toString('base64')}"/>` };
    }
    if (v === 'external href') {
      const href = r.pick(['http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd', 'http://127.0.0.1:1/', '//example.com/x.png']);
      const el = `<image width="1200" height="1200" href="${href}"/>`;
      return { variant: v, root: logoRoot(r), inner: el.repeat(Math.max(1, Math.floor((bytes - 150) / el.length))) };
    }
    const uri = `data:image/png;base64,${pngHeaderOnly(8, 8).toString('base64')}`;
    return { variant: v, root: 'width="1200" height="1200" viewBox="0 0 1 1"', inner: `<image width="1e6" height="1e6" preserveAspectRatio="none" href="${uri}"/>${bytes > 500 ? `<desc>${'i'.repeat(bytes - 500)}</desc>` : ''}` };
  },
};

function assemble(p: Parts): string {
  if (p.raw !== undefined) return p.raw;
  return `${p.prolog ?? ''}<svg ${NS}${p.root ? ' ' + p.root : ''}>${p.inner ?? ''}</svg>`;
}

const MIXABLE = (Object.keys(GENERATORS) as Array<Exclude<AttackClass, 'mixture'>>).filter((c) => !['attr-name-run', 'unclosed'].includes(c));

function generate(cls: AttackClass, r: Rng, bytes: number): { variant: string; text: string } {
  if (cls !== 'mixture') {
    const p = GENERATORS[cls](r, bytes);
    return { variant: p.variant, text: assemble(p) };
  }
  // two to four classes' bodies in one file, under the first one's root and prolog
  const n = r.int(2, 4);
  const picks = Array.from({ length: n }, () => r.pick(MIXABLE));
  const parts = picks.map((c) => GENERATORS[c](r, Math.max(250, Math.floor(bytes / n))));
  const withRoot = parts.find((p) => p.root) ?? parts[0];
  const text = `${parts.find((p) => p.prolog)?.prolog ?? ''}<svg ${NS}${withRoot.root ? ' ' + withRoot.root : ''}>${parts.map((p) => p.inner ?? '').join('')}</svg>`;
  return { variant: picks.join(' + '), text };
}

/** The corpus member `index` of `seed` (deterministic). Classes take turns, sizes are drawn. */
export function hostileSvg(seed: number, index: number): HostileSvg {
  const r = rng(mix(seed, index));
  const cls = ATTACK_CLASSES[index % ATTACK_CLASSES.length];
  const { variant, text } = generate(cls, r, targetSize(r));
  return { seed, index, cls, variant, svg: Buffer.from(text, 'utf8') };
}

/** One SVG of a given class at about `bytes` bytes (the tests' named sizes). */
export function hostileSvgOf(cls: AttackClass, seed: number, bytes: number): HostileSvg {
  const r = rng(mix(seed, 0x7fff));
  const { variant, text } = generate(cls, r, bytes);
  return { seed, index: -1, cls, variant, svg: Buffer.from(text, 'utf8') };
}

/** The same grammar for fast-check: a seed and a size, shrinking towards small files. */
export function hostileSvgArb(cls: AttackClass, sizes: { min?: number; max?: number } = {}): fc.Arbitrary<HostileSvg> {
  return fc
    .record({ seed: fc.integer({ min: 0, max: 0x7fffffff }), bytes: fc.integer({ min: sizes.min ?? 250, max: sizes.max ?? SVG_CAP_BYTES + 4096 }) })
    .map(({ seed, bytes }) => hostileSvgOf(cls, seed, bytes));
}

/** The corpus seed: HOSTILE_SEED when set, otherwise a fresh one (printed by the callers). */
export function corpusSeed(): number {
  const s = process.env.HOSTILE_SEED;
  return s && /^\d+$/.test(s) ? Number(s) >>> 0 : (Math.random() * 0x7fffffff) >>> 0;
}

// ---------------------------------------------------------------- named instances from the report

/** The report's signed-out file: one run of attribute-name characters with no `=` in the root tag. */
export function attrNameRunSvg(bytes: number): Buffer {
  const head = '<svg xmlns="http://www.w3.org/2000/svg" ';
  const tail = '></svg>';
  return Buffer.from(head + 'a'.repeat(Math.max(1, bytes - head.length - tail.length)) + tail);
}

/** The report's 253-byte signed-in logo: viewBox 0 0 1 1 drawn at 1200 px with feMorphology radius 20 (24,000 px). */
export function scaledMorphologyLogo(): Buffer {
  const base =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1 1"><defs><filter id="m"><feMorphology operator="dilate" radius="20"/></filter></defs><rect x="0" y="0" width="1" height="1" fill="#000" filter="url(#m)"/></svg>';
  // padded to the report's 253 bytes with an id
  const pad = 253 - Buffer.byteLength(base);
  return Buffer.from(pad > 6 ? base.replace('<svg ', `<svg id="${'l'.repeat(pad - 6)}" `) : base);
}
