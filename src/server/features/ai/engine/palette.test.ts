import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INDUSTRIES, MOODS, COLOR_ROLES } from '#shared/schemas/ai';
import { contrastRatio, roundRatio } from '#shared/ai/color';
import { generateColorPalette } from './palette';

const byRole = (p: ReturnType<typeof generateColorPalette>, role: string) => p.colors.find((c) => c.role === role)!;

describe('colour palettes', () => {
  it('are deterministic', () => {
    const a = generateColorPalette({ baseColor: '#0A2540', mood: 'Professional', industry: 'Finance' });
    const b = generateColorPalette({ baseColor: '#0A2540', mood: 'Professional', industry: 'Finance' });
    expect(a).toEqual(b);
  });

  it('keep a chromatic base colour as the primary and a black base as the card background', () => {
    const orange = generateColorPalette({ baseColor: '#ff5500', mood: 'Bold', industry: 'Marketing' });
    expect(byRole(orange, 'primary').hex).toBe('#FF5500');
    const black = generateColorPalette({ baseColor: '#000000', mood: 'Professional', industry: 'Finance' });
    expect(byRole(black, 'background').hex).toBe('#000000');
  });

  it('follow the industry: finance gets a gold accent, healthcare a teal-green primary', () => {
    const fin = generateColorPalette({ baseColor: '#000000', mood: 'Professional', industry: 'Finance' });
    const accentHue = byRole(fin, 'accent').oklch.h;
    expect(accentHue).toBeGreaterThan(70);
    expect(accentHue).toBeLessThan(110);
    const health = generateColorPalette({ baseColor: '#000000', mood: 'Calm', industry: 'Healthcare' });
    const h = byRole(health, 'primary').oklch.h;
    expect(h).toBeGreaterThan(150);
    expect(h).toBeLessThan(230);
  });

  it('differ by mood: calm is light and soft, bold is dark and saturated', () => {
    const calm = generateColorPalette({ baseColor: '#3366CC', mood: 'Calm', industry: 'Technology' });
    const bold = generateColorPalette({ baseColor: '#3366CC', mood: 'Bold', industry: 'Technology' });
    expect(byRole(calm, 'background').oklch.l).toBeGreaterThan(0.9);
    expect(byRole(bold, 'background').oklch.l).toBeLessThan(0.25);
    expect(byRole(bold, 'accent').oklch.c).toBeGreaterThan(byRole(calm, 'accent').oklch.c);
    expect(calm.harmony).not.toBe(bold.harmony);
  });

  it('are valid for every base colour, mood and industry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), fc.constantFrom(...MOODS), fc.constantFrom(...INDUSTRIES), (n, mood, industry) => {
        const baseColor = '#' + n.toString(16).padStart(6, '0');
        const p = generateColorPalette({ baseColor, mood, industry });
        expect(p.colors.map((c) => c.role)).toEqual([...COLOR_ROLES]);
        for (const c of p.colors) {
          expect(c.hex).toMatch(/^#[0-9A-F]{6}$/);
          // the figures shown are the real WCAG ratios
          expect(c.contrastOnWhite).toBe(roundRatio(contrastRatio(c.hex, '#FFFFFF')));
          expect(c.contrastOnBlack).toBe(roundRatio(contrastRatio(c.hex, '#000000')));
          expect(c.textOn).toBe(c.contrastOnBlack >= c.contrastOnWhite ? '#000000' : '#FFFFFF');
        }
        const bg = byRole(p, 'background').hex;
        expect(contrastRatio(byRole(p, 'text').hex, bg)).toBeGreaterThanOrEqual(7);
        expect(contrastRatio(byRole(p, 'accent').hex, bg)).toBeGreaterThanOrEqual(3);
        expect(contrastRatio(byRole(p, 'secondary').hex, bg)).toBeGreaterThanOrEqual(3);
        expect(p.finishes).toHaveLength(12);
        for (const f of p.finishes) {
          expect(f.legible).toBe(f.contrast >= 4.5);
          expect(p.colors.some((c) => c.hex === f.textColor)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('check legibility on the metal finishes', () => {
    // a dark palette: light text; on titanium that light text fails, so a dark palette colour is recommended
    const p = generateColorPalette({ baseColor: '#000000', mood: 'Professional', industry: 'Finance' });
    const blackMatte = p.finishes.find((f) => f.cardType === 'standard' && f.style === 'Matte')!;
    expect(blackMatte.textRole).toBe('text');
    expect(blackMatte.legible).toBe(true);
    const titanium = p.finishes.find((f) => f.cardType === 'luxury_titanium' && f.style === 'Matte')!;
    expect(titanium.textRole).not.toBe('text');
    expect(contrastRatio(titanium.textColor, titanium.surface)).toBeGreaterThan(contrastRatio(byRole(p, 'text').hex, titanium.surface));
    // a mirror finish spreads the tones: its worst case is lower than matte's
    const blackMirror = p.finishes.find((f) => f.cardType === 'standard' && f.style === 'Mirror')!;
    expect(blackMirror.contrast).toBeLessThan(blackMatte.contrast);
    // Color Metal is printed: the text is checked against the palette's own background
    const color = p.finishes.find((f) => f.cardType === 'color' && f.style === 'Matte')!;
    expect(color.surface).toBe(byRole(p, 'background').hex);
  });
});
