import type { CardTypeId } from '#shared/catalogue';
import { CARD_FINISHES, CARD_FONT_FAMILIES, LOGO_SCALE_MAX, LOGO_SCALE_MIN, allowedAccent, type LogoPosition } from '#shared/templates/look';
import type { CardLookInput } from '#shared/schemas/templates';
import { Label, Select } from '#web/components/ui/input';
import { cn } from '#web/lib/utils';

const POSITIONS: Array<{ value: LogoPosition; label: string }> = [
  { value: 'template', label: "The template's place" },
  { value: 'left', label: 'Left' },
  { value: 'center', label: 'Center' },
  { value: 'right', label: 'Right' },
];

/**
 * The card's look within what its card type can produce (issue 20): the metal is the card type's;
 * the name's colour only where it can be printed or anodized; a bundled font for name and company;
 * the logo's place and size. The preview and the rendered files use the same choices.
 */
export function LookPicker({ cardType, look, onChange }: { cardType: CardTypeId; look: CardLookInput; onChange: (next: CardLookInput) => void }) {
  const finish = CARD_FINISHES[cardType];
  const accent = allowedAccent(cardType, look.accent) ?? finish.accents[0];
  const set = (patch: Partial<CardLookInput>) => onChange({ ...look, ...patch });
  return (
    <div className="space-y-5" data-testid="look-picker">
      <p className="text-sm text-muted-foreground" data-testid="finish-summary">
        {finish.summary}.
      </p>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Name colour</legend>
        <div role="radiogroup" aria-label="Name colour" className="flex flex-wrap items-center gap-2">
          {finish.accents.map((c) => (
            <button
              key={c}
              type="button"
              role="radio"
              aria-checked={accent === c}
              aria-label={c === finish.accents[0] ? `${c} (the ${cardType === 'color' ? 'print' : 'engraving'} colour)` : c}
              onClick={() => set({ accent: c === finish.accents[0] ? null : c })}
              className={cn('size-8 cursor-pointer rounded-full border border-border', accent === c && 'ring-2 ring-gold ring-offset-2 ring-offset-background')}
              style={{ backgroundColor: c }}
            />
          ))}
          {cardType === 'color' ? (
            <label className="flex items-center gap-2 text-xs text-muted-foreground">
              <input type="color" aria-label="Any colour" value={accent} onChange={(e) => set({ accent: e.target.value.toLowerCase() })} className="h-8 w-10 cursor-pointer rounded border border-border bg-transparent" />
              Any colour
            </label>
          ) : null}
        </div>
        <p className="text-xs text-muted-foreground">{finish.accentNote}</p>
      </fieldset>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="look-font">Font for name and company</Label>
          <Select id="look-font" value={look.font ?? ''} onChange={(e) => set({ font: e.target.value || null })}>
            <option value="">The template's font</option>
            {CARD_FONT_FAMILIES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="look-logo-position">Logo position</Label>
          <Select id="look-logo-position" value={look.logoPosition ?? 'template'} onChange={(e) => set({ logoPosition: e.target.value === 'template' ? null : (e.target.value as LogoPosition) })}>
            {POSITIONS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor="look-logo-size">Logo size: {Math.round((look.logoScale ?? 1) * 100)}%</Label>
          <input
            id="look-logo-size"
            type="range"
            min={LOGO_SCALE_MIN}
            max={LOGO_SCALE_MAX}
            step={0.1}
            value={look.logoScale ?? 1}
            onChange={(e) => set({ logoScale: Number(e.target.value) === 1 ? null : Number(e.target.value) })}
            className="w-full accent-[var(--color-gold,#d4af37)]"
          />
        </div>
      </div>
      <p className="text-xs text-muted-foreground">Light weights are engraved at regular weight: hairlines do not hold on metal.</p>
    </div>
  );
}

/** `/design?accent=%23hex&font=Name` (the AI assistant's "Apply to my card"): the look it asks for. */
export function lookFromParams(params: URLSearchParams): CardLookInput {
  const accent = params.get('accent');
  const font = params.get('font');
  return {
    accent: accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent.toLowerCase() : null,
    font: font && CARD_FONT_FAMILIES.includes(font) ? font : null,
  };
}
