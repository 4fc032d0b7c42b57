import { eq, sql } from 'drizzle-orm';
import { ShopSettings, StudioSettings, type ShopSettingsPutBody, type ShopSettingsResponse, type SiteStudio } from '#shared/schemas/settings';
import { SHOP_SETTINGS_DEFAULTS, STUDIO_ADDRESS_PLACEHOLDER, withMapUrl } from '#shared/settings/studio';
import type { Db, Tx } from '#server/db/client';
import { shopSettings } from '#server/db/schema/settings';

type Section = keyof ShopSettings;
const SECTIONS: Record<Section, typeof StudioSettings> = { studio: StudioSettings };

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
    const shape = SECTIONS[section].shape;
    for (const key of Object.keys(shape) as Array<keyof typeof shape>) {
      const parsed = shape[key].safeParse(saved[key]);
      if (parsed.success) (out[section] as Record<string, unknown>)[key] = parsed.data;
    }
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
export async function putShopSettings(db: Db, body: ShopSettingsPutBody & Partial<Record<Section, object>>, userId: string): Promise<ShopSettingsResponse> {
  return db.transaction(async (tx) => {
    await tx.insert(shopSettings).values({ id: 1, data: {} }).onConflictDoNothing();
    const [row] = await tx.select().from(shopSettings).where(eq(shopSettings.id, 1)).for('update').limit(1);
    const stored: Record<string, unknown> = isRecord(row?.data) ? { ...row.data } : {};
    for (const section of Object.keys(SECTIONS) as Section[]) {
      const patch = body[section];
      if (patch) stored[section] = { ...(isRecord(stored[section]) ? stored[section] : {}), ...patch };
    }
    const [saved] = await tx
      .update(shopSettings)
      .set({ data: stored, updatedBy: userId, updatedAt: sql`now()` })
      .where(eq(shopSettings.id, 1))
      .returning();
    return response(merge(saved.data), saved.updatedAt);
  });
}
