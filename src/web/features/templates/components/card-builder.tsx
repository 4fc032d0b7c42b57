import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ArrowLeft, ArrowRight, Send } from 'lucide-react';
import { CARD_STYLES, DEFAULT_CARD_TYPE, DEFAULT_TEMPLATE_ID, DELIVERY_OPTIONS, QUANTITY_DEFAULT, QUANTITY_MAX, QUANTITY_MIN, formatUsd, priceOrder, type CardStyle, type CardTypeId, type DeliveryOptionId } from '#shared/catalogue';
import { publicProfileUrl } from '#shared/routes';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { FormField, Input, Select } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { QrImage } from '#web/components/qr-image';
import { qrDataUrl } from '#web/lib/qr-data-url';
import { useMyProfile, useSvgTemplates } from '#web/features/templates/api';
import { CardPair } from '#web/features/templates/card-preview';
import { CardTypePicker, DesignForm, TemplatePicker, checkDesign, designFromProfile, previewData, type DesignValues } from '#web/features/templates/design-parts';
import { useDesignSubmit } from '#web/features/templates/use-design-submit';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { cn } from '#web/lib/utils';

const STEPS = ['Template', 'Card Type', 'Your Details', 'Preview', 'Quantity & Delivery'] as const;

/** The five-step card builder of /create-card: template, card type, details, preview, quantity and delivery. */
export function CardBuilder({ userEmail }: { userEmail: string }) {
  const [params] = useSearchParams();
  const templatesQ = useSvgTemplates();
  const profileQ = useMyProfile();
  const submit = useDesignSubmit();

  const [step, setStep] = useState(0);
  const [templateId, setTemplateId] = useState(() => {
    const n = Number(params.get('templateId'));
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_TEMPLATE_ID;
  });
  const [cardType, setCardType] = useState<CardTypeId>(DEFAULT_CARD_TYPE);
  const [values, setValues] = useState<DesignValues | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof DesignValues, string>>>({});
  const [truncated, setTruncated] = useState<string[]>([]);
  const [quantity, setQuantity] = useState<string>(String(QUANTITY_DEFAULT));
  const [delivery, setDelivery] = useState<DeliveryOptionId>('standard');
  const [cardStyle, setCardStyle] = useState<CardStyle>('Matte');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (values === null && !profileQ.isLoading) setValues(designFromProfile(profileQ.data, userEmail));
  }, [profileQ.isLoading, profileQ.data, values, userEmail]);

  // a new step starts at its title (on a phone, Next sits far below it)
  const stepTitle = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    const el = stepTitle.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [step]);

  const templates = templatesQ.data;
  const selected = useMemo(() => templates?.find((t) => t.id === templateId && t.isActive) ?? templates?.find((t) => t.id === DEFAULT_TEMPLATE_ID), [templates, templateId]);
  const profile = profileQ.data;
  const qrUrl = profile ? publicProfileUrl(window.location.origin, profile.id) : null;
  const v = values ?? designFromProfile(null, userEmail);

  const qty = Number(quantity);
  const qtyError = !Number.isInteger(qty) ? 'Quantity must be a whole number' : qty < QUANTITY_MIN ? 'At least 1' : qty > QUANTITY_MAX ? 'Too many' : null;
  const quote = qtyError ? null : priceOrder({ cardType, deliveryOption: delivery, quantity: qty });

  async function next() {
    if (step === 2) {
      const problem = checkDesign(v);
      if (problem) {
        setErrors({ [problem.field]: problem.description });
        toast({ title: problem.title, description: problem.description, variant: 'destructive' });
        return;
      }
      // the preview shows the real QR code of the public profile: save the details to it first
      setSaving(true);
      try {
        await submit.saveDetails(v, selected?.id ?? templateId, cardType);
        setErrors({});
      } catch (err) {
        setErrors(Object.fromEntries(Object.entries(fieldErrors(err))) as Partial<Record<keyof DesignValues, string>>);
        toast({ title: 'Error updating profile', description: errorMessage(err), variant: 'destructive' });
        return;
      } finally {
        setSaving(false);
      }
    }
    setStep((s) => Math.min(STEPS.length - 1, s + 1));
  }

  async function onSubmit() {
    if (qtyError) {
      toast({ title: 'Check the quantity', description: qtyError, variant: 'destructive' });
      return;
    }
    await submit.run(v, { templateId: selected?.id ?? templateId, cardType, quantity: qty, deliveryOption: delivery, cardStyle, skipProfileSave: true }, setErrors);
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Create Your Card</h1>
      <ol className="mt-6 grid grid-cols-5 gap-2" aria-label="Steps">
        {STEPS.map((label, i) => (
          <li key={label} aria-current={i === step ? 'step' : undefined} className="space-y-1.5">
            <div className={cn('h-1.5 rounded-full', i <= step ? 'bg-gold' : 'bg-muted')} />
            <span className={cn('hidden text-xs sm:block', i === step ? 'font-semibold' : 'text-muted-foreground')}>
              {i + 1}. {label}
            </span>
          </li>
        ))}
      </ol>

      <Card className="mt-8">
        <CardContent className="space-y-6 p-6">
          <h2 ref={stepTitle} className="scroll-mt-24 text-xl font-semibold" data-testid="step-title">
            Step {step + 1}: {STEPS[step]}
          </h2>

          {step === 0 ? (
            <TemplatePicker
              templates={templates}
              value={selected?.id ?? templateId}
              onChange={setTemplateId}
              isLoading={templatesQ.isLoading}
              isError={templatesQ.isError}
              onRetry={() => void templatesQ.refetch()}
            />
          ) : null}

          {step === 1 ? <CardTypePicker value={cardType} onChange={setCardType} /> : null}

          {step === 2 ? (
            <div className="space-y-6">
              <p className="text-sm text-muted-foreground">{profile ? 'Filled in from your profile. Changes are saved to your profile.' : 'These details also create your digital profile.'}</p>
              <DesignForm values={v} onChange={setValues} errors={errors} truncated={truncated} />
              <CardPair front={selected?.front} back={selected?.back} name={selected?.name} data={previewData(v)} qrUrl={qrUrl} logoHref={profile?.logoUrl} onTruncated={setTruncated} />
            </div>
          ) : null}

          {step === 3 ? (
            <div className="space-y-6">
              <CardPair front={selected?.front} back={selected?.back} name={selected?.name} data={v} qrUrl={qrUrl} logoHref={profile?.logoUrl} />
              {qrUrl ? (
                <div className="flex flex-wrap items-center gap-4 rounded-lg border border-border p-4">
                  <QrImage value={qrUrl} src={qrDataUrl(qrUrl, { size: 120, ecl: 'M', margin: 2 })} size={120} alt="QR code of your public profile" />
                  <div className="text-sm">
                    <p className="font-medium">Your QR code opens your public profile</p>
                    <a href={qrUrl} target="_blank" rel="noreferrer" className="break-all text-muted-foreground underline underline-offset-4" data-testid="profile-url">
                      {qrUrl}
                    </a>
                  </div>
                </div>
              ) : null}
            </div>
          ) : null}

          {step === 4 ? (
            <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
              <div className="space-y-4">
                <FormField id="cc-quantity" label="Quantity" required error={qtyError ?? undefined} hint="Volume discounts for 100+ cards">
                  <Input id="cc-quantity" type="number" inputMode="numeric" min={QUANTITY_MIN} max={QUANTITY_MAX} value={quantity} onChange={(e) => setQuantity(e.target.value)} aria-invalid={!!qtyError} />
                </FormField>
                <FormField id="cc-delivery" label="Delivery" required>
                  <Select id="cc-delivery" value={delivery} onChange={(e) => setDelivery(e.target.value as DeliveryOptionId)}>
                    {DELIVERY_OPTIONS.map((d) => (
                      <option key={d.id} value={d.id}>
                        {d.label} ({d.feeCents ? formatUsd(d.feeCents) : 'free'})
                      </option>
                    ))}
                  </Select>
                </FormField>
                <FormField id="cc-style" label="Card style" required>
                  <Select id="cc-style" value={cardStyle} onChange={(e) => setCardStyle(e.target.value as CardStyle)}>
                    {CARD_STYLES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </Select>
                </FormField>
              </div>
              <div className="space-y-2 rounded-lg border border-border p-5 text-sm" aria-live="polite" data-testid="running-total">
                <h3 className="font-semibold">Order summary</h3>
                {quote ? (
                  <>
                    <p className="flex justify-between">
                      <span>
                        {quote.quantity} × {quote.cardTypeLabel} ({formatUsd(quote.unitPriceCents)})
                      </span>
                      <span className="tabular-nums">{formatUsd(quote.subtotalCents)}</span>
                    </p>
                    <p className="flex justify-between">
                      <span>Delivery: {quote.deliveryLabel}</span>
                      <span className="tabular-nums">{quote.deliveryFeeCents ? formatUsd(quote.deliveryFeeCents) : 'Free'}</span>
                    </p>
                    <p className="flex justify-between border-t border-border pt-2 text-base font-semibold">
                      <span>Total</span>
                      <span className="tabular-nums" data-testid="total">
                        {formatUsd(quote.totalCents)}
                      </span>
                    </p>
                  </>
                ) : (
                  <p className="text-muted-foreground">Enter a quantity from 1 to 5000.</p>
                )}
              </div>
            </div>
          ) : null}

          <div className="flex justify-between gap-3 border-t border-border pt-5">
            <Button type="button" variant="outline" onClick={() => setStep((s) => Math.max(0, s - 1))} disabled={step === 0}>
              <ArrowLeft /> Back
            </Button>
            {step < STEPS.length - 1 ? (
              <Button type="button" variant="gold" onClick={next} disabled={saving || (step === 0 && !selected) || (step === 2 && values === null)}>
                {saving ? <Spinner className="size-4" label="Saving" /> : null}
                {saving ? 'Saving...' : 'Next'} <ArrowRight />
              </Button>
            ) : (
              <Button type="button" variant="gold" onClick={onSubmit} disabled={submit.isPending}>
                {submit.isPending ? <Spinner className="size-4" label="Submitting" /> : <Send />}
                {submit.isPending ? 'Submitting...' : 'Submit Order'}
              </Button>
            )}
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
