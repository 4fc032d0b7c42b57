import { renderToStaticMarkup } from 'react-dom/server';
import { BUSINESS } from '#shared/catalogue';
import { PROFILE_CSS } from '#shared/profile/styles';

/**
 * What a scan of a turned-off or unknown card code shows: a short, polite page that names no
 * one (a lost card must not lead a finder to its owner's details).
 */
function page(title: string, lines: string[]): string {
  const body = renderToStaticMarkup(
    <div className="pp-page">
      <main className="pp-missing">
        <h1>{title}</h1>
        {lines.map((l) => (
          <p key={l}>{l}</p>
        ))}
        <a href="/">Visit {BUSINESS.name}</a>
      </main>
    </div>,
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${title}</title><meta name="robots" content="noindex"><link rel="icon" href="data:,">` +
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
