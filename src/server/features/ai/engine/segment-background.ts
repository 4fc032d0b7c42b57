
/**
 * Background removal for flat and near-flat backgrounds (logos, product shots, studio photos),
 * on raw RGBA pixels:
 *
 * 1. Convert to OKLab (perceptual distances).
 * 2. Estimate the background from the image border: cluster the border pixels; the clusters that
 *    cover enough of the border are the background colours, each with a tolerance taken from its
 *    own noise.
 * 3. Flood fill from the border through pixels close to a background colour; a pixel a little
 *    further away is still taken when it differs only slightly from the pixel it was reached from,
 *    which follows the soft gradients of a studio sweep.
 * 4. Enclosed flat regions of the background colour (the inside of an "O" in a logo) are removed
 *    too, when they are large and flat enough.
 * 5. Soft, anti-aliased edges: along the boundary, alpha comes from projecting each pixel's colour
 *    on the line between the background colour and the nearby subject colour, and the background's
 *    tint is taken out of the edge colour (no halo on a new background).
 *
 * Pure computation on typed arrays (no I/O); `yieldEvery` lets the caller give the event loop a
 * turn between phases.
 */

export interface SegmentOptions {
  /** border band width as a share of the shorter side (default 1%, at least 1 px) */
  borderShare?: number;
  /** called between phases (e.g. () => new Promise(setImmediate)) */
  pause?: () => Promise<void>;
}

export interface SegmentResult {
  /** RGBA with the new alpha and decontaminated edge colours */
  rgba: Uint8Array;
  /** share of pixels made fully or partly transparent, 0..1 */
  backgroundShare: number;
  /** the main background colour found, as #RRGGBB */
  backgroundColor: string;
  /** share of the border covered by the background clusters, 0..1 */
  borderCoverage: number;
}

export class SegmentError extends Error {
  constructor(
    message: string,
    public readonly reason: 'busy-background' | 'no-subject' | 'no-background',
  ) {
    super(message);
  }
}

