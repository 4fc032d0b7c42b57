import { PROFILE_LAYOUT_INFO, type ProfileLayout } from '#shared/schemas/profile';

/**
 * Contrast checks for the profile editor (issue 37 item 1, decision 37-04): WCAG 2.x relative
 * luminance and contrast ratio, and whether a logo stands out from the header it sits on. A logo
 * is a graphic, so the bar is WCAG AA's 3:1 for non-text contrast (1.4.11); text needs 4.5:1.
 */
export const AA_GRAPHIC = 3;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function parseHex(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

export function relativeLuminance(hex: string): number {
  const rgb = parseHex(hex);
  if (!rgb) return 0;
  const [r, g, b] = rgb.map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colours of each layout's header (its gradient's stops), as PROFILE_CSS paints them. */
export const LAYOUT_HEADER_COLOURS: Record<ProfileLayout, string[]> = {
  classic: ['#1e3a8a', '#2563eb', '#60a5fa'],
  modern: ['#7c3aed', '#c026d3', '#ec4899'],
  minimal: ['#ffffff'],
  creative: ['#f97316', '#f43f5e', '#ec4899'],
  corporate: ['#111827'],
};

/** Which logo a layout shows on its header: the banner logo (Classic, Modern), the company logo (Corporate), or none. */
export function headerLogoOf(layout: ProfileLayout): 'bannerLogoUrl' | 'logoUrl' | null {
  if (layout === 'classic' || layout === 'modern') return 'bannerLogoUrl';
  if (layout === 'corporate') return 'logoUrl';
  return null;
}

/**
 * The warning for a logo of this tone (its visible pixels' average colour) on the layout's header
 * (a team member's page: the team's primary colour), or null when it stands out at 3:1 or more
 * against every colour of the header.
 */
export function logoContrastWarning(layout: ProfileLayout, logoTone: string, opts: { which: 'bannerLogoUrl' | 'logoUrl'; headerColour?: string }): string | null {
  const colours = opts.headerColour ? [opts.headerColour] : LAYOUT_HEADER_COLOURS[layout];
  const ratios = colours.map((c) => contrastRatio(logoTone, c));
  const worst = Math.min(...ratios);
  if (worst >= AA_GRAPHIC) return null;
  // advise the direction that can reach the bar on this header: towards white or towards black
  const towards = (end: string) => Math.min(...colours.map((c) => contrastRatio(end, c)));
  const lighter = towards('#ffffff') >= towards('#000000');
  const what = opts.which === 'bannerLogoUrl' ? 'banner logo' : 'company logo';
  return `Your ${what} is hard to see on the ${PROFILE_LAYOUT_INFO[layout].label} header (contrast ${worst.toFixed(1)}:1, at least ${AA_GRAPHIC}:1 is needed). Use a ${lighter ? 'lighter' : 'darker'} logo, one with a transparent background, or another style.`;
}
