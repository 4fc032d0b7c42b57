import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AlertTriangle, Send } from 'lucide-react';
import { publicProfileUrl } from '#shared/routes';
import { CARD_TYPE_IDS, DEFAULT_CARD_TYPE, DEFAULT_TEMPLATE_ID, QUANTITY_DEFAULT, cardType as findCardType, formatUsd, type CardTypeId } from '#shared/catalogue';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { PageSpinner, Spinner } from '#web/components/ui/spinner';
import { useMyProfile, useSvgTemplates } from '#web/features/templates/api';
import { CardPair } from '#web/features/templates/card-preview';
import {
  CardTypePicker,
  DesignForm,
  StepHeading,
  TemplatePicker,
  checkDesign,
  designFromProfile,
  previewData,
  previewStyleOf,
  toCustomerProfile,
  type DesignValues,
} from '#web/features/templates/design-parts';
import { useDesignSubmit } from '#web/features/templates/use-design-submit';
import { toast } from '#web/lib/toast';
import { allowedAccent } from '#shared/templates/look';
import type { CardLookInput } from '#shared/schemas/templates';
import { LookPicker, lookFromParams } from '#web/features/templates/look-picker';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { designFromStored, editCardId, useDesignForEdit, useResubmitDesign } from '#web/features/templates/use-design-resubmit';

function parseTemplateId(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_TEMPLATE_ID;
}

