import { describe, expect, it } from 'vitest';
import { qrMatrix } from '#shared/qr/qr-svg';
import { effectiveDpi, elementsCheck, imageResolutionCheck, measureQuietZone, missingElements, qrContrastCheck, qrDecodeCheck, qrModuleCheck, quietZoneCheck, safeAreaCheck, sameUrl } from './checks';
import { inkAmount, printFinish, qrOutlines, qrPath, rgbToCmyk } from './artwork';
import { PAGE, cropMarks, pdfBox } from './geometry';

describe('print geometry', () => {
  it('trim 3.5 x 2 in with a 0.125 in bleed, crop marks outside the bleed', () => {
    expect(pdfBox(PAGE.trim)).toEqual([27, 27, 279, 171]);
    expect(pdfBox(PAGE.bleed)).toEqual([18, 18, 288, 180]);
    for (const [x1, y1, x2, y2] of cropMarks()) {
      const outside = (x: number, y: number) => x < PAGE.bleed.x || x > PAGE.bleed.x + PAGE.bleed.width || y < PAGE.bleed.y || y > PAGE.bleed.y + PAGE.bleed.height;
      expect(outside(x1, y1) && outside(x2, y2)).toBe(true);
    }
  });
});

describe('print check rules', () => {
  it('QR decode: ok only when the print raster opens the expected URL', () => {
    expect(qrDecodeCheck({ expectedUrl: 'https://x.test/p/a', decoded: 'https://x.test/p/a/', hasQr: true }).status).toBe('ok');
    expect(qrDecodeCheck({ expectedUrl: 'https://x.test/p/a', decoded: 'https://x.test/p/b', hasQr: true }).status).toBe('fail');
    expect(qrDecodeCheck({ expectedUrl: 'https://x.test/p/a', decoded: null, hasQr: true }).status).toBe('fail');
    expect(qrDecodeCheck({ expectedUrl: null, decoded: null, hasQr: false }).status).toBe('fail');
    expect(qrDecodeCheck({ expectedUrl: 'https://x.test/p/a', decoded: null, hasQr: false }).figure).toBe('no QR code');
    expect(sameUrl('https://X.test/c/AB', 'https://x.test/c/AB')).toBe(true);
    expect(sameUrl('http://x.test/c/AB', 'https://x.test/c/AB')).toBe(false);
  });

  it('module size against the setting', () => {
    expect(qrModuleCheck(0.51, 0.5)).toMatchObject({ status: 'ok', figure: '0.51 mm (minimum 0.50 mm)' });
    expect(qrModuleCheck(0.5, 0.5).status).toBe('ok');
    expect(qrModuleCheck(0.49, 0.5).status).toBe('fail');
    expect(qrModuleCheck(0.4949, 0.5)).toMatchObject({ status: 'fail', figure: '0.49 mm (minimum 0.50 mm)' }); // the verdict agrees with the figure
    expect(qrModuleCheck(null, 0.5).status).toBe('fail');
  });

  it('quiet zone: 4 modules ok, anything the figure shows under 4 or unmeasured a failure (issue 36)', () => {
    expect(quietZoneCheck(4).status).toBe('ok');
    expect(quietZoneCheck(3.96).status).toBe('ok'); // shown as 4.0
    expect(quietZoneCheck(3.8).status).toBe('fail');
    expect(quietZoneCheck(3.8).figure).toBe('3.8 modules (minimum 4)');
    expect(quietZoneCheck(3.94).status).toBe('fail'); // shown as 3.9
    expect(quietZoneCheck(3).status).toBe('fail');
    expect(quietZoneCheck(1.5).status).toBe('fail');
    expect(quietZoneCheck(null).status).toBe('fail');
  });

  it('text must stay 0.125 in (37.5 units) inside the trim', () => {
    expect(safeAreaCheck([{ side: 'front', text: 'Jane', bounds: { minX: 80, minY: 100, maxX: 300, maxY: 140 } }]).status).toBe('ok');
    const out = safeAreaCheck([{ side: 'back', text: 'Too close', bounds: { minX: 20, minY: 100, maxX: 300, maxY: 140 } }]);
    expect(out.status).toBe('fail');
    expect(out.message).toContain('"Too close" (back)');
    expect(out.figure).toBe('1 outside by up to 1.48 mm');
  });

  it('images under 300 DPI at print size fail (issue 35: a value outside its limit is never a tick or a mere warning)', () => {
    expect(imageResolutionCheck([]).status).toBe('ok');
    expect(imageResolutionCheck([{ side: 'front', dpi: 600 }]).status).toBe('ok');
    expect(imageResolutionCheck([{ side: 'front', dpi: 299.6 }])).toMatchObject({ status: 'ok', figure: '300 DPI lowest (minimum 300)' });
    expect(imageResolutionCheck([{ side: 'front', dpi: 299.4 }])).toMatchObject({ status: 'fail', figure: '299 DPI lowest (minimum 300)' });
    const low = imageResolutionCheck([{ side: 'front', dpi: 600 }, { side: 'back', dpi: 150 }]);
    expect(low.status).toBe('fail');
    expect(low.figure).toBe('150 DPI lowest (minimum 300)');
    expect(low.message).toContain('150 DPI on the back');
    // 300 px over 1 inch (300 card units) is 300 DPI
    expect(effectiveDpi(300, 300, 300, 300)).toBe(300);
    expect(effectiveDpi(150, 300, 300, 300)).toBe(150);
  });

  it('QR contrast: under 40% fails, judged on the percentage shown (issue 35)', () => {
    expect(qrContrastCheck(0.95)).toMatchObject({ status: 'ok', figure: '95% (minimum 40%)' });
    expect(qrContrastCheck(0.396)).toMatchObject({ status: 'ok', figure: '40% (minimum 40%)' });
    expect(qrContrastCheck(0.39)).toMatchObject({ status: 'fail', figure: '39% (minimum 40%)' });
    expect(qrContrastCheck(null).status).toBe('fail');
  });

  it('elements: every text, logo and QR code of the preview must be in the print file (issue 35)', () => {
    const preview = ['Grace Hopper', 'Rear Admiral', 'logo', 'QR code'];
    expect(elementsCheck([{ side: 'front', preview, print: ['Rear Admiral', 'Grace Hopper', 'logo', 'QR code'] }])).toMatchObject({ status: 'ok', figure: '4 of 4 elements' });
    const noLogo = elementsCheck([{ side: 'front', preview, print: ['Grace Hopper', 'Rear Admiral', 'GH', 'QR code'] }]);
    expect(noLogo).toMatchObject({ status: 'fail', figure: '3 of 4 elements' });
    expect(noLogo.message).toContain('"logo (front)"');
    // a repeated element counts twice
    expect(missingElements({ side: 'back', preview: ['logo', 'logo'], print: ['logo'] })).toEqual(['logo']);
  });

  it('measures the clear margin around a code on a raster', () => {
    // a 100 x 100 raster, white, with a dark 40 px "code" in the middle (29 px from its right edge to the raster edge), then a dark line 12 px above it
    const w = 100;
    const g = new Uint8Array(w * w).fill(255);
    for (let y = 30; y < 70; y++) for (let x = 30; x < 70; x++) g[y * w + x] = 0;
    expect(measureQuietZone(g, w, w, { x0: 30, y0: 30, x1: 70, y1: 70 }, 4, 255)).toBe(7.3);
    for (let x = 0; x < w; x++) g[18 * w + x] = 0;
    expect(measureQuietZone(g, w, w, { x0: 30, y0: 30, x1: 70, y1: 70 }, 4, 255)).toBeCloseTo(2.8, 1);
  });
});

