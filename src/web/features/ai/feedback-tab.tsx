import { useState } from 'react';
import { AlertOctagon, AlertTriangle, CheckCircle2, Info, MessageSquare, Plus, Trash2, UserRound } from 'lucide-react';
import { CARD_STYLES, CARD_TYPES } from '#shared/catalogue';
import { BUNDLED_FONTS } from '#shared/fonts';
import { contrastRatio, isHexColor, roundRatio, wcagLevel } from '#shared/ai/color';
import { TEMPLATE_MODELS } from '#shared/ai/layouts';
import { AI_TEMPLATE_IDS, QR_STYLES, designFeedbackRequest, type DesignFeedbackRequest, type DesignFeedbackResponse, type DesignFinding } from '#shared/schemas/ai';
import type { Profile } from '#shared/schemas/profile';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Textarea } from '#web/components/ui/input';
import { Badge } from '#web/components/ui/badge';
import { Spinner } from '#web/components/ui/spinner';
import { api } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { aiErrorText, aiFailure, useDesignFeedback } from './api';
import { HexColorInput } from './palette-tab';
import { fontStack } from './components/fonts';
import { CopyButton } from './components/copy-button';
import { AiFormCard, AiSubmitButton, ChoiceSelect } from './components/form-parts';
import { validateAndShow } from './validate';