const LIN = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  LIN[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

interface Cluster {
  L: number;
  a: number;
  b: number;
  r: number;
  g: number;
  bl: number;
  n: number;
  /** mean distance of members to the centre */
  spread: number;
  tol: number;
}

const noPause = async () => {};

export async function segmentBackground(rgba: Uint8Array, width: number, height: number, opts: SegmentOptions = {}): Promise<SegmentResult> {
  const pause = opts.pause ?? noPause;
  const N = width * height;
  if (N === 0 || rgba.length < N * 4) throw new Error('bad image buffer');

  // ---- 1. OKLab per pixel ----
  const Lc = new Float32Array(N);
  const Ac = new Float32Array(N);
  const Bc = new Float32Array(N);
  for (let i = 0, p = 0; i < N; i++, p += 4) {
    const r = LIN[rgba[p]];
    const g = LIN[rgba[p + 1]];
    const b = LIN[rgba[p + 2]];
    const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    Lc[i] = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
    Ac[i] = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
    Bc[i] = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  }
  await pause();

  // ---- 2. background colours from the border ----
  const band = Math.max(1, Math.round(Math.min(width, height) * (opts.borderShare ?? 0.01)));
  const border: number[] = [];
  for (let y = 0; y < height; y++) {
    const inBandY = y < band || y >= height - band;
    if (inBandY) for (let x = 0; x < width; x++) border.push(y * width + x);
    else {
      for (let x = 0; x < band; x++) border.push(y * width + x);
      for (let x = width - band; x < width; x++) border.push(y * width + x);
    }
  }
  const opaqueBorder = border.filter((i) => rgba[i * 4 + 3] >= 16);
  const transparentBorder = border.length - opaqueBorder.length;

  const clusters: Cluster[] = [];
  const JOIN = 0.05;
  // sample at most ~4000 border pixels (evenly) to build the clusters
  const step = Math.max(1, Math.floor(opaqueBorder.length / 4000));
  for (let k = 0; k < opaqueBorder.length; k += step) {
    const i = opaqueBorder[k];
    let best = -1;
    let bestD = JOIN;
    for (let c = 0; c < clusters.length; c++) {
      const cl = clusters[c];
      const d = d3(Lc[i] - cl.L, Ac[i] - cl.a, Bc[i] - cl.b);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    if (best < 0) {
      if (clusters.length >= 24) continue;
      clusters.push({ L: Lc[i], a: Ac[i], b: Bc[i], r: 0, g: 0, bl: 0, n: 0, spread: 0, tol: 0 });
      best = clusters.length - 1;
    }
    const cl = clusters[best];
    cl.n++;
    // running mean keeps the centre on the cluster's real colour
    cl.L += (Lc[i] - cl.L) / cl.n;
    cl.a += (Ac[i] - cl.a) / cl.n;
    cl.b += (Bc[i] - cl.b) / cl.n;
  }
  const sampled = clusters.reduce((s, c) => s + c.n, 0);
  clusters.sort((x, y) => y.n - x.n);
  const bg = clusters.filter((c, idx) => idx < 4 && c.n >= sampled * 0.08);
  const covered = bg.reduce((s, c) => s + c.n, 0);
  const opaqueShare = border.length ? opaqueBorder.length / border.length : 0;
  const borderCoverage = (sampled ? covered / sampled : 0) * opaqueShare + (border.length ? transparentBorder / border.length : 0);

  if (opaqueShare > 0.05 && (bg.length === 0 || covered < sampled * 0.55)) {
    throw new SegmentError('Could not find a plain background in this image. Background removal works on logos and photos with a plain, even background.', 'busy-background');
  }

  // spread and colour of each background cluster, from all its border members
  const sums = bg.map(() => ({ d: 0, r: 0, g: 0, b: 0, n: 0 }));
  for (const i of opaqueBorder) {
    let best = -1;
    let bestD = Infinity;
    for (let c = 0; c < bg.length; c++) {
      const d = d3(Lc[i] - bg[c].L, Ac[i] - bg[c].a, Bc[i] - bg[c].b);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    if (best >= 0 && bestD < JOIN * 1.5) {
      const s = sums[best];
      s.d += bestD;
      s.r += rgba[i * 4];
      s.g += rgba[i * 4 + 1];
      s.b += rgba[i * 4 + 2];
      s.n++;
    }
  }
  for (let c = 0; c < bg.length; c++) {
    const s = sums[c];
    const n = Math.max(1, s.n);
    bg[c].spread = s.d / n;
    bg[c].r = s.r / n;
    bg[c].g = s.g / n;
    bg[c].bl = s.b / n;
    bg[c].tol = Math.min(0.11, Math.max(0.04, bg[c].spread * 3 + 0.025));
  }

  // normalised distance to the nearest background colour (1 = at the tolerance) and which one
  const dist = new Float32Array(N);
  const nearest = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    let best = Infinity;
    let which = 0;
    for (let c = 0; c < bg.length; c++) {
      const cl = bg[c];
      const d = d3(Lc[i] - cl.L, Ac[i] - cl.a, Bc[i] - cl.b) / cl.tol;
      if (d < best) {
        best = d;
        which = c;
      }
    }
    dist[i] = bg.length ? best : Infinity;
    nearest[i] = which;
  }
  await pause();

  // ---- 3. flood fill from the border ----
  // mask: 0 subject, 1 background
  const mask = new Uint8Array(N);
  const queue = new Int32Array(N);
  let head = 0;
  let tail = 0;
  const isClear = (i: number) => rgba[i * 4 + 3] < 16;
  for (const i of border) {
    if (mask[i]) continue;
    if (dist[i] <= 1 || isClear(i)) {
      mask[i] = 1;
      queue[tail++] = i;
    }
  }
  const STEP = 0.012;
  const FAR = 2.2;
  while (head < tail) {
    const i = queue[head++];
    const x = i % width;
    const y = (i - x) / width;
    for (let k = 0; k < 4; k++) {
      let j: number;
      if (k === 0) {
        if (x === 0) continue;
        j = i - 1;
      } else if (k === 1) {
        if (x === width - 1) continue;
        j = i + 1;
      } else if (k === 2) {
        if (y === 0) continue;
        j = i - width;
      } else {
        if (y === height - 1) continue;
        j = i + width;
      }
      if (mask[j]) continue;
      const dj = dist[j];
      let take = dj <= 1 || isClear(j);
      if (!take && dj <= FAR) {
        // gentle gradient: close to the pixel we came from
        take = d3(Lc[j] - Lc[i], Ac[j] - Ac[i], Bc[j] - Bc[i]) < STEP;
      }
      if (take) {
        mask[j] = 1;
        queue[tail++] = j;
      }
    }
  }
  await pause();

  // ---- 4. enclosed flat regions of the background colour ----
  const minHole = Math.max(48, Math.round(N * 0.0004));
  const seen = new Uint8Array(N);
  for (let s0 = 0; s0 < N; s0++) {
    if (mask[s0] || seen[s0] || dist[s0] > 0.6) continue;
    // collect the component of tight background-coloured pixels
    head = 0;
    tail = 0;
    queue[tail++] = s0;
    seen[s0] = 1;
    let sumD = 0;
    while (head < tail) {
      const i = queue[head++];
      sumD += dist[i];
      const x = i % width;
      const y = (i - x) / width;
      for (let k = 0; k < 4; k++) {
        const j = k === 0 ? (x > 0 ? i - 1 : -1) : k === 1 ? (x < width - 1 ? i + 1 : -1) : k === 2 ? (y > 0 ? i - width : -1) : y < height - 1 ? i + width : -1;
        if (j < 0 || seen[j] || mask[j] || dist[j] > 0.6) continue;
        seen[j] = 1;
        queue[tail++] = j;
      }
    }
    if (tail >= minHole && sumD / tail <= 0.35) {
      for (let k = 0; k < tail; k++) mask[queue[k]] = 1;
    }
  }
  await pause();

  // ---- 5. alpha with soft edges ----
  // the edge band: background pixels touching the subject (3), subject pixels touching the
  // background (1) and the next ring inside (2); anti-aliased pixels live there
  const edge = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const x = i % width;
    const y = (i - x) / width;
    const m = mask[i];
    if ((x > 0 && mask[i - 1] !== m) || (x < width - 1 && mask[i + 1] !== m) || (y > 0 && mask[i - width] !== m) || (y < height - 1 && mask[i + width] !== m)) {
      edge[i] = m ? 3 : 1;
    }
  }
  for (let i = 0; i < N; i++) {
    if (mask[i] || edge[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    if ((x > 0 && edge[i - 1] === 1) || (x < width - 1 && edge[i + 1] === 1) || (y > 0 && edge[i - width] === 1) || (y < height - 1 && edge[i + width] === 1)) edge[i] = 2;
  }
  const out = new Uint8Array(rgba.length);
  out.set(rgba);
  let bgCount = 0;
  let subjectCount = 0;
  for (let i = 0; i < N; i++) {
    if (!mask[i]) subjectCount++;
    if (edge[i]) {
      const x = i % width;
      edgeAlpha(i, x, (i - x) / width);
    } else if (mask[i]) {
      out[i * 4 + 3] = 0;
      bgCount++;
    }
  }

  function edgeAlpha(i: number, x: number, y: number) {
    const p = i * 4;
    const cl = bg[nearest[i]];
    // the subject colour nearby: the neighbour (radius 2, subject side) furthest from the background
    let fr = -1;
    let fg = 0;
    let fb = 0;
    let far = -1;
    for (let dy = -2; dy <= 2; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= height) continue;
      for (let dx = -2; dx <= 2; dx++) {
        const xx = x + dx;
        if (xx < 0 || xx >= width) continue;
        const j = yy * width + xx;
        if (mask[j]) continue;
        if (dist[j] > far) {
          far = dist[j];
          fr = rgba[j * 4];
          fg = rgba[j * 4 + 1];
          fb = rgba[j * 4 + 2];
        }
      }
    }
    let alpha: number;
    if (fr < 0) alpha = 0;
    else {
      const vx = fr - cl.r;
      const vy = fg - cl.g;
      const vz = fb - cl.bl;
      const len2 = vx * vx + vy * vy + vz * vz;
      if (len2 < 64) alpha = mask[i] ? 0 : 1;
      else {
        alpha = ((rgba[p] - cl.r) * vx + (rgba[p + 1] - cl.g) * vy + (rgba[p + 2] - cl.bl) * vz) / len2;
        // sensor noise on flat areas gives tiny partial values: snap them
        alpha = alpha < 0.04 ? 0 : alpha > 0.96 ? 1 : alpha;
      }
      if (alpha > 0.02 && alpha < 0.98) {
        // take the background's tint out of the edge colour
        out[p] = clamp255(cl.r + (rgba[p] - cl.r) / alpha);
        out[p + 1] = clamp255(cl.g + (rgba[p + 1] - cl.g) / alpha);
        out[p + 2] = clamp255(cl.bl + (rgba[p + 2] - cl.bl) / alpha);
      }
    }
    out[p + 3] = Math.round(alpha * rgba[p + 3]);
    if (alpha < 0.5) bgCount++;
  }

  const backgroundShare = bgCount / N;
  if (subjectCount < N * 0.002 || backgroundShare > 0.995) {
    throw new SegmentError('The image looks empty: no subject was found in front of the background.', 'no-subject');
  }
  if (backgroundShare < 0.005 && transparentBorder === 0) {
    throw new SegmentError('Could not find a plain background in this image. Background removal works on logos and photos with a plain, even background.', 'no-background');
  }
  const main = bg[0];
  const hex = main ? '#' + [main.r, main.g, main.bl].map((v) => Math.round(v).toString(16).padStart(2, '0').toUpperCase()).join('') : '#000000';
  return { rgba: out, backgroundShare, backgroundColor: hex, borderCoverage };
}

function d3(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}

function clamp255(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}
