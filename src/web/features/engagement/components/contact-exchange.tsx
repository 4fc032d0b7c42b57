import { useState, type FormEvent } from 'react';
import { ContactExchangeForm, firstNameOf, type ContactExchangeFormProps } from '#shared/engagement/contact-exchange-form';
import { CONTACT_EXCHANGE_CSS } from '#shared/engagement/styles';
import { profileLeadsPath } from '#shared/routes';
import { LEAD_HONEYPOT_FIELD, LEAD_MESSAGES, LeadForm } from '#shared/schemas/engagement';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { usePublicLeadForm, useSubmitLead } from '#web/features/engagement/api';

/**
 * The contact exchange on the SPA's render of a public profile: the same markup as the
 * server-rendered page, sending JSON instead of the plain multipart post, with the field
 * messages shown in place and a thank-you once sent.
 */
export function ContactExchange({ profileId, ownerName }: { profileId: string; ownerName: string }) {
  const setting = usePublicLeadForm(profileId);
  if (!setting.data?.enabled) return null;
  return <ContactExchangeFormBox profileId={profileId} ownerName={ownerName} />;
}

function ContactExchangeFormBox({ profileId, ownerName }: { profileId: string; ownerName: string }) {
  const submit = useSubmitLead(profileId);
  const [state, setState] = useState<Pick<ContactExchangeFormProps, 'values' | 'errors' | 'message'>>({});
  const [sent, setSent] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    const str = (k: string) => String(fd.get(k) ?? '');
    const values = { name: str('name'), email: str('email'), phone: str('phone'), company: str('company'), note: str('note'), consent: fd.get('consent') === 'on' };
    const checked = LeadForm.safeParse(values);
    if (!checked.success) {
      const errors: Record<string, string> = {};
      for (const i of checked.error.issues) errors[String(i.path[0])] ??= i.message;
      setState({ values, errors });
      return;
    }
    try {
      await submit.mutateAsync({
        name: values.name,
        email: values.email || null,
        phone: values.phone || null,
        company: values.company || null,
        note: values.note || null,
        consent: true,
        [LEAD_HONEYPOT_FIELD]: str(LEAD_HONEYPOT_FIELD),
      });
      setSent(true);
    } catch (err) {
      setState({ values, errors: fieldErrors(err), message: errorMessage(err, 'Your details were not sent. Please try again.') });
    }
  }

  return (
    <>
      <style>{CONTACT_EXCHANGE_CSS}</style>
      <ContactExchangeForm
        // a new key after each failed try re-renders the uncontrolled inputs with the typed values
        key={JSON.stringify(state.errors ?? {})}
        ownerName={ownerName}
        action={profileLeadsPath(profileId)}
        values={state.values}
        errors={state.errors}
        message={state.message}
        busy={submit.isPending}
        open={!!state.errors}
        onSubmit={onSubmit}
        sent={
          sent ? (
            <>
              <p>{LEAD_MESSAGES.sent}</p>
              <p>{firstNameOf(ownerName)} will be in touch.</p>
            </>
          ) : undefined
        }
      />
    </>
  );
}
