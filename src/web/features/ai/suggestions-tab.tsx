import { useState } from 'react';
import { Link } from 'react-router';
import { Lightbulb, Sparkles } from 'lucide-react';
import { BRAND_PERSONALITIES, INDUSTRIES, AiSuggestionCreateBody, type DesignSuggestionsResponse } from '#shared/schemas/ai';
import { Button } from '#web/components/ui/button';
import { FormField, Input } from '#web/components/ui/input';
import { Badge } from '#web/components/ui/badge';
import { ApiError } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { aiErrorText, aiFailure, useDesignSuggestions } from './api';
import { AiFormCard, AiSubmitButton, ChoiceSelect, ResultPlaceholder, ResultSection } from '#web/features/ai/components/form-parts';
import { SwatchGrid } from '#web/features/ai/components/swatch';
import { FontSample } from '#web/features/ai/components/fonts';
import { validateAndShow } from './validate';
import { isHexColor } from '#shared/ai/color';
import { ApplyToCard } from '#web/features/ai/components/apply-to-card';

const EMPTY = { companyName: '', industry: '', role: '', targetAudience: '', brandPersonality: '', existingColors: '' };

export function SuggestionsTab() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ data: DesignSuggestionsResponse; companyName: string; role: string } | null>(null);
  const m = useDesignSuggestions();
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setValues((v) => ({ ...v, [k]: e.target.value }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const body = { ...values, brandPersonality: values.brandPersonality || undefined };
    const v = validateAndShow(AiSuggestionCreateBody, body, setErrors);
    if (!v.ok) return;
    m.mutate(body, {
      onSuccess: (data) => {
        setResult({ data, companyName: v.data.companyName, role: v.data.role });
        toast({ title: 'Design suggestions generated!', description: `Ideas for ${v.data.companyName} are ready below.` });
      },
      // the spec's text for refused input; the server's own message for anything else (busy, limits)
      onError: aiFailure('Error generating suggestions', setErrors, (err) =>
        err instanceof ApiError && err.status !== 400 ? aiErrorText(err) : 'Please check your business information and try again.',
      ),
    });
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
      <AiFormCard
        title="Your business"
        description="Tell us about your brand and get palettes, fonts and layouts for your metal card."
        className="lg:col-span-1 self-start"
        formLabel="Design suggestions"
        formClassName="space-y-4"
        onSubmit={submit}
      >
        <FormField id="s-company" label="Company Name" required error={errors.companyName}>
          <Input id="s-company" value={values.companyName} onChange={set('companyName')} aria-invalid={!!errors.companyName} maxLength={100} autoComplete="organization" />
        </FormField>
        <FormField id="s-industry" label="Industry" required error={errors.industry}>
          <ChoiceSelect id="s-industry" value={values.industry} onChange={set('industry')} aria-invalid={!!errors.industry} placeholder="Select your industry" choices={INDUSTRIES} />
        </FormField>
        <FormField id="s-role" label="Your Role" required error={errors.role}>
          <Input id="s-role" value={values.role} onChange={set('role')} aria-invalid={!!errors.role} placeholder="e.g. Managing Partner" maxLength={100} autoComplete="organization-title" />
        </FormField>
        <FormField id="s-audience" label="Target Audience" error={errors.targetAudience}>
          <Input id="s-audience" value={values.targetAudience} onChange={set('targetAudience')} placeholder="e.g. small business owners" maxLength={200} />
        </FormField>
        <FormField id="s-personality" label="Brand Personality" error={errors.brandPersonality}>
          <ChoiceSelect id="s-personality" value={values.brandPersonality} onChange={set('brandPersonality')} placeholder="Select a personality" choices={BRAND_PERSONALITIES} />
        </FormField>
        <FormField id="s-colors" label="Existing Colors" error={errors.existingColors} hint="Hex codes, separated by commas, e.g. #0A2540, #C9A227">
          <Input id="s-colors" value={values.existingColors} onChange={set('existingColors')} aria-invalid={!!errors.existingColors} placeholder="#0A2540, #C9A227" maxLength={200} />
        </FormField>
        <AiSubmitButton pending={m.isPending} icon={Sparkles} label="Get Design Suggestions" pendingLabel="Generating..." spinnerLabel="Generating" />
      </AiFormCard>

      <div className="space-y-6 lg:col-span-2" aria-live="polite">
        {result ? (
          <SuggestionsResult {...result} />
        ) : (
          <ResultPlaceholder icon={Lightbulb}>Fill in your business details to see a colour palette, font pairing, layouts and tips made for your industry and role.</ResultPlaceholder>
        )}
      </div>
    </div>
  );
}

/** The palette's colours as candidates for the name (on a metal card the metal is the ground, so the dark tones count too). */
const nameColours = (data: DesignSuggestionsResponse) => data.colorPalette.filter((c) => isHexColor(c.hex)).map((c) => ({ hex: c.hex, name: c.name }));

function SuggestionsResult({ data, companyName, role }: { data: DesignSuggestionsResponse; companyName: string; role: string }) {
  return (
    <div className="space-y-6" data-testid="suggestions-result">
      <section aria-labelledby="sg-palette">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h3 id="sg-palette" className="text-lg font-semibold">
            Color Palette
          </h3>
          <Badge variant="outline">{data.engine === 'model' ? 'AI model' : 'Built-in design engine'}</Badge>
        </div>
        <SwatchGrid colors={data.colorPalette} />
        {nameColours(data).length ? <ApplyToCard colours={nameColours(data)} testId="apply-suggested-palette" /> : null}
      </section>

      <ResultSection id="sg-fonts" title="Font Recommendations">
        <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
          {data.fontRecommendations.map((f) => (
            <FontSample key={f.family + f.use} font={f} sample={companyName} detail={role} />
          ))}
        </ul>
      </ResultSection>

      <ResultSection id="sg-layouts" title="Layout Suggestions">
        <ul className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {data.layoutSuggestions.map((l) => (
            <li key={l.templateId} className="flex flex-col rounded-lg border border-border bg-card p-4" data-testid="layout-suggestion" data-template-id={l.templateId}>
              <div className="flex items-center justify-between gap-2">
                <h4 className="font-semibold">{l.title}</h4>
              </div>
              <div className="mt-2 h-1.5 w-full overflow-hidden rounded-full bg-muted" role="img" aria-label={`Fit ${l.fit}%`}>
                <div className="h-full bg-gold" style={{ width: `${l.fit}%` }} />
              </div>
              <p className="mt-3 flex-1 text-sm text-muted-foreground">{l.description}</p>
              <Button asChild variant="outline" size="sm" className="mt-3">
                <Link to={`/design?templateId=${l.templateId}`}>Use the {l.templateName} template</Link>
              </Button>
            </li>
          ))}
        </ul>
      </ResultSection>

      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <TextListSection id="sg-tips" title="Industry Tips" items={data.industryTips} testId="industry-tips" />
        <TextListSection id="sg-advice" title="Branding Advice" items={data.brandingAdvice} testId="branding-advice" />
      </div>
    </div>
  );
}

function TextListSection({ id, title, items, testId }: { id: string; title: string; items: string[]; testId: string }) {
  return (
    <ResultSection id={id} title={title}>
      <ul className="list-disc space-y-2 pl-5 text-sm" data-testid={testId}>
        {items.map((t) => (
          <li key={t}>{t}</li>
        ))}
      </ul>
    </ResultSection>
  );
}
