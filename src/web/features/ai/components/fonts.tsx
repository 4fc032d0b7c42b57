import { useEffect } from 'react';
import { BUNDLED_FONTS, fontFaceCss } from '#shared/fonts';
import type { FontRecommendation } from '#shared/schemas/ai';
import { Badge } from '#web/components/ui/badge';
import { Link } from 'react-router';
import { designWithLookPath } from '#shared/routes';

const STYLE_ID = 'bundled-font-faces';

/** Adds @font-face rules for the bundled fonts (served at /fonts/{file}); files load only when used. */
export function useBundledFontFaces() {
  useEffect(() => {
    if (document.getElementById(STYLE_ID)) return;
    const style = document.createElement('style');
    style.id = STYLE_ID;
    style.textContent = fontFaceCss('/fonts/');
    document.head.appendChild(style);
  }, []);
}

export function fontStack(family: string): string {
  const generic = BUNDLED_FONTS.find((f) => f.family === family)?.generic ?? 'sans-serif';
  return `'${family}', ${generic}`;
}

/** A recommended font, shown in that font: the user's own company name and role as the sample. */
export function FontSample({ font, sample, detail }: { font: FontRecommendation; sample: string; detail: string }) {
  return (
    <li className="rounded-lg border border-border bg-card p-4" data-testid="font-sample" data-family={font.family}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-semibold">{font.family}</h4>
        <Badge variant="outline">{font.use}</Badge>
      </div>
      <div className="mt-3 space-y-1 overflow-hidden rounded-md bg-black px-4 py-3 text-white">
        {font.weights.map((w) => (
          <p key={w} className="truncate text-2xl leading-snug" style={{ fontFamily: fontStack(font.family), fontWeight: w }} data-testid="font-sample-text">
            {sample}
          </p>
        ))}
        <p className="truncate text-sm opacity-80" style={{ fontFamily: fontStack(font.family), fontWeight: font.weights[0] ?? 400 }}>
          {detail}
        </p>
      </div>
      <p className="mt-2 text-xs text-muted-foreground">Weights {font.weights.join(', ')}</p>
      <p className="mt-2 text-sm">{font.reason}</p>
      {BUNDLED_FONTS.some((b) => b.family === font.family) ? (
        <Link to={designWithLookPath({ font: font.family })} className="mt-2 inline-block text-sm font-medium text-gold underline underline-offset-4" data-testid="apply-font">
          Use this font on my card
        </Link>
      ) : null}
    </li>
  );
}
