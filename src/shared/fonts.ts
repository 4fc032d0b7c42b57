/**
 * The fonts bundled with the product (TTF files from @expo-google-fonts/* packages).
 * Card templates may use these families; the server renders cards with exactly these files
 * (so a card looks the same on every machine) and serves them at `/fonts/{file}` for web pages.
 * Pure data: no Node or DOM APIs.
 */

export interface BundledFontFace {
  weight: number;
  style: 'normal' | 'italic';
  /** file name served at /fonts/{file} */
  file: string;
}

export interface BundledFont {
  family: string;
  /** CSS generic fallback */
  generic: 'sans-serif' | 'serif' | 'monospace';
  /** npm package holding the TTF files */
  pkg: string;
  weights: number[];
  faces: BundledFontFace[];
  /** what it suits, for people and the design assistant */
  use: string;
}

const WEIGHT_DIR: Record<number, string> = {
  100: '100Thin',
  200: '200ExtraLight',
  300: '300Light',
  400: '400Regular',
  500: '500Medium',
  600: '600SemiBold',
  700: '700Bold',
  800: '800ExtraBold',
  900: '900Black',
};

/** "Inter", 700, "normal" -> "Inter_700Bold.ttf" (the package's own naming) */
export function fontFileName(family: string, weight: number, style: 'normal' | 'italic' = 'normal'): string {
  return `${family.replace(/\s+/g, '')}_${WEIGHT_DIR[weight]}${style === 'italic' ? '_Italic' : ''}.ttf`;
}

/** Folder inside the npm package that holds a face's file ("700Bold", "400Regular_Italic"). */
export function fontFileDir(weight: number, style: 'normal' | 'italic' = 'normal'): string {
  return `${WEIGHT_DIR[weight]}${style === 'italic' ? '_Italic' : ''}`;
}

function font(family: string, generic: BundledFont['generic'], pkg: string, weights: number[], use: string, italic: number[] = []): BundledFont {
  const faces: BundledFontFace[] = [
    ...weights.map((weight) => ({ weight, style: 'normal' as const, file: fontFileName(family, weight) })),
    ...italic.map((weight) => ({ weight, style: 'italic' as const, file: fontFileName(family, weight, 'italic') })),
  ];
  return { family, generic, pkg, weights, faces, use };
}

export const BUNDLED_FONTS: BundledFont[] = [
  font('Inter', 'sans-serif', '@expo-google-fonts/inter', [300, 400, 500, 600, 700], 'Neutral, highly legible sans-serif for contact details and modern layouts'),
  font('Playfair Display', 'serif', '@expo-google-fonts/playfair-display', [400, 600, 700], 'High-contrast serif for names on classic, luxurious cards', [400]),
  font('Montserrat', 'sans-serif', '@expo-google-fonts/montserrat', [300, 400, 500, 600, 700], 'Geometric sans-serif for bold, confident names and headings'),
  font('JetBrains Mono', 'monospace', '@expo-google-fonts/jetbrains-mono', [400, 500], 'Monospace for technical roles and data-style details'),
];

export const DEFAULT_FONT_FAMILY = 'Inter';

export function bundledFont(family: string): BundledFont | undefined {
  const f = family.trim().replace(/^['"]|['"]$/g, '').toLowerCase();
  return BUNDLED_FONTS.find((b) => b.family.toLowerCase() === f);
}

/** The bundled face closest to a wanted weight/style (CSS matching, simplified). */
export function closestFace(fontDef: BundledFont, weight: number, style: 'normal' | 'italic' = 'normal'): BundledFontFace {
  const pool = fontDef.faces.filter((f) => f.style === style);
  const faces = pool.length ? pool : fontDef.faces;
  let best = faces[0];
  for (const f of faces) if (Math.abs(f.weight - weight) < Math.abs(best.weight - weight)) best = f;
  return best;
}

/** CSS @font-face rules pointing at /fonts/{file} (for pages that show font samples or card previews). */
export function fontFaceCss(prefix = '/fonts/'): string {
  return BUNDLED_FONTS.flatMap((f) =>
    f.faces.map(
      (face) =>
        `@font-face{font-family:'${f.family}';font-style:${face.style};font-weight:${face.weight};font-display:swap;src:url('${prefix}${face.file}') format('truetype')}`,
    ),
  ).join('\n');
}
