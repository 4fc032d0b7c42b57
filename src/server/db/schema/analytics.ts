import { pgTable, text, integer, date, primaryKey } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';

/**
 * Daily analytics rollups (issue 18, decision 18-02): one row per profile, UTC day, kind
 * (view | save | click) and, for views, source and card code, for clicks, the link. Kept current
 * by statement-level triggers on visits, link_clicks and contact_saves (drizzle/0003_*.sql), so
 * each batch the visit flusher writes updates its rollups in the same transaction. The stats
 * endpoints read these instead of counting raw rows.
 */
export const engagementDaily = pgTable(
  'engagement_daily',
  {
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** view | save | click */
    kind: text('kind').notNull(),
    /** views: card | link | direct; '' otherwise */
    source: text('source').notNull().default(''),
    /** views from a card batch: its code; '' otherwise */
    cardCode: text('card_code').notNull().default(''),
    /** clicks: the profile link's id (0 when unknown); 0 otherwise */
    linkId: integer('link_id').notNull().default(0),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.day, t.kind, t.source, t.cardCode, t.linkId] })],
);
