import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AlertTriangle, Send } from 'lucide-react';
import { publicProfileUrl } from '#shared/routes';
import { CARD_TYPE_IDS, DEFAULT_CARD_TYPE, DEFAULT_TEMPLATE_ID, QUANTITY_DEFAULT, cardType as findCardType, formatUsd, type CardStyle, type CardTypeId, type DeliveryOptionId } from '#shared/catalogue';
import type { ShippingAddressInput } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { PageSpinner, Spinner } from '#web/components/ui/spinner';
import { CardPair } from '#web/components/card-preview';
import {
  CardTypePicker,
  DesignForm,
  StepHeading,
  TemplatePicker,
  checkDesign,
  designFromProfile,
  previewData,
  toCustomerProfile,
  type DesignValues,
  type TemplatesQuery,
  type ProfileQuery,
} from '#web/features/designs/design-parts';
import { useDesignSubmit } from '#web/features/designs/use-design-submit';
import { toast } from '#web/lib/toast';
import { allowedAccent } from '#shared/templates/look';
import type { CardLookInput } from '#shared/schemas/templates';
import { LookPicker, lookFromParams } from '#web/features/designs/components/look-picker';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { designFromStored, editCardId } from '#web/features/designs/design-edit';
import { useDesignForEdit, useResubmitDesign } from '#web/features/designs/api';
import { useLogoFindings } from '#web/features/designs/use-logo-findings';
import { useNarrowLayout } from '#web/features/designs/use-narrow-layout';
import { LogoAck, LogoPanel, LogoWarnings } from './logo-panel';
import { DesignLegal, DesignPreviewCard, StickyPreview, type PreviewInput } from './design-preview';

/** The order the designer designs for (`/design?order={id}`, issue 35), as the page finds it among the user's orders. */
export interface DesignOrder {
  id: number;
  cardType: CardTypeId;
  cardTypeLabel: string;
  quantity: number;
  /** its design may still be (re)placed: before production, not approved */
  designable: boolean;
}

/** What the checkout adds to a new order's design. */
interface DesignCheckoutChoice {
  quantity: number;
  deliveryOption: DeliveryOptionId;
  cardStyle: CardStyle;
  shippingAddress?: ShippingAddressInput;
}

/** The checkout the page hands in (the orders feature's summary and confirm step). */
export interface CheckoutSlot {
  cardType: CardTypeId;
  templateName: string;
  pending: boolean;
  onBack: () => void;
  onConfirm: (choice: DesignCheckoutChoice) => Promise<unknown>;
}

/** "Design the card for order #1: 250 x Black Anodized" */
const designForOrderTitle = (o: Pick<DesignOrder, 'id' | 'quantity' | 'cardTypeLabel'>) => `Design the card for order #${o.id}: ${o.quantity.toLocaleString('en-US')} x ${o.cardTypeLabel}`;

function parseTemplateId(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_TEMPLATE_ID;
}

/**
 * The one designer of /design (issue 35: /create-card and /card-generator lead here): template,
 * card type and details beside the live card. It either designs the card of an existing order
 * (`?order={id}`: card type and quantity are the order's; the design is attached to it), edits a
 * design that needs changes (`?card={id}`), or continues to the checkout (`renderCheckout`: summary
 * and confirm) that places a new order. `templates` and `profile`: the card templates and the
 * user's profile; `order`: the order of `?order=` (undefined while loading, null when it is not
 * the user's); the page asks the templates, profile and orders features.
 */
