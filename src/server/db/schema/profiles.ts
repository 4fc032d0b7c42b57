import { pgTable, text, timestamp, uuid, integer, boolean, serial, bigserial, index, jsonb } from 'drizzle-orm/pg-core';
import { users } from './users';

export const profiles = pgTable('profiles', {
  /** short random id printed on metal (never changes) */
  id: text('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  fullName: text('full_name').notNull(),
  jobTitle: text('job_title'),
  email: text('email'),
  phoneNumber: text('phone_number'),
  address: text('address'),
  companyName: text('company_name'),
  profileTemplate: text('profile_template').notNull().default('classic'),
  customPhotoUrl: text('custom_photo_url'),
  logoUrl: text('logo_url'),
  bannerLogoUrl: text('banner_logo_url'),
  templateId: integer('template_id').notNull().default(17),
  cardType: text('card_type').notNull().default('standard'),
  leadFormEnabled: boolean('lead_form_enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const profileLinks = pgTable(
  'profile_links',
  {
    id: serial('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    linkType: text('link_type').notNull(),
    url: text('url').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profile_links_profile_idx').on(t.profileId)],
);

/** Every stored file (uploads, rendered cards); the bytes live in the storage backend under `key`. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    key: text('key').notNull().unique(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** sha256 of the upload's own token, for files stored signed out (the holder of the token owns it) */
    ownerTokenHash: text('owner_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_user_idx').on(t.userId)],
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