/** The one-screen designer of /design: template, card type and details beside the live card, then review. */
export function DesignWizard({ userEmail }: { userEmail: string }) {
  const [params] = useSearchParams();
  const templatesQ = useSvgTemplates();
  const profileQ = useMyProfile();
  const [templateId, setTemplateId] = useState(() => parseTemplateId(params.get('templateId')));
  // the AI assistant's "Apply to my card" sends ?accent=&font=; a printed colour needs Color Metal
  const [look, setLook] = useState<CardLookInput>(() => lookFromParams(params));
  const [cardType, setCardType] = useState<CardTypeId>(() => {
    const c = params.get('cardType');
    if (c && (CARD_TYPE_IDS as readonly string[]).includes(c)) return c as CardTypeId;
    const asked = lookFromParams(params).accent;
    return asked && allowedAccent(DEFAULT_CARD_TYPE, asked) !== asked ? 'color' : DEFAULT_CARD_TYPE;
  });
  const [values, setValues] = useState<DesignValues | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof DesignValues, string>>>({});
  const [truncated, setTruncated] = useState<string[]>([]);
  const submit = useDesignSubmit();
  const navigate = useNavigate();
  // "Edit and resubmit": /design?card={id} reopens a design that needs changes, for the same order
  const editId = editCardId(params.get('card'));
  const editQ = useDesignForEdit(editId);
  const editing = editId !== null && editQ.data?.canResubmit ? editQ.data : null;
  const resubmit = useResubmitDesign(editId);

  // prefill once: the design being edited, else the profile (or just the account e-mail)
  useEffect(() => {
    if (values !== null) return;
    if (editId !== null && editQ.isLoading) return;
    if (editing) {
      setValues(designFromStored(editing.customerProfile));
      setTemplateId(editing.templateId);
      setCardType(editing.cardType);
      if (editing.look) setLook(editing.look);
      return;
    }
    if (!profileQ.isLoading) setValues(designFromProfile(profileQ.data, userEmail));
  }, [profileQ.isLoading, profileQ.data, values, userEmail, editId, editQ.isLoading, editing]);

  const templates = templatesQ.data;
  const selected = useMemo(() => templates?.find((t) => t.id === templateId) ?? templates?.find((t) => t.id === DEFAULT_TEMPLATE_ID), [templates, templateId]);
  useEffect(() => {
    // an unknown or inactive id in the link falls back to the default template
    if (templates && selected && selected.id !== templateId) setTemplateId(selected.id);
  }, [templates, selected, templateId]);

  const profile = profileQ.data;
  const qrUrl = profile ? publicProfileUrl(window.location.origin, profile.id) : null;
  const v = values ?? designFromProfile(null, userEmail);
  // an accent the card type cannot produce is dropped (the card type decides the metal)
  const effectiveLook = useMemo<CardLookInput>(
    () => ({ ...look, accent: look.accent && allowedAccent(cardType, look.accent) === look.accent ? look.accent : null }),
    [look, cardType],
  );
  const data = useMemo(() => ({ ...previewData(v), look: { ...effectiveLook, cardType } }), [v, effectiveLook, cardType]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = checkDesign(v);
    if (problem) {
      setErrors({ [problem.field]: problem.description });
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
      return;
    }
    setErrors({});
    if (editing) {
      try {
        const res = await resubmit.mutateAsync({ templateId: selected?.id ?? templateId, customerProfile: toCustomerProfile(v), look: effectiveLook });
        toast({ title: 'Design resubmitted', description: `Your edited design for order #${res.orderId} is back in review. We e-mail you when it is reviewed.` });
        navigate(res.statusPath);
      } catch (err) {
        const fe = fieldErrors(err);
        setErrors(Object.fromEntries(Object.entries(fe).map(([k, m]) => [k.replace(/^customerProfile\./, ''), m])));
        toast({ title: 'Could not resubmit', description: errorMessage(err), variant: 'destructive' });
      }
      return;
    }
    await submit.run(v, { templateId: selected?.id ?? templateId, cardType, look: effectiveLook }, setErrors);
  }

  const ct = findCardType(cardType)!;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:py-14">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Design Your Card</h1>
        <p className="mt-2 text-muted-foreground">
          Three steps, with a live preview of both sides. Want quantity and delivery too?{' '}
          <Link to={`/create-card?templateId=${templateId}`} className="underline underline-offset-4">
            Use the full card builder
          </Link>
          .
        </p>
      </header>

      {editing ? (
        <div className="mt-6 flex items-start gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-4 text-sm" role="note" data-testid="editing-design">
          <AlertTriangle className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">Editing your design for order #{editing.orderId}: it needs changes.</p>
            {editing.reason ? <p className="break-words">Reason: {editing.reason}</p> : null}
            <p className="text-muted-foreground">Your order keeps its card type, quantity and price. Resubmitting sends the design back to review.</p>
          </div>
        </div>
      ) : editId !== null && editQ.data && !editQ.data.canResubmit ? (
        <p className="mt-6 rounded-md border border-border p-4 text-sm" role="note">
          This design is not waiting for changes, so a submission here makes a new order.
        </p>
      ) : null}

      <form onSubmit={onSubmit} noValidate className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
        <div className="space-y-10">
          <section aria-labelledby="step-template" className="space-y-4">
            <div id="step-template">
              <StepHeading n={1} title="Choose Template" done={!!selected} />
            </div>
            <TemplatePicker
              templates={templates}
              value={selected?.id ?? templateId}
              onChange={setTemplateId}
              isLoading={templatesQ.isLoading}
              isError={templatesQ.isError}
              onRetry={() => void templatesQ.refetch()}
            />
          </section>

          <section aria-labelledby="step-type" className="space-y-4">
            <div id="step-type">
              <StepHeading n={2} title="Select Card Type" done />
            </div>
            {editing ? (
              <p className="text-sm text-muted-foreground">{findCardType(cardType)?.label}: the card type of your order.</p>
            ) : (
              <CardTypePicker value={cardType} onChange={setCardType} />
            )}
            <LookPicker cardType={cardType} look={effectiveLook} onChange={setLook} />
          </section>

          <section aria-labelledby="step-info" className="space-y-4">
            <div id="step-info">
              <StepHeading n={3} title="Enter Your Information" />
            </div>
            {values === null ? <Spinner /> : <DesignForm values={v} onChange={setValues} errors={errors} truncated={truncated} />}
          </section>
        </div>

        <aside className="lg:sticky lg:top-24 lg:self-start" aria-label="Live preview">
          <Card>
            <CardContent className="space-y-5 p-5">
              <div className="flex items-center justify-between gap-2">
                <h2 className="text-lg font-semibold">Live Preview</h2>
                {selected ? (
                  <span className="text-xs uppercase tracking-wider text-muted-foreground" data-testid="preview-style">
                    {previewStyleOf(selected.name)} style · {selected.name}
                  </span>
                ) : null}
              </div>
              {templatesQ.isLoading ? (
                <PageSpinner />
              ) : (
                <CardPair layout="stack" front={selected?.front} back={selected?.back} name={selected?.name} data={data} qrUrl={qrUrl} logoHref={profile?.logoUrl} onTruncated={setTruncated} />
              )}
              <p className="text-xs text-muted-foreground">Empty fields are left off the card.</p>
              <p className="text-xs text-muted-foreground">
                {qrUrl
                  ? 'The QR code opens your public profile.'
                  : 'Your QR code is created from your profile when you submit, and added to the back of your card.'}
              </p>
              <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-t border-border pt-4 text-sm">
                <span>
                  {ct.label} · {formatUsd(ct.priceCents)} per card
                </span>
                <span className="whitespace-nowrap text-muted-foreground" data-testid="design-quote">
                  {QUANTITY_DEFAULT} cards: {formatUsd(ct.priceCents * QUANTITY_DEFAULT)}
                </span>
              </div>
              <Button type="submit" variant="gold" size="lg" className="w-full" disabled={submit.isPending || resubmit.isPending || values === null}>
                {submit.isPending || resubmit.isPending ? <Spinner className="size-4" label="Submitting" /> : <Send />}
                {submit.isPending || resubmit.isPending ? 'Submitting...' : editing ? 'Resubmit for Review' : 'Submit for Review'}
              </Button>
            </CardContent>
          </Card>
        </aside>
      </form>
    </div>
  );
}
