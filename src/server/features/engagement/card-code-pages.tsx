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

/** A team card whose holder has left the company: who to contact instead (names no person). */
export function companyCodePage(company: CompanyContact): string {
  return page(`${company.name}`, [
    `This card was issued by ${company.name} and is no longer in use.`,
    `To get in touch with ${company.name}, please use the details below. Thank you for scanning.`,
  ], company);
}
