import { pgTable, integer, jsonb, timestamp, uuid, check } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * The shop's settings (issue 35, decision 35-02): one row (id 1) of JSON sections (`studio` now;
 * claims and link limits later). What is not stored reads as the defaults in
 * `src/shared/schemas/settings.ts` (the spec's values).
 */
export const shopSettings = pgTable(
  'shop_settings',
  {
    id: integer('id').primaryKey().default(1),
    data: jsonb('data').notNull().default({}),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('shop_settings_one_row', sql`${t.id} = 1`)],
);
