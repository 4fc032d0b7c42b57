import { BUSINESS } from '#shared/catalogue';
import type { ShopClaim, ShopSettings } from '#shared/schemas/settings';
import { PRIVACY_POLICY_DEFAULT, TERMS_OF_SERVICE_DEFAULT } from './legal-texts';
import { STUDIO_DEFAULTS } from './studio';

/**
 * The shop settings' defaults: the spec's values (decisions.md "Shop settings", visitor-areas.md
 * "Fixed claims"), what every page shows until staff change them in Admin > Settings. The server
 * reads stored values over these field by field (decision 35-02); the web never loads this file
 * (the legal texts are long): pages read the settings through the API.
 */

/**
 * The spec's fixed claims the pages state as claims (on /reviews): staff edit or hide them. The
 * spec's other fixed figures are not claims but facts the product computes (decision 37-01): the
 * production time and delivery days (the one delivery promise, decision 35-02), volume discounts
 * (the catalogue's price tiers), the link limit (`maxProfileLinks`) and the reply time (Help).
 */
export const DEFAULT_CLAIMS: ShopClaim[] = [
  { id: 'satisfaction', text: `${BUSINESS.claims.satisfaction} customer satisfaction`, shown: true },
  { id: 'average-delivery', text: `${BUSINESS.claims.averageDelivery} average delivery`, shown: true },
];

export const SHOP_SETTINGS_DEFAULTS: ShopSettings = {
  studio: STUDIO_DEFAULTS,
  maxProfileLinks: BUSINESS.claims.maxLinks,
  claims: DEFAULT_CLAIMS,
  legal: { privacy: PRIVACY_POLICY_DEFAULT, terms: TERMS_OF_SERVICE_DEFAULT },
};
