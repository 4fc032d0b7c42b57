import { z } from 'zod';
import { multiLine, singleLine } from './common';

/**
 * The shop's settings (issue 35, decision 35-02): sections of values staff edit in Admin > Settings,
 * stored as one JSON row; whatever is not stored reads as its default here (the spec's values,
 * decisions.md "Shop settings"). A new section is one more key in {@link ShopSettings} and
 * `SHOP_SETTINGS_DEFAULTS` (`#shared/settings/studio`, no zod there); PUT takes any part of it.
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

export const ShopSettings = z.strictObject({ studio: StudioSettings });
export type ShopSettings = z.infer<typeof ShopSettings>;

/** PUT /api/admin/settings: any sections, any of their fields; what is left out keeps its value. */
export const ShopSettingsPutBody = z.strictObject({
  studio: StudioSettings.partial().optional(),
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