export function DesignWizard({
  userEmail,
  templates: templatesQ,
  profile: profileQ,
  order: orderArg,
  renderCheckout,
}: {
  userEmail: string;
  templates: TemplatesQuery;
  profile: ProfileQuery;
  order?: DesignOrder | null;
  renderCheckout: (slot: CheckoutSlot) => ReactNode;
}) {
  const [params] = useSearchParams();
  const orderParam = editCardId(params.get('order'));
  const forOrder = orderParam !== null && orderArg ? orderArg : null;
  const [stage, setStage] = useState<'design' | 'checkout'>('design');
  const [templateId, setTemplateId] = useState(() => parseTemplateId(params.get('templateId')));
  // the AI assistant's "Apply to my card" sends ?cardType=&accent=&font=; an accent the metal cannot
  // make is dropped (effectiveLook), never a silent switch to Color Metal and its price (issue 37)
  const [look, setLook] = useState<CardLookInput>(() => lookFromParams(params));
  const [cardType, setCardType] = useState<CardTypeId>(() => {
    const c = params.get('cardType');
    return c && (CARD_TYPE_IDS as readonly string[]).includes(c) ? (c as CardTypeId) : DEFAULT_CARD_TYPE;
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
  const narrow = useNarrowLayout();
  // the design's own logo (uploaded or cut out here, issue 37): sent with the design; else the card
  // shows the stored design's logo or the profile's, as the server renders it
  const [ownLogo, setOwnLogo] = useState<string | null>(null);
  const [logoAck, setLogoAck] = useState(false);
  const [logoAckError, setLogoAckError] = useState(false);
  // an order's design keeps the order's card type
  useEffect(() => {
    if (forOrder && cardType !== forOrder.cardType) setCardType(forOrder.cardType);
  }, [forOrder, cardType]);

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
  const logoHref = ownLogo ?? (editing?.customerProfile.logoUrl || null) ?? profile?.logoUrl ?? null;
  const logo = useLogoFindings(logoHref, cardType);
  // a new logo or another metal asks again
  useEffect(() => {
    setLogoAck(false);
    setLogoAckError(false);
  }, [logoHref, cardType]);
  const preview: PreviewInput = { selected, data, qrUrl, logoHref, cardType };
  const withLogo = ownLogo ? { logoUrl: ownLogo } : {};

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = checkDesign(v);
    if (problem) {
      setErrors({ [problem.field]: problem.description });
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
      return;
    }
    setErrors({});
    if (logo.findings.length && !logoAck) {
      // the logo will not come out as the colour preview shows: fix it, or send it knowingly
      setLogoAckError(true);
      toast({ title: 'Check your logo', description: 'Fix the logo, or tick the box to send it as it is.', variant: 'destructive' });
      document.getElementById('logo-ack')?.focus();
      return;
    }
    if (editing) {
      try {
        const res = await resubmit.mutateAsync({ templateId: selected?.id ?? templateId, customerProfile: { ...toCustomerProfile(v), ...withLogo }, look: effectiveLook });
        toast({ title: 'Design resubmitted', description: `Your edited design for order #${res.orderId} is back in review. We e-mail you when it is reviewed.` });
        navigate(res.statusPath);
      } catch (err) {
        const fe = fieldErrors(err);
        setErrors(Object.fromEntries(Object.entries(fe).map(([k, m]) => [k.replace(/^customerProfile\./, ''), m])));
        toast({ title: 'Could not resubmit', description: errorMessage(err), variant: 'destructive' });
      }
      return;
    }
    if (forOrder) {
      await submit.run(v, { templateId: selected?.id ?? templateId, cardType: forOrder.cardType, look: effectiveLook, orderId: forOrder.id, ...withLogo }, setErrors);
      return;
    }
    // a new order: only through the checkout's summary and confirm step
    setStage('checkout');
    window.scrollTo({ top: 0 });
  }

  async function confirmOrder(choice: DesignCheckoutChoice) {
    await submit.run(
      v,
      { templateId: selected?.id ?? templateId, cardType, look: effectiveLook, quantity: choice.quantity, deliveryOption: choice.deliveryOption, cardStyle: choice.cardStyle, shippingAddress: choice.shippingAddress, ...withLogo },
      (e) => {
        setErrors(e);
        if (Object.keys(e).length) setStage('design');
      },
    );
  }

  if (orderParam !== null && orderArg === undefined) return <PageSpinner />;
  if (orderParam !== null && (!orderArg || !orderArg.designable)) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">{orderArg ? `The design of order #${orderArg.id} can no longer be changed` : 'Order not found'}</h1>
        <p className="mt-2 text-muted-foreground">
          {orderArg ? 'It is approved or already in production. Questions? Reply to your order e-mail.' : 'This order is not in your account. Claim it with the link in your order e-mail first.'}
        </p>
        <div className="mt-6 flex justify-center gap-2">
          <Button asChild variant="outline">
            <Link to="/orders">My Orders</Link>
          </Button>
        </div>
      </div>
    );
  }

  const ct = findCardType(cardType)!;
  const pending = submit.isPending || resubmit.isPending;
  const submitPart = (
    <>
      <div className="space-y-1 text-xs text-muted-foreground">
        <p>Empty fields are left off the card.</p>
        <p>{qrUrl ? 'The QR code opens your public profile.' : 'Your QR code is created from your profile when you submit, and added to the back of your card.'}</p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-t border-border pt-4 text-sm">
        <span>
          {ct.label} · {formatUsd(ct.priceCents)} per card
        </span>
        <span className="whitespace-nowrap text-muted-foreground" data-testid="design-quote">
          {forOrder ? `Order #${forOrder.id}: ${forOrder.quantity.toLocaleString('en-US')} cards` : `${QUANTITY_DEFAULT} cards: ${formatUsd(ct.priceCents * QUANTITY_DEFAULT)}`}
        </span>
      </div>
      <LogoAck findings={logo.findings} checked={logoAck} onChange={(c) => { setLogoAck(c); if (c) setLogoAckError(false); }} error={logoAckError} />
      <Button type="submit" variant="gold" size="lg" className="w-full" disabled={pending || values === null}>
        {pending ? <Spinner className="size-4" label="Submitting" /> : <Send />}
        {pending ? 'Submitting...' : editing ? 'Resubmit for Review' : forOrder ? 'Submit for Review' : 'Continue to checkout'}
      </Button>
      {editing || forOrder ? <DesignLegal action="sending your design" /> : null}
    </>
  );
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:py-14">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Design Your Card</h1>
        {forOrder ? (
          <h2 className="mt-3 text-xl font-semibold text-gold" data-testid="design-for-order">
            {designForOrderTitle(forOrder)}
          </h2>
        ) : null}
        <p className="mt-2 text-muted-foreground">
          {forOrder
            ? 'Your order keeps its card type, quantity and price. Choose a template, enter your details and send the design for review.'
            : editing
              ? 'Three steps, with a live preview of both sides.'
              : 'Three steps, with a live preview of both sides; then the checkout: quantity, delivery and address, with a summary before you confirm.'}
        </p>
      </header>

      {stage === 'checkout' && !forOrder && !editing ? (
        <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,0.9fr)]">
          <Card>
            <CardContent className="p-5 sm:p-6">
              {renderCheckout({ cardType, templateName: selected?.name ?? 'chosen', pending: submit.isPending, onBack: () => setStage('design'), onConfirm: confirmOrder })}
            </CardContent>
          </Card>
          <aside aria-label="Your design" className="lg:sticky lg:top-24 lg:self-start">
            <CardPair layout="stack" front={selected?.front} back={selected?.back} name={selected?.name} data={data} qrUrl={qrUrl} logoHref={logoHref} />
            {logo.findings.length ? (
              <div className="mt-4 space-y-1">
                <LogoWarnings findings={logo.findings} compact testId="logo-warnings-checkout" />
                <p className="text-xs text-muted-foreground">You chose to send the logo as it is. Go back to the design to change it.</p>
              </div>
            ) : null}
          </aside>
        </div>
      ) : (
        <>

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
          This design is not waiting for changes, so continuing here makes a new order through the checkout.
        </p>
      ) : null}

      <form onSubmit={onSubmit} noValidate className={narrow ? 'mt-6 flex flex-col gap-8' : 'mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]'}>
        {narrow ? <StickyPreview p={preview} loading={templatesQ.isLoading} onTruncated={setTruncated} /> : null}
        {/* on a phone a field scrolled to (focus, errors) stops below the sticky preview, its label in view */}
        <div className={narrow ? 'space-y-10 [&_input]:scroll-mt-64 [&_select]:scroll-mt-64' : 'space-y-10'}>
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
            {editing || forOrder ? (
              <p className="text-sm text-muted-foreground">{findCardType(cardType)?.label}: the card type of your order.</p>
            ) : (
              <CardTypePicker value={cardType} onChange={setCardType} />
            )}
            <LookPicker cardType={cardType} look={effectiveLook} onChange={setLook} />
            <LogoPanel logoHref={logoHref} onChange={setOwnLogo} findings={logo.findings} />
          </section>

          <section aria-labelledby="step-info" className="space-y-4">
            <div id="step-info">
              <StepHeading n={3} title="Enter Your Information" />
            </div>
            {values === null ? <Spinner /> : <DesignForm values={v} onChange={setValues} errors={errors} truncated={truncated} />}
          </section>
        </div>

        {narrow ? (
          <Card>
            <CardContent className="space-y-5 p-5">{submitPart}</CardContent>
          </Card>
        ) : (
          <aside className="lg:sticky lg:top-24 lg:self-start" aria-label="Live preview">
            <Card>
              <CardContent className="space-y-5 p-5">
                <DesignPreviewCard p={preview} loading={templatesQ.isLoading} onTruncated={setTruncated} />
                {submitPart}
              </CardContent>
            </Card>
          </aside>
        )}
      </form>
        </>
      )}
    </div>
  );
}
