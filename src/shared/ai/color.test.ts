import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { colorName, contrastRatio, hexToOklch, isHexColor, normalizeHex, oklchToHex, relativeLuminance, roundRatio, wcagLevel } from './color';

describe('hex parsing', () => {
  it('normalises short and long forms', () => {
    expect(normalizeHex('#abc')).toBe('#AABBCC');
    expect(normalizeHex(' #0a2540 ')).toBe('#0A2540');
  });
  it('refuses other formats', () => {
    for (const bad of ['red', '#12345', '#GGGGGG', 'rgb(0,0,0)', '000000', '#1234567', '']) expect(isHexColor(bad)).toBe(false);
    expect(() => normalizeHex('red')).toThrow();
  });
});

describe('WCAG contrast', () => {
  // reference figures from the WCAG definition (as published by common contrast checkers)
  const known: Array<[string, string, number]> = [
    ['#000000', '#FFFFFF', 21],
    ['#767676', '#FFFFFF', 4.54],
    ['#777777', '#FFFFFF', 4.47],
    ['#FF0000', '#FFFFFF', 3.99],
    ['#0000FF', '#FFFFFF', 8.59],
    ['#FF0000', '#000000', 5.25],
    ['#FFFFFF', '#FFFFFF', 1],
  ];
  for (const [a, b, ratio] of known) {
    it(`${a} on ${b} is ${ratio}:1`, () => {
      expect(roundRatio(contrastRatio(a, b))).toBe(ratio);
      expect(roundRatio(contrastRatio(b, a))).toBe(ratio);
    });
  }
  it('luminance of the extremes', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBeCloseTo(1, 10);
  });
  it('levels', () => {
    expect(wcagLevel(7)).toBe('AAA');
    expect(wcagLevel(4.5)).toBe('AA');
    expect(wcagLevel(4.49)).toBe('AA Large');
    expect(wcagLevel(2.99)).toBe('Fail');
  });
  it('rounds down so a failing ratio never shows as passing', () => {
    expect(roundRatio(4.4999)).toBe(4.49);
  });
});

describe('OKLCH', () => {
  it('matches the reference values for sRGB red', () => {
    const o = hexToOklch('#FF0000');
    expect(o.l).toBeCloseTo(0.628, 3);
    expect(o.c).toBeCloseTo(0.2577, 3);
    expect(o.h).toBeCloseTo(29.23, 1);
  });
  it('round-trips every sRGB colour within one step per channel', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const hex = '#' + n.toString(16).padStart(6, '0').toUpperCase();
        const back = oklchToHex(hexToOklch(hex));
        for (let i = 1; i < 7; i += 2) expect(Math.abs(parseInt(back.slice(i, i + 2), 16) - parseInt(hex.slice(i, i + 2), 16))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });
  it('maps out-of-gamut colours into sRGB keeping lightness', () => {
    const hex = oklchToHex({ l: 0.7, c: 0.4, h: 150 });
    expect(isHexColor(hex)).toBe(true);
    expect(hexToOklch(hex).l).toBeCloseTo(0.7, 2);
  });
  it('names colours', () => {
    expect(colorName('#000000')).toBe('Black');
    expect(colorName('#FFFFFF')).toBe('White');
    expect(colorName('#1A2B4C')).toBe('Navy');
  });
});
