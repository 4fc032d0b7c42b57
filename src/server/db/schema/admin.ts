import { pgTable, timestamp, integer, serial, jsonb } from 'drizzle-orm/pg-core';

/** Results of the site's own link check (shown in the admin testing summary). */
export const linkChecks = pgTable('link_checks', {
  id: serial('id').primaryKey(),
  totalPages: integer('total_pages').notNull(),
  okPages: integer('ok_pages').notNull(),
  details: jsonb('details').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});
