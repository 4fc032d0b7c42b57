import { BUSINESS } from '#shared/catalogue';
import type { SiteStudio, StudioSettings } from '#shared/schemas/settings';

/**
 * The shop settings' defaults and the studio's map link, without zod: Help, About and the order
 * page show the studio from here, and those pages load no validation library (first-load budget,
 * tests/e2e/shell-qa.e2e.ts). The contracts are in `#shared/schemas/settings`.
 */

/** The spec names the city but no street: until staff set it, pages show this (and Admin says so). */
export const STUDIO_ADDRESS_PLACEHOLDER = BUSINESS.city;

/** The studio section's defaults (the whole settings' are `SHOP_SETTINGS_DEFAULTS`, `#shared/settings/defaults`). */
export const STUDIO_DEFAULTS: StudioSettings = {
  address: STUDIO_ADDRESS_PLACEHOLDER,
  phone: BUSINESS.phone,
  hours: BUSINESS.hours.map((h) => `${h.days} ${h.time}`).join('\n'),
  pickupInstructions: 'Bring your pickup code (in the e-mail that says your cards are ready) and collect your cards during opening hours.',
};

/** A Google Maps search link for an address (lines joined with commas). */
export function mapSearchUrl(address: string): string {
  const query = address
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** The studio's details with their map link (server answers, e-mails and the order page). */
export function withMapUrl(studio: StudioSettings): SiteStudio {
  return { ...studio, mapUrl: mapSearchUrl(studio.address) };
}
