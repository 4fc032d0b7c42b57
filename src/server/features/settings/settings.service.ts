import { eq, sql } from 'drizzle-orm';
import {
  LegalSettings,
  MaxProfileLinks,
  ShopClaims,
  StudioSettings,
  type LegalDocument,
  type ShopSettings,
  type ShopSettingsPutBody,
  type ShopSettingsResponse,
  type SiteLegal,
  type SiteSettings,
  type SiteStudio,
} from '#shared/schemas/settings';
import { SHOP_SETTINGS_DEFAULTS } from '#shared/settings/defaults';
import { STUDIO_ADDRESS_PLACEHOLDER, withMapUrl } from '#shared/settings/studio';
import type { Db, Tx } from '#server/db/client';
import { shopSettings } from '#server/db/schema/settings';

/** Sections whose fields are merged one by one (a PUT may send some of their fields). */
const SECTIONS = { studio: StudioSettings, legal: LegalSettings } as const;
type Section = keyof typeof SECTIONS;
/** Values stored and replaced whole (the claims are one list: sent whole, kept whole). */
const VALUES = { maxProfileLinks: MaxProfileLinks, claims: ShopClaims } as const;
type Value = keyof typeof VALUES;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The stored sections over the defaults, field by field: a field that is missing or no longer valid
 * (a rule changed since it was saved) reads as its default, never as an error.
 */
function merge(stored: unknown): ShopSettings {
  const out = structuredClone(SHOP_SETTINGS_DEFAULTS);
  if (!isRecord(stored)) return out;
  for (const section of Object.keys(SECTIONS) as Section[]) {
    const saved = stored[section];
    if (!isRecord(saved)) continue;
    const shape = SECTIONS[section].shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
    for (const key of Object.keys(shape)) {
      const parsed = shape[key]!.safeParse(saved[key]);
      if (parsed.success) (out[section] as Record<string, unknown>)[key] = parsed.data;
    }
  }
  for (const key of Object.keys(VALUES) as Value[]) {
    const parsed = VALUES[key].safeParse(stored[key]);
    if (parsed.success) (out as Record<Value, unknown>)[key] = parsed.data;
  }
  return out;
}

async function readRow(db: Db | Tx) {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1)).limit(1);
  return row;
}

/** The shop's settings: what staff saved over the spec's defaults. */
export async function getShopSettings(db: Db | Tx): Promise<ShopSettings> {
  return merge((await readRow(db))?.data);
}

/** The studio's details with their map link (pages, the order page and the pickup e-mail). */
export async function getStudio(db: Db | Tx): Promise<SiteStudio> {
  return withMapUrl((await getShopSettings(db)).studio);
}

/** How many links a profile may have (the spec's 3 unless staff changed it; issue 37). */
export async function getMaxProfileLinks(db: Db | Tx): Promise<number> {
  return (await getShopSettings(db)).maxProfileLinks;
}

/** GET /api/site/settings: the claims staff left shown, in their order, and the link limit. */
export async function getSiteSettings(db: Db | Tx): Promise<SiteSettings> {
  const s = await getShopSettings(db);
  return { claims: s.claims.filter((c) => c.shown).map(({ id, text }) => ({ id, text })), maxProfileLinks: s.maxProfileLinks };
}

const LEGAL_TITLES: Record<LegalDocument, string> = { privacy: 'Privacy Policy', terms: 'Terms of Service' };

/** GET /api/site/legal/:document */
export async function getSiteLegal(db: Db | Tx, document: LegalDocument): Promise<SiteLegal> {
  return { document, title: LEGAL_TITLES[document], text: (await getShopSettings(db)).legal[document] };
}

function response(settings: ShopSettings, updatedAt: Date | null): ShopSettingsResponse {
  const placeholders: string[] = [];
  if (settings.studio.address.trim() === STUDIO_ADDRESS_PLACEHOLDER) placeholders.push('studio.address');
  return { ...settings, placeholders, updatedAt: updatedAt ? updatedAt.toISOString() : null };
}

/** GET /api/admin/settings */
export async function getShopSettingsForStaff(db: Db): Promise<ShopSettingsResponse> {
  const row = await readRow(db);
  return response(merge(row?.data), row?.updatedAt ?? null);
}

/**
 * PUT /api/admin/settings: the sections and fields sent replace the stored ones; everything else
 * keeps its value. One row, written with an upsert under a row lock.
 */
export async function putShopSettings(db: Db, body: ShopSettingsPutBody, userId: string): Promise<ShopSettingsResponse> {
  return db.transaction(async (tx) => {
    await tx.insert(shopSettings).values({ id: 1, data: {} }).onConflictDoNothing();
    const [row] = await tx.select().from(shopSettings).where(eq(shopSettings.id, 1)).for('update').limit(1);
    const stored: Record<string, unknown> = isRecord(row?.data) ? { ...row.data } : {};
    for (const section of Object.keys(SECTIONS) as Section[]) {
      const patch = body[section];
      if (patch) stored[section] = { ...(isRecord(stored[section]) ? stored[section] : {}), ...patch };
    }
    for (const key of Object.keys(VALUES) as Value[]) {
      if (body[key] !== undefined) stored[key] = body[key];
    }
    const [saved] = await tx
      .update(shopSettings)
      .set({ data: stored, updatedBy: userId, updatedAt: sql`now()` })
      .where(eq(shopSettings.id, 1))
      .returning();
    return response(merge(saved.data), saved.updatedAt);
  });
}
