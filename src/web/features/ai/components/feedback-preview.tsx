import { contrastRatio, isHexColor, roundRatio, wcagLevel } from '#shared/ai/color';
import { Badge } from '#web/components/ui/badge';
import { fontStack } from './fonts';
import type { FeedbackForm } from './feedback-form';

/** The text-on-background contrast ratio and its WCAG level, measured as the colours are typed. */
export function LiveContrast({ a, b }: { a: string; b: string }) {
  if (!isHexColor(a) || !isHexColor(b)) return null;
  const r = roundRatio(contrastRatio(a, b));
  const level = wcagLevel(r);
  return (
    <p className="text-xs text-muted-foreground" data-testid="live-contrast">
      Text contrast <span className="font-semibold tabular-nums text-foreground">{r.toFixed(2)}:1</span>{' '}
      <Badge variant={level === 'Fail' ? 'red' : level === 'AA Large' ? 'yellow' : 'green'} className="px-1.5 py-0 text-[10px]">
        {level}
      </Badge>
    </p>
  );
}

/** A sketch of the described card: colours, fonts and details as typed. */
export function DesignSketch({ f }: { f: FeedbackForm }) {
  const ok = (c: string, d: string) => (isHexColor(c) ? c : d);
  const heading = f.fonts[0] ?? 'Inter';
  const detail = f.fonts[f.fonts.length - 1] ?? heading;
  const accent = f.accents.find(isHexColor);
  return (
    <div
      // the card's lines may end in an ellipsis on a phone: its name carries them whole (issue 37)
      aria-label={['Design preview', f.info.fullName, [f.info.jobTitle, f.info.companyName].filter(Boolean).join(' · '), f.info.email, f.info.phone, f.info.website, f.info.address].filter(Boolean).join(': ')}
      role="img"
      className="flex aspect-[1.75] w-full max-w-sm flex-col justify-between overflow-hidden rounded-xl p-5 shadow-lg"
      style={{ backgroundColor: ok(f.background, '#000000'), color: ok(f.text, '#FFFFFF') }}
    >
      <div className="min-w-0">
        <p className="truncate text-xl font-semibold" style={{ fontFamily: fontStack(heading) }}>
          {f.info.fullName || 'Your Name'}
        </p>
        <p className="truncate text-sm opacity-90" style={{ fontFamily: fontStack(detail) }}>
          {f.info.jobTitle || 'Job Title'}
          {f.info.companyName ? ` · ${f.info.companyName}` : ''}
        </p>
      </div>
      {accent ? <div className="h-0.5 w-12" style={{ backgroundColor: accent }} /> : null}
      <div className="space-y-0.5 text-[11px]" style={{ fontFamily: fontStack(detail) }}>
        {[f.info.email, f.info.phone, f.info.website, f.info.address].filter(Boolean).map((l) => (
          <p key={l} className="truncate">
            {l}
          </p>
        ))}
      </div>
    </div>
  );
}
