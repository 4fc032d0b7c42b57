import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CARD_FINISHES } from './look';
import { MIN_INK, engravingFilter, inkAmount } from './engraving';
import { checkLogoPixels } from './logo-check';

/** A 120 x 80 logo: a blue disc, on white (opaque) or on nothing (transparent); decoded by sharp as the browser's canvas would give it. */
async function logo(opts: { background: 'white' | 'transparent' | 'black'; disc?: string }): Promise<{ px: Buffer; w: number; h: number }> {
  const bg = opts.background === 'transparent' ? '' : `<rect width="120" height="80" fill="${opts.background === 'white' ? '#ffffff' : '#000000'}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">${bg}<circle cx="60" cy="40" r="30" fill="${opts.disc ?? '#1e40af'}"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { px: data, w: info.width, h: info.height };
}

const ids = (f: Array<{ id: string }>) => f.map((x) => x.id).sort();

describe('logo check: what a logo does on the chosen metal (issue 37)', () => {
  it('a blue logo on a white box: an opaque background that engraves as a block, and colours the engraving cannot show', async () => {
    const { px, w, h } = await logo({ background: 'white' });
    const f = checkLogoPixels(px, w, h, 'standard');
    expect(ids(f)).toEqual(['colours-on-engraving', 'opaque-background']);
    expect(f.find((x) => x.id === 'opaque-background')!.message).toMatch(/#ffffff background: on Standard Metal it will be engraved as a solid block/);
  });

  it('the same logo with a transparent background: no background warning; a grey one on transparent: nothing at all', async () => {
    const cut = await logo({ background: 'transparent' });
    expect(ids(checkLogoPixels(cut.px, cut.w, cut.h, 'standard'))).toEqual(['colours-on-engraving']);
    const grey = await logo({ background: 'transparent', disc: '#e0e0e0' });
    expect(checkLogoPixels(grey.px, grey.w, grey.h, 'black_anodized')).toEqual([]);
  });

  it('Color Metal prints colour but no white: the white box is said to show the steel, the colours are fine', async () => {
    const { px, w, h } = await logo({ background: 'white' });
    const f = checkLogoPixels(px, w, h, 'color');
    expect(ids(f)).toEqual(['opaque-background', 'white-on-color-metal']);
    expect(f.find((x) => x.id === 'opaque-background')!.message).toMatch(/left as bare metal/);
  });

  it('titanium engraves dark: a black box is engraved as a block there, a white one is not', async () => {
    const black = await logo({ background: 'black', disc: '#ffffff' });
    expect(checkLogoPixels(black.px, black.w, black.h, 'luxury_titanium').find((x) => x.id === 'opaque-background')!.message).toMatch(/will be engraved as a solid block/);
    const white = await logo({ background: 'white', disc: '#000000' });
    expect(checkLogoPixels(white.px, white.w, white.h, 'luxury_titanium').find((x) => x.id === 'opaque-background')!.message).toMatch(/left as bare metal/);
  });

  it("the preview's filter is the print file's rule: metal under MIN_INK, the engraving's tone at the print tint above", () => {
    const std = CARD_FINISHES.standard;
    const f = engravingFilter('standard');
    expect(f.engraved).toBe(true);
    const red = f.tables[0].split(' ').map(Number);
    // white holds the full engraving; the metal's own tone none
    expect(inkAmount([255, 255, 255], std)).toBe(1);
    expect(red.at(-1)).toBeCloseTo(parseInt(std.ink.slice(1, 3), 16) / 255, 3);
    expect(red[0]).toBeCloseTo(parseInt(std.base.slice(1, 3), 16) / 255, 3);
    // just under MIN_INK is the metal, at MIN_INK it is engraved
    const step = Math.round(MIN_INK * 100);
    expect(red[step - 1]).toBe(red[0]);
    expect(red[step]).toBeGreaterThan(red[0]);
    // the colour matrix row gives the ink amount of a pixel
    const [k, , , , o] = f.amount;
    const blue = [0x1e, 0x40, 0xaf];
    expect(k * (blue[0] + blue[1] + blue[2]) / 255 + o).toBeCloseTo(inkAmount(blue as [number, number, number], std), 6);
    expect(engravingFilter('color').engraved).toBe(false);
  });
});
