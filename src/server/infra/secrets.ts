import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client';
import { appSecrets } from '#server/db/schema/index';
import { randomToken } from './crypto';

/** A secret generated once and shared by every instance through the database. */
export async function sharedSecret(db: Db, name: string): Promise<string> {
  await db.insert(appSecrets).values({ name, value: randomToken(48) }).onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
  return row.value;
}
