import type { FormEvent, ReactNode } from 'react';
import { LEAD_HONEYPOT_FIELD, LEAD_LIMITS } from '#shared/schemas/engagement';

/**
 * The public profile's contact exchange: a visitor leaves their own details for the owner.
 * A pure component (no hooks, no browser APIs): the server renders it into /p/{id} as a plain
 * HTML form that posts multipart/form-data (works with JavaScript off); the SPA renders the same
 * markup and passes `onSubmit` to send JSON instead. Styles: CONTACT_EXCHANGE_CSS (`ce-` classes).
 */

export type ContactExchangeField = 'name' | 'email' | 'phone' | 'company' | 'note';

export interface ContactExchangeFormProps {
  /** the owner's full name (shown in the heading and the consent text) */
  ownerName: string;
  /** where the plain form posts: /api/p/{id}/leads */
  action: string;
  values?: Partial<Record<ContactExchangeField, string>> & { consent?: boolean };
  /** field messages, keyed like the API's `errors` */
  errors?: Partial<Record<ContactExchangeField | 'consent', string>>;
  /** a message above the form (e.g. a failure that is not about one field) */
  message?: string;
  /** shown instead of the form once the details were sent */
  sent?: ReactNode;
  /** open the collapsible section (default closed, so Save Contact stays the first thing) */
  open?: boolean;
  busy?: boolean;
  /** the SPA's handler (prevents the plain post) */
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
}

export function firstNameOf(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] || fullName;
}

const FIELDS: Array<{ name: ContactExchangeField; label: string; type: string; autoComplete: string; max: number; required?: boolean }> = [
  { name: 'name', label: 'Your name', type: 'text', autoComplete: 'name', max: LEAD_LIMITS.nameMax, required: true },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', max: 254 },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', max: 40 },
  { name: 'company', label: 'Company', type: 'text', autoComplete: 'organization', max: LEAD_LIMITS.companyMax },
];

export function ContactExchangeForm(props: ContactExchangeFormProps) {
  const first = firstNameOf(props.ownerName);
  const errors = props.errors ?? {};
  const values = props.values ?? {};
  const err = (f: ContactExchangeField | 'consent') =>
    errors[f] ? (
      <span className="ce-error" id={`ce-${f}-error`}>
        {errors[f]}
      </span>
    ) : null;
  const invalid = (f: ContactExchangeField | 'consent') => (errors[f] ? { 'aria-invalid': true, 'aria-describedby': `ce-${f}-error` } : {});

  return (
    <details className="ce" id="exchange" open={props.open || !!props.sent || undefined}>
      <summary className="ce-summary">Share your contact with {first}</summary>
      {props.sent ? (
        <div className="ce-sent" role="status">
          {props.sent}
        </div>
      ) : (
        <form className="ce-form" method="post" action={props.action} encType="multipart/form-data" onSubmit={props.onSubmit} aria-label={`Share your contact with ${first}`}>
          <p className="ce-intro">Leave your details and {first} receives them by e-mail. Email or phone is enough.</p>
          {props.message ? (
            <p className="ce-error ce-message" role="alert">
              {props.message}
            </p>
          ) : null}
          {FIELDS.map((f) => (
            <label className="ce-field" key={f.name}>
              <span className="ce-label">
                {f.label}
                {f.required ? <span aria-hidden="true"> *</span> : null}
              </span>
              <input
                className="ce-input"
                name={f.name}
                type={f.type}
                autoComplete={f.autoComplete}
                maxLength={f.max}
                required={f.required}
                defaultValue={values[f.name] ?? ''}
                {...invalid(f.name)}
              />
              {err(f.name)}
            </label>
          ))}
          <label className="ce-field">
            <span className="ce-label">Note</span>
            <textarea className="ce-input" name="note" rows={3} maxLength={LEAD_LIMITS.noteMax} defaultValue={values.note ?? ''} {...invalid('note')} />
            {err('note')}
          </label>
          <div className="ce-hp" aria-hidden="true">
            <label>
              Leave this empty
              <input name={LEAD_HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
            </label>
          </div>
          <label className="ce-consent">
            <input name="consent" type="checkbox" value="on" required defaultChecked={!!values.consent} {...invalid('consent')} />
            <span>I agree to share these details with {props.ownerName}, who may contact me.</span>
          </label>
          {err('consent')}
          <button className="ce-submit" type="submit" disabled={props.busy || undefined}>
            {props.busy ? 'Sending…' : 'Send my details'}
          </button>
          <p className="ce-legal">
            How we keep what you send: our <a href="/privacy">Privacy Policy</a>.
          </p>
        </form>
      )}
    </details>
  );
}
