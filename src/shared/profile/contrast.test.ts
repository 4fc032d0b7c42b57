import { describe, expect, it } from 'vitest';
import { PROFILE_LAYOUTS } from '#shared/schemas/profile';
import { contrastRatio, headerLogoOf, logoContrastWarning, relativeLuminance } from './contrast';

describe('contrast (WCAG 2.x)', () => {
  it('computes luminance and ratios as WCAG defines them', () => {
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 5);
    expect(relativeLuminance('#000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#777777')).toBeCloseTo(contrastRatio('#777777', '#ffffff'), 10);
  });

  it('warns about a dark logo on the dark Corporate header and a light one on Minimal, not the reverse', () => {
    const dark = logoContrastWarning('corporate', '#1f2937', { which: 'logoUrl' });
    expect(dark).toMatch(/^Your company logo is hard to see on the Corporate header \(contrast 1\.\d:1, at least 3:1 is needed\)\. Use a lighter logo/);
    expect(logoContrastWarning('corporate', '#ffffff', { which: 'logoUrl' })).toBeNull();
    expect(logoContrastWarning('minimal', '#f9fafb', { which: 'bannerLogoUrl' })).toMatch(/Use a darker logo/);
    // a gradient header: the logo must stand out against each of its colours
    expect(logoContrastWarning('classic', '#ffffff', { which: 'bannerLogoUrl' })).toMatch(/banner logo is hard to see on the Classic header/);
    expect(logoContrastWarning('classic', '#000000', { which: 'bannerLogoUrl' })).toMatch(/Classic/);
    // a team's header colour replaces the layout's
    expect(logoContrastWarning('classic', '#ffffff', { which: 'bannerLogoUrl', headerColour: '#0b3d2e' })).toBeNull();
  });

  it('knows which logo each layout puts on its header', () => {
    expect(PROFILE_LAYOUTS.map(headerLogoOf)).toEqual(['bannerLogoUrl', 'bannerLogoUrl', null, null, 'logoUrl']);
  });
});
