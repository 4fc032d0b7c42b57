import { z } from 'zod';
import { multiLine, singleLine } from './common';

/**
 * The shop's settings (issue 35, decision 35-02): sections of values staff edit in Admin > Settings,
 * stored as one JSON row; whatever is not stored reads as its default here (the spec's values,
 * decisions.md "Shop settings"). A new section is one more key in {@link ShopSettings} and
 * `SHOP_SETTINGS_DEFAULTS` (`#shared/settings/defaults`, no zod there); PUT takes any part of it.
 */

export const StudioSettings = z.strictObject({
  /** the studio's postal address, one line per row (the map link joins them) */
  address: multiLine(300, 'Address').pipe(z.string().min(1, 'Enter the studio address')),
  phone: singleLine(40, 'Phone').pipe(z.string().min(1, 'Enter the studio phone number')),
  /** opening hours, one line per row: "Mon-Fri 9:00-6:00 EST" */
  hours: multiLine(500, 'Hours').pipe(z.string().min(1, 'Enter the opening hours')),
  pickupInstructions: multiLine(1000, 'Pickup instructions'),
});
export type StudioSettings = z.infer<typeof StudioSettings>;

/** The links a profile may have (issue 37: the spec's 3 is the default; staff may raise it to 50). */
export const MAX_PROFILE_LINKS_RANGE = { min: 1, max: 50 } as const;
const linksMessage = `Enter a whole number from ${MAX_PROFILE_LINKS_RANGE.min} to ${MAX_PROFILE_LINKS_RANGE.max}`;
export const MaxProfileLinks = z
  .number({ error: linksMessage })
  .int(linksMessage)
  .min(MAX_PROFILE_LINKS_RANGE.min, linksMessage)
  .max(MAX_PROFILE_LINKS_RANGE.max, linksMessage);

/** A claim the shop makes on its pages ("98% customer satisfaction"): staff edit its text or hide it (issue 37). */
export const ShopClaim = z.strictObject({
  /** a stable name (the page picks its icon by it): lower-case letters, digits and dashes */
  id: z
    .string({ error: 'Give the claim an id' })
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'A claim id is 1-40 lower-case letters, digits or dashes'),
  text: singleLine(80, 'Claim').pipe(z.string().min(1, 'Enter the claim, or untick Shown to hide it')),
  shown: z.boolean({ error: 'Shown must be true or false' }),
});
export type ShopClaim = z.infer<typeof ShopClaim>;
export const CLAIMS_MAX = 12;
export const ShopClaims = z
  .array(ShopClaim, { error: 'Claims must be a list' })
  .max(CLAIMS_MAX, `At most ${CLAIMS_MAX} claims`)
  .superRefine((claims, ctx) => {
    const seen = new Set<string>();
    claims.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'Each claim needs its own id' });
      seen.add(c.id);
    });
  });

/** The privacy policy and the terms of service: plain text, a blank line between paragraphs, "## " starts a heading, "- " a list item. */
export const LEGAL_TEXT_MAX = 20_000;
export const LegalSettings = z.strictObject({
  privacy: multiLine(LEGAL_TEXT_MAX, 'Privacy policy').pipe(z.string().min(1, 'Enter the privacy policy')),
  terms: multiLine(LEGAL_TEXT_MAX, 'Terms of service').pipe(z.string().min(1, 'Enter the terms of service')),
});
export type LegalSettings = z.infer<typeof LegalSettings>;

export const ShopSettings = z.strictObject({
  studio: StudioSettings,
  maxProfileLinks: MaxProfileLinks,
  claims: ShopClaims,
  legal: LegalSettings,
});
export type ShopSettings = z.infer<typeof ShopSettings>;

/**
 * PUT /api/admin/settings: any sections, any of their fields; what is left out keeps its value.
 * `claims` is sent whole (the list as it should be: edit a text, tick or untick Shown).
 */
export const ShopSettingsPutBody = z.strictObject({
  studio: StudioSettings.partial().optional(),
  maxProfileLinks: MaxProfileLinks.optional(),
  claims: ShopClaims.optional(),
  legal: LegalSettings.partial().optional(),
});
export type ShopSettingsPutBody = z.input<typeof ShopSettingsPutBody>;

/** GET and PUT /api/admin/settings: every section with its values, and which fields still hold a placeholder. */
export const ShopSettingsResponse = ShopSettings.extend({
  /** fields staff still have to fill in ("studio.address" while it reads only the city) */
  placeholders: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type ShopSettingsResponse = z.infer<typeof ShopSettingsResponse>;

/** GET /api/site/studio: the studio's details for pages (Help, About, the order page). */
export const SiteStudioResponse = StudioSettings.extend({ mapUrl: z.string() });
export type SiteStudio = z.infer<typeof SiteStudioResponse>;

/** GET /api/site/settings: what public pages show of the settings (the claims staff left shown, in order; the link limit). */
export const SiteSettingsResponse = z.object({
  claims: z.array(z.object({ id: z.string(), text: z.string() })),
  maxProfileLinks: z.number().int(),
});
export type SiteSettings = z.infer<typeof SiteSettingsResponse>;

export const LEGAL_DOCUMENTS = ['privacy', 'terms'] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];
export const SiteLegalParams = z.object({ document: z.enum(LEGAL_DOCUMENTS, { error: 'Unknown document' }) });

/** GET /api/site/legal/:document: the privacy policy or the terms of service as staff set them. */
export const SiteLegalResponse = z.object({
  document: z.enum(LEGAL_DOCUMENTS),
  title: z.string(),
  text: z.string(),
});
export type SiteLegal = z.infer<typeof SiteLegalResponse>;
