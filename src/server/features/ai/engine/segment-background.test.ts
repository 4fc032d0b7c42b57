import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { busyImage, logoImage } from '#tests/helpers/ai-images';
import { decodeRgba } from '#server/features/ai/image-codec';
import { segmentBackground, SegmentError } from './segment-background';

async function segment(img: Buffer) {
  const { rgba, width, height } = await decodeRgba(img);
  const res = await segmentBackground(rgba, width, height);
  const at = (x: number, y: number) => {
    const p = (Math.round(y) * width + Math.round(x)) * 4;
    return [res.rgba[p], res.rgba[p + 1], res.rgba[p + 2], res.rgba[p + 3]];
  };
  return { res, at, width, height };
}

describe('background removal (local algorithm)', () => {
  it('removes a flat background and keeps the subject, including holes inside it', async () => {
    const { res, at, width: w, height: h } = await segment(await logoImage({ width: 800, height: 600 }));
    for (const [x, y] of [[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1], [w * 0.1, h * 0.5], [w * 0.55, h * 0.1]]) expect(at(x, y)[3]).toBe(0);
    // the ring's hole shows the background: transparent too
    expect(at(w * 0.39, h * 0.5)[3]).toBe(0);
    // the subject is kept, opaque and in its own colour
    expect(at(w * 0.39, h * 0.5 - h * 0.19)).toEqual([0xc0, 0x39, 0x2b, 255]);
    expect(at(w * 0.76, h * 0.5)).toEqual([0x1f, 0x3a, 0x93, 255]);
    expect(at(w * 0.76, h * 0.81)[3]).toBe(255);
    expect(res.backgroundColor).toBe('#F2F2F2');
    expect(res.backgroundShare).toBeGreaterThan(0.6);
    expect(res.backgroundShare).toBeLessThan(0.9);
  });

  it('follows a near-flat studio background (gradient, noise, JPEG)', async () => {
    const img = await logoImage({ width: 1024, height: 768, background: ['#F6F6F6', '#D2D2D2'], noise: 4, format: 'jpeg' });
    const { at, width: w, height: h } = await segment(img);
    let clear = 0;
    let total = 0;
    // a grid over the background area left of the ring
    for (let y = 10; y < h - 10; y += 37) {
      for (let x = 5; x < w * 0.1; x += 11) {
        total++;
        if (at(x, y)[3] === 0) clear++;
      }
    }
    expect(clear / total).toBeGreaterThan(0.97);
    expect(at(w * 0.39, h * 0.5 - h * 0.19)[3]).toBe(255);
    expect(at(w * 0.76, h * 0.5)[3]).toBe(255);
  });

  it('gives soft, anti-aliased edges without a halo', async () => {
    const { at, width: w, height: h } = await segment(await logoImage({ width: 800, height: 600 }));
    // walk from the background into the ring along its top edge
    const x = Math.round(w * 0.39);
    const top = Math.round(h * 0.5 - h * 0.26);
    const alphas: number[] = [];
    for (let y = top - 4; y <= top + 4; y++) alphas.push(at(x, y)[3]);
    expect(alphas[0]).toBe(0);
    expect(alphas[alphas.length - 1]).toBe(255);
    for (let i = 1; i < alphas.length; i++) expect(alphas[i]).toBeGreaterThanOrEqual(alphas[i - 1]);
    // the ring's outline (outer and inner edge) is anti-aliased: partly transparent pixels
    const r = h * 0.26;
    let partial = 0;
    for (let y = 0; y < h; y++) {
      for (let xx = 0; xx < w * 0.6; xx++) {
        const px = at(xx, y);
        if (px[3] === 0 || px[3] === 255) continue;
        const d = Math.hypot(xx - w * 0.39, y - h * 0.5);
        if (d < r * 0.4 || d > r * 1.05) continue;
        partial++;
        // the edge keeps the subject's red: the grey background is taken out (no halo)
        expect(px[0]).toBeGreaterThan(px[1] + 60);
      }
    }
    // about one pixel of soft edge along both circles (2 x pi x (r + 0.45 r))
    expect(partial).toBeGreaterThan(2 * Math.PI * r * 1.45 * 0.5);
  });

  it('refuses a picture with no plain background', async () => {
    const { rgba, width, height } = await decodeRgba(await busyImage(300, 200));
    await expect(segmentBackground(rgba, width, height)).rejects.toMatchObject({ reason: 'busy-background' });
  });

  it('refuses an empty picture (nothing in front of the background)', async () => {
    const flat = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#FFFFFF' } }).png().toBuffer();
    const { rgba, width, height } = await decodeRgba(flat);
    const err = await segmentBackground(rgba, width, height).catch((e) => e);
    expect(err).toBeInstanceOf(SegmentError);
    expect(err.reason).toBe('no-subject');
  });
});
