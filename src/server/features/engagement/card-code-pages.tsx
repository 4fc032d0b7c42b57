import type { CSSProperties } from 'react';
import { phoneE164 } from '#shared/profile/phone';
import { renderToStaticMarkup } from 'react-dom/server';
import { BUSINESS } from '#shared/catalogue';
import { PROFILE_CSS } from '#shared/profile/styles';
import { escapeHtml } from '#server/http/html-page';
import type { CompanyContact } from './card-codes.service';

/**
 * What a scan of a turned-off or unknown card code shows: a short, polite page that names no
 * one (a lost card must not lead a finder to its owner's details).
 */
function page(title: string, lines: string[], company?: CompanyContact): string {
  const body = renderToStaticMarkup(
    <div className="pp-page">
      <main className="pp-missing">
        <h1>{title}</h1>
        {lines.map((l) => (
          <p key={l}>{l}</p>
        ))}
        {company ? <CompanyRows company={company} /> : <a href="/">Visit {BUSINESS.name}</a>}
      </main>
    </div>,
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex"><link rel="icon" href="data:,">` +
    `<style>${PROFILE_CSS}</style></head><body style="margin:0">${body}</body></html>`
  );
}

export function deactivatedCodePage(): string {
  return page('This card is no longer active', [
    'The owner of this card has turned off its link, so it no longer opens their profile.',
    'If you know them, please ask for their current card. Thank you for scanning.',
  ]);
}

export function unknownCodePage(): string {
  return page('Card not found', ['We could not find a card with this code. Please check the address and try again.']);
}

export function waitingCodePage(): string {
  return page('This card is almost ready', [
    'Its digital profile has not been set up yet.',
    'Is this your card? Open the "Claim your order" link in your order e-mail to create your profile in one step. Every card of your order will open it.',
  ]);
}

function CompanyRows({ company }: { company: CompanyContact }) {
  return (
    <ul className="pp-rows" aria-label={`How to reach ${company.name}`}>
      {company.phone ? (
        <li className="pp-row">
          <span>
            <span className="pp-row-label">Phone</span>
            <a href={`tel:${company.phone.replace(/[^0-9+*#,]/g, '')}`}>{company.phone}</a>
          </span>
        </li>
      ) : null}
      {company.email ? (
        <li className="pp-row">
          <span>
            <span className="pp-row-label">Email</span>
            <a href={`mailto:${company.email}`}>{company.email}</a>
          </span>
        </li>
      ) : null}
      {company.address ? (
        <li className="pp-row">
          <span>
            <span className="pp-row-label">Address</span>
            {company.address}
          </span>
        </li>
      ) : null}
      {company.website ? (
        <li className="pp-row">
          <span>
            <span className="pp-row-label">Website</span>
            <a href={company.website} rel="noopener">
              {company.website.replace(/^https?:\/\//, '')}
            </a>
          </span>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * A team card whose holder has left the company: who to contact instead (names no person), in the
 * team's brand (its logo on its colour; issue 37, decision 37-04), with the company's contact file.
 */
export function companyCodePage(company: CompanyContact, vcardHref: string): string {
  const title = company.name;
  const body = renderToStaticMarkup(
    <div className="pp-page pp-branded" style={company.primaryColor ? ({ '--pp-primary': company.primaryColor } as CSSProperties) : undefined}>
      <main className="pp-card">
        <div className="pp-header">
          {company.logoUrl ? <img className="pp-header-logo" src={company.logoUrl} alt={`${company.name} logo`} height={48} /> : <span className="pp-header-name">{company.name}</span>}
        </div>
        <div className="pp-body">
          <h1 className="pp-name">{company.name}</h1>
          <p className="pp-title">{`This card was issued by ${company.name} and is no longer in use.`}</p>
          <p className="pp-company">{`To get in touch with ${company.name}, please use the details below. Thank you for scanning.`}</p>
          <a className="pp-save" href={vcardHref} download={true} type="text/vcard">
            Save company contact
          </a>
          <CompanyRows company={company} />
        </div>
      </main>
    </div>,
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex"><link rel="icon" href="data:,">` +
    `<style>${PROFILE_CSS}.pp-header-name{color:#fff;font-weight:700;font-size:18px}</style></head><body style="margin:0">${body}</body></html>`
  );
}

function vcardText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/([,;])/g, '\\$1');
}

/** The company's contact file (vCard 3.0): its name, phone, e-mail, address and website; no person. */
export function companyVcard(company: CompanyContact): string {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${vcardText(company.name)}`, `ORG:${vcardText(company.name)}`, 'X-ABShowAs:COMPANY'];
  if (company.phone) lines.push(`TEL;TYPE=WORK,VOICE:${vcardText(phoneE164(company.phone) ?? company.phone)}`);
  if (company.email) lines.push(`EMAIL;TYPE=INTERNET,WORK:${vcardText(company.email)}`);
  if (company.address) lines.push(`ADR;TYPE=WORK:;;${vcardText(company.address)};;;;`);
  if (company.website) lines.push(`URL:${company.website}`);
  lines.push('END:VCARD');
  return lines.join('\r\n') + '\r\n';
}