const INFO_FIELDS = [
  ['fullName', 'Full Name'],
  ['jobTitle', 'Job Title'],
  ['companyName', 'Company'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['website', 'Website'],
  ['address', 'Address'],
] as const;
type InfoKey = (typeof INFO_FIELDS)[number][0];

const TEMPLATE_CHOICES = AI_TEMPLATE_IDS.map((id) => ({ value: id, label: `${TEMPLATE_MODELS[id].name} (${id})` }));
const CARD_TYPE_CHOICES = CARD_TYPES.map((c) => ({ value: c.id, label: c.label }));

interface FormState {
  template: string;
  cardType: string;
  cardStyle: string;
  background: string;
  text: string;
  accents: string[];
  fonts: string[];
  otherFonts: string;
  info: Record<InfoKey, string>;
  qrMargin: string;
  qrSize: string;
  qrStyle: string;
  question: string;
}

const INITIAL: FormState = {
  template: '17',
  cardType: 'standard',
  cardStyle: 'Matte',
  background: '#000000',
  text: '#FFFFFF',
  accents: [],
  fonts: ['Inter'],
  otherFonts: '',
  info: { fullName: '', jobTitle: '', companyName: '', email: '', phone: '', website: '', address: '' },
  qrMargin: '2',
  qrSize: '',
  qrStyle: 'standard',
  question: '',
};

function toRequest(f: FormState): DesignFeedbackRequest {
  const other = f.otherFonts
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const businessInfo = Object.fromEntries(Object.entries(f.info).filter(([, v]) => v.trim() !== '')) as Record<string, string>;
  return {
    currentDesign: {
      template: Number(f.template),
      cardType: f.cardType as (typeof CARD_TYPES)[number]['id'],
      cardStyle: f.cardStyle as (typeof CARD_STYLES)[number],
      colors: { background: f.background, text: f.text, accents: f.accents },
      fonts: [...f.fonts, ...other],
      businessInfo,
      qr: {
        margin: f.qrMargin === '' ? undefined : Number(f.qrMargin),
        sizeMm: f.qrSize === '' ? undefined : Number(f.qrSize),
        style: f.qrStyle as (typeof QR_STYLES)[number],
      },
    },
    userQuestion: f.question,
  };
}

function LiveContrast({ a, b }: { a: string; b: string }) {
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

function CardPreview({ f }: { f: FormState }) {
  const ok = (c: string, d: string) => (isHexColor(c) ? c : d);
  const heading = f.fonts[0] ?? 'Inter';
  const detail = f.fonts[f.fonts.length - 1] ?? heading;
  const accent = f.accents.find(isHexColor);
  return (
    <div
      aria-label="Design preview"
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

export function FeedbackTab() {
  const [f, setF] = useState<FormState>(INITIAL);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<DesignFeedbackResponse | null>(null);
  const [loadingProfile, setLoadingProfile] = useState(false);
  const m = useDesignFeedback();
  const patch = (p: Partial<FormState>) => setF((s) => ({ ...s, ...p }));
  const err = (k: string) => errors[`currentDesign.${k}`];

  const fillFromProfile = async () => {
    setLoadingProfile(true);
    try {
      const p = await api.get<Profile | null>('/api/profile');
      if (!p) {
        toast({ title: 'No profile yet', description: 'Complete your profile first, or type your details here.' });
        return;
      }
      patch({
        info: { fullName: p.fullName ?? '', jobTitle: p.jobTitle ?? '', companyName: p.companyName ?? '', email: p.email ?? '', phone: p.phoneNumber ?? '', website: p.links?.find((l) => l.linkType === 'website')?.url ?? '', address: p.address ?? '' },
        template: AI_TEMPLATE_IDS.includes(p.templateId as 15) ? String(p.templateId) : f.template,
        cardType: CARD_TYPES.some((c) => c.id === p.cardType) ? p.cardType : f.cardType,
      });
    } catch (e) {
      toast({ title: 'Could not load your profile', description: aiErrorText(e), variant: 'destructive' });
    } finally {
      setLoadingProfile(false);
    }
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!f.question.trim()) {
      setErrors({ userQuestion: 'Please enter a question' });
      toast({ title: 'No question provided', description: 'Please ask a question about your design.', variant: 'destructive' });
      return;
    }
    const body = toRequest(f);
    if (!validateAndShow(designFeedbackRequest, body, setErrors).ok) return;
    m.mutate(body, {
      onSuccess: (data) => {
        setResult(data);
        toast({ title: 'Feedback received!', description: `Design score ${data.score}/100.` });
      },
      onError: aiFailure('Error getting feedback', setErrors),
    });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <AiFormCard
        title="Your current design"
        description="Describe your card and ask a question: the assistant measures contrast, text fit, fonts, colours and the QR code."
        className="self-start lg:col-span-3"
        formLabel="Design feedback"
        formClassName="space-y-6"
        onSubmit={submit}
      >
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="sr-only">Card</legend>
          <FormField id="f-template" label="Template" error={err('template')}>
            <ChoiceSelect id="f-template" value={f.template} onChange={(e) => patch({ template: e.target.value })} choices={TEMPLATE_CHOICES} />
          </FormField>
          <FormField id="f-cardtype" label="Card Type" error={err('cardType')}>
            <ChoiceSelect id="f-cardtype" value={f.cardType} onChange={(e) => patch({ cardType: e.target.value })} choices={CARD_TYPE_CHOICES} />
          </FormField>
          <FormField id="f-style" label="Finish" error={err('cardStyle')}>
            <ChoiceSelect id="f-style" value={f.cardStyle} onChange={(e) => patch({ cardStyle: e.target.value })} choices={CARD_STYLES} />
          </FormField>
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold">Colors</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="f-bg" label="Background" error={err('colors.background')}>
              <HexColorInput id="f-bg" label="Background" value={f.background} onChange={(background) => patch({ background })} invalid={!!err('colors.background')} />
            </FormField>
            <FormField id="f-text" label="Text" error={err('colors.text')}>
              <HexColorInput id="f-text" label="Text" value={f.text} onChange={(text) => patch({ text })} invalid={!!err('colors.text')} />
            </FormField>
          </div>
          <LiveContrast a={f.text} b={f.background} />
          {f.accents.map((a, i) => (
            <div key={i} className="flex items-end gap-2">
              <FormField id={`f-accent-${i}`} label={`Accent ${i + 1}`} error={err(`colors.accents.${i}`)} className="flex-1">
                <HexColorInput id={`f-accent-${i}`} label={`Accent ${i + 1}`} value={a} onChange={(v) => patch({ accents: f.accents.map((x, j) => (j === i ? v : x)) })} />
              </FormField>
              <Button type="button" variant="ghost" size="icon" aria-label={`Remove accent ${i + 1}`} onClick={() => patch({ accents: f.accents.filter((_, j) => j !== i) })}>
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          ))}
          {f.accents.length < 4 ? (
            <Button type="button" variant="outline" size="sm" onClick={() => patch({ accents: [...f.accents, '#D4AF37'] })}>
              <Plus aria-hidden="true" /> Add accent color
            </Button>
          ) : null}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Fonts</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {BUNDLED_FONTS.map((bf) => (
              <label key={bf.family} className="inline-flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-current"
                  checked={f.fonts.includes(bf.family)}
                  onChange={(e) => patch({ fonts: e.target.checked ? [...f.fonts, bf.family] : f.fonts.filter((x) => x !== bf.family) })}
                />
                <span style={{ fontFamily: fontStack(bf.family) }}>{bf.family}</span>
              </label>
            ))}
          </div>
          <FormField id="f-otherfonts" label="Other fonts" hint="Any other fonts you use, separated by commas" error={err('fonts')}>
            <Input id="f-otherfonts" value={f.otherFonts} onChange={(e) => patch({ otherFonts: e.target.value })} maxLength={200} />
          </FormField>
        </fieldset>

        <fieldset className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <legend className="text-sm font-semibold">Business info</legend>
            <Button type="button" variant="ghost" size="sm" onClick={fillFromProfile} disabled={loadingProfile}>
              {loadingProfile ? <Spinner className="size-4" /> : <UserRound aria-hidden="true" />} Fill from my profile
            </Button>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {INFO_FIELDS.map(([k, label]) => (
              <FormField key={k} id={`f-${k}`} label={label} error={err(`businessInfo.${k}`)} className={k === 'address' ? 'sm:col-span-2' : undefined}>
                <Input id={`f-${k}`} value={f.info[k]} onChange={(e) => patch({ info: { ...f.info, [k]: e.target.value } })} maxLength={k === 'address' ? 200 : 254} />
              </FormField>
            ))}
          </div>
        </fieldset>

        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 text-sm font-semibold">QR code</legend>
          <FormField id="f-qrmargin" label="Quiet zone (modules)" error={err('qr.margin')}>
            <Input id="f-qrmargin" type="number" min={0} max={10} step={1} value={f.qrMargin} onChange={(e) => patch({ qrMargin: e.target.value })} />
          </FormField>
          <FormField id="f-qrsize" label="Size (mm)" error={err('qr.sizeMm')} hint="Optional">
            <Input id="f-qrsize" type="number" min={5} max={50} step={1} value={f.qrSize} onChange={(e) => patch({ qrSize: e.target.value })} />
          </FormField>
          <FormField id="f-qrstyle" label="Style" error={err('qr.style')}>
            <ChoiceSelect id="f-qrstyle" value={f.qrStyle} onChange={(e) => patch({ qrStyle: e.target.value })} choices={QR_STYLES} />
          </FormField>
        </fieldset>

        <FormField id="f-question" label="Your Question" required error={errors.userQuestion}>
          <Textarea
            id="f-question"
            value={f.question}
            onChange={(e) => patch({ question: e.target.value })}
            aria-invalid={!!errors.userQuestion}
            placeholder="e.g. Is my text readable on brushed titanium? Will the QR code scan?"
            maxLength={1000}
          />
        </FormField>
        <AiSubmitButton pending={m.isPending} icon={MessageSquare} label="Get Feedback" pendingLabel="Analysing..." spinnerLabel="Analysing" />
      </AiFormCard>

      <div className="space-y-6 lg:col-span-2">
        <div className="lg:sticky lg:top-28 space-y-6">
          <CardPreview f={f} />
          <div aria-live="polite">{result ? <FeedbackResult data={result} /> : null}</div>
        </div>
      </div>
    </div>
  );
}

const SEVERITY: Record<DesignFinding['severity'], { icon: typeof Info; label: string; className: string; badge: 'red' | 'yellow' | 'blue' | 'green' }> = {
  critical: { icon: AlertOctagon, label: 'Fix', className: 'text-red-600', badge: 'red' },
  warning: { icon: AlertTriangle, label: 'Improve', className: 'text-yellow-600', badge: 'yellow' },
  info: { icon: Info, label: 'Note', className: 'text-blue-600', badge: 'blue' },
  good: { icon: CheckCircle2, label: 'Good', className: 'text-green-600', badge: 'green' },
};

function FeedbackResult({ data }: { data: DesignFeedbackResponse }) {
  const tone = data.score >= 80 ? 'text-green-600' : data.score >= 50 ? 'text-yellow-600' : 'text-red-600';
  return (
    <Card data-testid="feedback-result">
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle>Feedback</CardTitle>
          <div className="flex items-center gap-2">
            <CopyButton text={data.feedback} label="Copy feedback" />
            <span className={`text-3xl font-bold tabular-nums ${tone}`} data-testid="feedback-score" aria-label={`Design score ${data.score} out of 100`}>
              {data.score}
              <span className="text-sm font-normal text-muted-foreground">/100</span>
            </span>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm leading-relaxed" data-testid="feedback-answer">
          {data.answer}
        </p>
        <ul className="space-y-3" aria-label="Findings">
          {data.findings.map((x) => {
            const s = SEVERITY[x.severity];
            const Icon = s.icon;
            return (
              <li key={x.id} className="flex gap-3 text-sm" data-testid="finding" data-severity={x.severity} data-id={x.id}>
                <Icon aria-hidden="true" className={`mt-0.5 size-4 shrink-0 ${s.className}`} />
                <div>
                  <p className="font-medium">
                    {x.title}{' '}
                    <Badge variant={s.badge} className="ml-1 px-1.5 py-0 text-[10px]">
                      {s.label}
                    </Badge>
                  </p>
                  <p className="text-muted-foreground">{x.detail}</p>
                </div>
              </li>
            );
          })}
        </ul>
        <p className="text-xs text-muted-foreground">{data.engine === 'model' ? 'Answer written by the AI model; figures measured by the built-in design engine.' : 'Measured and written by the built-in design engine.'}</p>
      </CardContent>
    </Card>
  );
}
