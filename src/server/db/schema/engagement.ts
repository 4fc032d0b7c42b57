import { pgTable, text, timestamp, uuid, integer, boolean, serial, bigserial, jsonb, index, primaryKey, date } from 'drizzle-orm/pg-core';
import { profiles } from './profile';

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

export const visits = pgTable(
  'visits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * The profile viewed. No foreign key (drizzle/0017_visit_batches.sql): the per-row check cost
     * as much as the rest of the insert. The rollup trigger's upsert into engagement_daily, which
     * has the key, fails a statement with an unknown profile, and a trigger on profiles deletes
     * the visits of a deleted profile.
     */
    profileId: text('profile_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent').notNull().default(''),
    device: text('device').notNull().default('Unknown'),
    /** card | link | direct */
    source: text('source').notNull().default('direct'),
    cardCode: text('card_code'),
  },
  (t) => [index('visits_profile_created_idx').on(t.profileId, t.createdAt)],
);

/**
 * One row per batch of public-page events the visit flusher wrote (visit-flusher.ts), in the same
 * transaction as the events: a batch retried after its commit went unacknowledged finds its key and
 * is not written twice. Keys older than a day are pruned.
 */
export const visitBatches = pgTable('visit_batches', {
  key: text('key').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const linkClicks = pgTable(
  'link_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    linkId: integer('link_id'),
    linkType: text('link_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('link_clicks_profile_created_idx').on(t.profileId, t.createdAt)],
);

export const contactSaves = pgTable(
  'contact_saves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_saves_profile_created_idx').on(t.profileId, t.createdAt)],
);

export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    company: text('company'),
    note: text('note'),
    consent: boolean('consent').notNull(),
    /** the team the profile's owner belonged to when the lead came in: the team keeps it (issue 21) */
    teamId: uuid('team_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('leads_profile_idx').on(t.profileId)],
);

/** Per-card-batch short codes: /c/{code} */
export const cardCodes = pgTable(
  'card_codes',
  {
    code: text('code').primaryKey(),
    /** null until the order's buyer has a profile (a visitor's order waits for its claim, issue 20) */
    profileId: text('profile_id').references(() => profiles.id, { onDelete: 'cascade' }),
    orderId: integer('order_id'),
    label: text('label').notNull().default(''),
    active: boolean('active').notNull().default(true),
    meta: jsonb('meta'),
    /** a team order's code (issue 21): turned off when the member leaves, then it shows the company */
    teamId: uuid('team_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
  },
  (t) => [index('card_codes_profile_idx').on(t.profileId), index('card_codes_order_idx').on(t.orderId)],
);
