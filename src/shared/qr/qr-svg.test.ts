import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { qrMatrix, qrSvg, qrSvgGroup, QR_STYLES } from './qr-svg';
import { decodeQrSvg } from '#tests/helpers/qr-decode';

const URL_TEXT = 'https://cards.example.com/p/ab3kx9mqz2';

describe('qrSvg', () => {
  for (const style of QR_STYLES) {
    it(`style ${style} decodes back to the text`, () => {
      const svg = qrSvg(URL_TEXT, { style });
      expect(svg.startsWith('<svg')).toBe(true);
      expect(decodeQrSvg(svg)).toBe(URL_TEXT);
    });
    it(`style ${style} decodes a long URL at error correction H`, () => {
      const long = `${URL_TEXT}?utm_source=metal-card&utm_medium=qr&utm_campaign=${'x'.repeat(120)}`;
      expect(decodeQrSvg(qrSvg(long, { style }), 800)).toBe(long);
    });
  }

  it('every style decodes arbitrary profile-like URLs at the 200 px default size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...QR_STYLES),
        fc.stringMatching(/^[a-z0-9]{4,40}$/),
        (style, id) => {
          const text = `https://example.com/p/${id}`;
          expect(decodeQrSvg(qrSvg(text, { style }), 200)).toBe(text);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('uses the spec defaults: 200 px, black on white, margin 2, error correction H', () => {
    const svg = qrSvg('hello');
    expect(svg).toContain('width="200" height="200"');
    expect(svg).toContain('fill="#ffffff"');
    expect(svg).toContain('fill="#000000"');
    const count = qrMatrix('hello', 'H').length;
    expect(svg).toContain(`viewBox="0 0 ${count + 4} ${count + 4}"`);
    // H holds less than L: the same text needs at least as many modules
    expect(count).toBeGreaterThanOrEqual(qrMatrix('hello', 'L').length);
  });

  it('circular style has no margin by default and the given margin otherwise', () => {
    const a = qrSvg('hello', { style: 'circular' });
    const b = qrSvg('hello', { style: 'circular', margin: 3 });
    const total = (svg: string) => Number(/viewBox="0 0 ([\d.]+)/.exec(svg)![1]);
    expect(total(b) - total(a)).toBe(6);
  });

  it('honours size and colours, and refuses colours that could break the markup', () => {
    const svg = qrSvg('hello', { size: 180, fg: '#112233', bg: '#fafafa' });
    expect(svg).toContain('width="180"');
    expect(svg).toContain('#112233');
    expect(() => qrSvg('hello', { fg: '"/><script>' })).toThrow();
    expect(decodeQrSvg(qrSvg('hello', { fg: '#112233', bg: '#fafafa' }))).toBe('hello');
  });

  it('refuses empty text and text too long for a QR code', () => {
    expect(() => qrSvg('')).toThrow();
    expect(() => qrSvg('x'.repeat(3000))).toThrow();
  });

  it('qrSvgGroup embeds into another SVG (on a dark card) and still decodes', () => {
    for (const style of QR_STYLES) {
      const g = qrSvgGroup(URL_TEXT, { x: 700, y: 200, size: 240, style, margin: 2 });
      expect(g.startsWith('<g transform="translate(700 200)')).toBe(true);
      const card = `<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600" viewBox="0 0 1050 600"><rect width="1050" height="600" fill="#000"/>${g}</svg>`;
      expect(decodeQrSvg(card, 1050)).toBe(URL_TEXT);
    }
  });

  it('white on black (inverted) still decodes for the standard style', () => {
    // jsQR tries inverted images too; our renderer must keep the geometry intact
    const svg = qrSvg(URL_TEXT, { fg: '#ffffff', bg: '#000000' });
    expect(svg).toContain('fill="#000000"');
    expect(decodeQrSvg(svg)).toBe(URL_TEXT);
  });
});