describe('print artwork', () => {
  it('ink amount: the metal is 0, the engraving 1, on bright and dark engraving', () => {
    const std = printFinish('standard');
    expect(inkAmount([11, 11, 12], std)).toBe(0);
    expect(inkAmount([228, 230, 232], std)).toBeCloseTo(1, 2);
    const ti = printFinish('luxury_titanium');
    expect(inkAmount([20, 21, 23], ti)).toBeCloseTo(1, 2);
    expect(inkAmount([165, 167, 171], ti)).toBeCloseTo(0, 2);
    expect(rgbToCmyk([0, 0, 0])).toEqual([0, 0, 0, 1]);
    expect(rgbToCmyk([255, 0, 0])).toEqual([0, 1, 1, 0]);
  });

  it('traces the dark modules as closed outlines (no seams) that cover exactly the dark modules', () => {
    const m = qrMatrix('https://cards.test/p/abc', 'M');
    const loops = qrOutlines(m);
    // even-odd point-in-polygon over all loops equals the matrix at every module centre
    const inside = (px: number, py: number) => {
      let c = false;
      for (const loop of loops) {
        for (let i = 0, j = loop.length - 1; i < loop.length; j = i++) {
          const [xi, yi] = loop[i];
          const [xj, yj] = loop[j];
          if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) c = !c;
        }
      }
      return c;
    };
    for (let r = 0; r < m.length; r++) for (let c = 0; c < m.length; c++) expect(inside(c + 0.5, r + 0.5)).toBe(m[r][c]);
    expect(qrPath(m, { x: 0, y: 0 }, 1, 'light', 4).startsWith('M -4 -4 L')).toBe(true);
  });
});
