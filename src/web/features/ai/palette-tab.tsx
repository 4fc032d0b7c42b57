import { useState } from 'react';
import { Check, Palette, X } from 'lucide-react';
import { ApplyToCard } from '#web/features/ai/components/apply-to-card';
import { INDUSTRIES, MOODS, AiPaletteCreateBody, type ColorPaletteResponse } from '#shared/schemas/ai';
import { isHexColor, normalizeHex } from '#shared/ai/color';
import { withArticle } from '#shared/ai/words';
import { FormField, Input } from '#web/components/ui/input';
import { toast } from '#web/lib/toast';
import { aiFailure, useColorPalette } from './api';
import { AiFormCard, AiSubmitButton, ChoiceSelect, ResultPlaceholder, ResultSection } from '#web/features/ai/components/form-parts';
import { SwatchGrid } from '#web/features/ai/components/swatch';
import { validateAndShow } from './validate';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A colour picker and its hex text field, kept in step. */
export function HexColorInput({ id, value, onChange, invalid, label }: { id: string; value: string; onChange: (v: string) => void; invalid?: boolean; label: string }) {
  const pickerValue = isHexColor(value) ? normalizeHex(value).toLowerCase() : '#000000';
  return (
    <div className="flex gap-2">
      <input
        type="color"
        aria-label={`${label} picker`}
        value={pickerValue}
        onChange={(e) => onChange(e.target.value.toUpperCase())}
        className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
      />
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={invalid} maxLength={9} className="font-mono" spellCheck={false} />
    </div>
  );
}

export function PaletteTab() {
  const [values, setValues] = useState({ baseColor: '#000000', mood: '', industry: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ColorPaletteResponse | null>(null);
  const m = useColorPalette();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!validateAndShow(AiPaletteCreateBody, values, setErrors).ok) return;
    m.mutate(values, {
      onSuccess: (data) => {
        setResult(data);
        toast({ title: 'Color palette generated!', description: `${capitalize(withArticle(data.mood.toLowerCase()))} palette for ${data.industry === 'Other' ? 'your brand' : data.industry.toLowerCase()}.` });
      },
      onError: aiFailure('Error generating colors', setErrors),
    });
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <AiFormCard
        title="Palette settings"
        description="Harmonies are built in a perceptual colour space and checked for contrast on every metal finish."
        className="self-start"
        formLabel="Color palette"
        formClassName="space-y-4"
        onSubmit={submit}
      >
        <FormField id="p-base" label="Base Color" error={errors.baseColor} hint="Your brand colour; black (#000000) suits our metal cards">
          <HexColorInput id="p-base" label="Base Color" value={values.baseColor} onChange={(baseColor) => setValues((v) => ({ ...v, baseColor }))} invalid={!!errors.baseColor} />
        </FormField>
        <FormField id="p-mood" label="Mood" required error={errors.mood}>
          <ChoiceSelect id="p-mood" value={values.mood} onChange={(e) => setValues((v) => ({ ...v, mood: e.target.value }))} aria-invalid={!!errors.mood} placeholder="Select a mood" choices={MOODS} />
        </FormField>
        <FormField id="p-industry" label="Industry" required error={errors.industry}>
          <ChoiceSelect id="p-industry" value={values.industry} onChange={(e) => setValues((v) => ({ ...v, industry: e.target.value }))} aria-invalid={!!errors.industry} placeholder="Select your industry" choices={INDUSTRIES} />
        </FormField>
        <AiSubmitButton pending={m.isPending} icon={Palette} label="Generate Palette" pendingLabel="Generating..." spinnerLabel="Generating" />
      </AiFormCard>

      <div className="space-y-6 lg:col-span-2" aria-live="polite">
        {result ? (
          <PaletteResult data={result} />
        ) : (
          <ResultPlaceholder icon={Palette}>
            Pick a mood and an industry to generate a palette with hex codes, WCAG contrast and a legibility check on each metal finish.
          </ResultPlaceholder>
        )}
      </div>
    </div>
  );
}

function PaletteResult({ data }: { data: ColorPaletteResponse }) {
  const bg = data.colors.find((c) => c.role === 'background')!;
  const text = data.colors.find((c) => c.role === 'text')!;
  const primary = data.colors.find((c) => c.role === 'primary')!;
  const accent = data.colors.find((c) => c.role === 'accent')!;
  return (
    <div className="space-y-6" data-testid="palette-result">
      <p className="text-sm text-muted-foreground">{data.description}</p>
      <SwatchGrid colors={data.colors} />

      <ResultSection id="pl-preview" title="On a card">
        <div className="flex aspect-[1.75] max-w-sm flex-col justify-between rounded-xl p-6 shadow-lg" style={{ backgroundColor: bg.hex, color: text.hex }}>
          <div>
            <p className="text-xl font-semibold" style={{ color: primary.hex === bg.hex ? text.hex : primary.hex }}>
              Alexandra Reed
            </p>
            <p className="text-sm opacity-90">Creative Director</p>
          </div>
          <div className="h-0.5 w-12" style={{ backgroundColor: accent.hex }} />
          <p className="text-xs">alex@northwind.studio · +1 (212) 555-0182</p>
        </div>
        {/* on a metal card the metal is the ground: every palette colour is a candidate for the name */}
        <ApplyToCard colours={data.colors.map((c) => ({ hex: c.hex, name: c.name }))} testId="apply-palette" />
      </ResultSection>

      <ResultSection id="pl-finishes" title="Legibility on metal finishes" headingSpacing="mb-1">
        <p className="mb-3 text-sm text-muted-foreground">Worst-case contrast of the best palette colour for text, in the finish's darkest and brightest light (AA needs 4.5:1).</p>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[44rem] text-left text-sm" data-testid="finish-table">
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th className="py-2 pr-3 font-medium">Card</th>
                <th className="py-2 pr-3 font-medium">Finish</th>
                <th className="py-2 pr-3 font-medium">Text colour</th>
                <th className="py-2 pr-3 font-medium">Contrast</th>
                <th className="py-2 font-medium">Note</th>
              </tr>
            </thead>
            <tbody>
              {data.finishes.map((f) => (
                <tr key={`${f.cardType}-${f.style}`} className="border-t border-border align-top">
                  <td className="py-2 pr-3 whitespace-nowrap">{f.cardTypeLabel}</td>
                  <td className="py-2 pr-3">
                    <span className="inline-flex items-center gap-2">
                      <span aria-hidden="true" className="inline-block h-4 w-8 rounded border border-border" style={{ background: `linear-gradient(90deg, ${f.surfaceRange[0]}, ${f.surface}, ${f.surfaceRange[1]})` }} />
                      {f.style}
                    </span>
                  </td>
                  <td className="py-2 pr-3">
                    <span className="inline-flex items-center gap-1.5 font-mono text-xs">
                      <span aria-hidden="true" className="inline-block size-3 rounded-full border border-border" style={{ backgroundColor: f.textColor }} />
                      {f.textColor}
                    </span>
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
                    <span className="inline-flex items-center gap-1">
                      {f.legible ? <Check aria-label="Legible" className="size-4 text-green-600" /> : <X aria-label="Not legible" className="size-4 text-red-600" />}
                      {f.contrast.toFixed(2)}:1
                    </span>
                  </td>
                  <td className="py-2 text-xs text-muted-foreground">{f.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ResultSection>
    </div>
  );
}
