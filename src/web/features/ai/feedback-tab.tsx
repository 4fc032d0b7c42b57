import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MessageSquare } from 'lucide-react';
import { CARD_TYPES } from '#shared/catalogue';
import { AiFeedbackCreateBody, type AiCurrentDesign, type DesignFeedbackResponse } from '#shared/schemas/ai';
import { getTemplates } from '#shared/contracts/templates';
import { Textarea, FormField } from '#web/components/ui/input';
import { toast } from '#web/lib/toast';
import { aiErrorText, aiFailure, useCurrentDesign, useDesignFeedback } from './api';
import { AiFormCard, AiSubmitButton } from '#web/features/ai/components/form-parts';
import { INITIAL_FEEDBACK_FORM, formFromCurrentDesign, templateChoices, toRequest, type FeedbackForm } from '#web/features/ai/components/feedback-form';
import { CurrentDesignNote } from '#web/features/ai/components/current-design-note';
import { BusinessInfoFieldset, CardFieldset, ColorsFieldset, FontsFieldset, QrFieldset } from '#web/features/ai/components/feedback-fieldsets';
import { DesignSketch } from '#web/features/ai/components/feedback-preview';
import { FeedbackResult } from '#web/features/ai/components/feedback-result';
import { validateAndShow } from './validate';
import { getProfile } from '#shared/contracts/profile';
import { callEndpoint, endpointQuery } from '#web/lib/endpoint';
import { formatPhone } from '#shared/profile/phone';

/** AI assistant tab Design Feedback: describe the card, ask a question, get measured findings. */
export function FeedbackTab() {
  const [f, setF] = useState<FeedbackForm>(INITIAL_FEEDBACK_FORM);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<DesignFeedbackResponse | null>(null);
  const [loadingProfile, setLoadingProfile] = useState(false);
  const m = useDesignFeedback();
  const current = useCurrentDesign();
  const templates = useQuery({ ...endpointQuery(getTemplates), staleTime: 5 * 60_000 });
  // the user's current design fills the form once (never over what they have typed since)
  const [loadedFrom, setLoadedFrom] = useState<AiCurrentDesign | null>(null);
  useEffect(() => {
    if (!current.data || loadedFrom) return;
    setLoadedFrom(current.data);
    if (current.data.source !== 'none') setF((s) => formFromCurrentDesign(current.data!, s));
  }, [current.data, loadedFrom]);
  const patch = (p: Partial<FeedbackForm>) => setF((s) => ({ ...s, ...p }));
  const err = (k: string) => errors[`currentDesign.${k}`];
  const parts = { f, patch, err };

  const fillFromProfile = async () => {
    setLoadingProfile(true);
    try {
      const p = await callEndpoint(getProfile);
      if (!p) {
        toast({ title: 'No profile yet', description: 'Complete your profile first, or type your details here.' });
        return;
      }
      patch({
        info: { fullName: p.fullName ?? '', jobTitle: p.jobTitle ?? '', companyName: p.companyName ?? '', email: p.email ?? '', phone: p.phoneNumber ? formatPhone(p.phoneNumber) : '', website: p.links?.find((l) => l.linkType === 'website')?.url ?? '', address: p.address ?? '' },
        template: p.templateId ? String(p.templateId) : f.template,
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
    if (!validateAndShow(AiFeedbackCreateBody, body, setErrors).ok) return;
    m.mutate(body, {
      onSuccess: (data) => {
        setResult(data);
        toast({ title: 'Feedback received!', description: `Design score ${data.score}/100.` });
      },
      onError: aiFailure('Error getting feedback', setErrors),
    });
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
      <AiFormCard
        title="Your current design"
        description="Your latest design is filled in: change anything and ask a question. The assistant measures contrast on your metal, text fit in your template's real layout, fonts, colours and the QR code."
        className="self-start lg:col-span-3"
        formLabel="Design feedback"
        formClassName="space-y-6"
        onSubmit={submit}
      >
        <CurrentDesignNote design={loadedFrom} onReload={() => loadedFrom && setF((s) => formFromCurrentDesign(loadedFrom, s))} />
        <CardFieldset {...parts} templates={templateChoices(templates.data, f.template)} />
        <ColorsFieldset {...parts} />
        <FontsFieldset {...parts} />
        <BusinessInfoFieldset {...parts} onFillFromProfile={fillFromProfile} loadingProfile={loadingProfile} />
        <QrFieldset {...parts} />

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
          <DesignSketch f={f} />
          <div aria-live="polite">{result ? <FeedbackResult data={result} /> : null}</div>
        </div>
      </div>
    </div>
  );
}
