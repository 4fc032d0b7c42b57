import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { PROFILE_CSS } from '#shared/profile/styles';
import { profileLeadsPath, publicProfilePath } from '#shared/routes';
import { CONTACT_EXCHANGE_CSS } from '#shared/engagement/styles';
import { ContactExchangeForm, firstNameOf, type ContactExchangeFormProps } from '#shared/engagement/contact-exchange-form';
import type { PublicProfile } from '#shared/schemas/profile';
import { escapeHtml } from '#server/http/html-page';

/**
 * The small pages of the contact exchange without JavaScript: the plain form posts, then the
 * visitor sees a thank-you page (after a 303), the form again with the field messages, or a
 * short explanation (form off, too many tries). Same look as the public profile, no scripts.
 */

function doc(title: string, body: ReactNode): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex"><link rel="icon" href="data:,">` +
    `<style>${PROFILE_CSS}${CONTACT_EXCHANGE_CSS}.ce-page{padding-top:28px}.ce-actions{display:grid;gap:10px;margin:20px 0 0}</style>` +
    `</head><body style="margin:0">${renderToStaticMarkup(<>{body}</>)}</body></html>`
  );
}

type PageProfile = Pick<PublicProfile, 'id' | 'fullName' | 'profileTemplate'>;

function Shell({ profile, children }: { profile: PageProfile | null; children: ReactNode }) {
  return (
    <div className={`pp-page${profile ? ` pp-${profile.profileTemplate}` : ''}`}>
      <main className="pp-card">
        <div className="pp-body ce-page">{children}</div>
      </main>
    </div>
  );
}

export function leadThanksPage(profile: PageProfile): string {
  const first = firstNameOf(profile.fullName);
  return doc(
    'Thank you',
    <Shell profile={profile}>
      <h1 className="pp-name">Thank you!</h1>
      <p className="pp-title" role="status">
        Your details were sent to {profile.fullName}.
      </p>
      <div className="ce-actions">
        <a className="pp-save" href={`/api/vcard/${profile.id}`}>
          Save {first}&apos;s contact
        </a>
        <a className="pp-link" href={publicProfilePath(profile.id)}>
          Back to {first}&apos;s profile
        </a>
      </div>
    </Shell>,
  );
}

export function leadFormErrorPage(profile: PageProfile, form: Pick<ContactExchangeFormProps, 'values' | 'errors' | 'message'>): string {
  return doc(
    'Please check your details',
    <Shell profile={profile}>
      <h1 className="pp-name">Please check your details</h1>
      <ContactExchangeForm ownerName={profile.fullName} action={profileLeadsPath(profile.id)} open {...form} />
      <div className="ce-actions">
        <a className="pp-link" href={publicProfilePath(profile.id)}>
          Back to {firstNameOf(profile.fullName)}&apos;s profile
        </a>
      </div>
    </Shell>,
  );
}

export function leadMessagePage(profile: PageProfile | null, title: string, message: string): string {
  return doc(
    title,
    <Shell profile={profile}>
      <h1 className="pp-name">{title}</h1>
      <p className="pp-title">{message}</p>
      <div className="ce-actions">
        <a className="pp-link" href={profile ? publicProfilePath(profile.id) : '/'}>
          {profile ? `Back to ${firstNameOf(profile.fullName)}'s profile` : 'Go to the home page'}
        </a>
      </div>
    </Shell>,
  );
}
