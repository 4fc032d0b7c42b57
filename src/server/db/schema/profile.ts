import { pgTable, text, timestamp, uuid, integer, boolean, serial, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';

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
  /** the short address /@{handle} (lower case; decision 37-04), or null */
  handle: text('handle'),
  /** the handle's skeleton (#shared/profile/handle): what uniqueness compares */
  handleKey: text('handle_key'),
  /** the handle before the last change: redirects to the profile until previousHandleUntil */
  previousHandle: text('previous_handle'),
  previousHandleKey: text('previous_handle_key'),
  previousHandleUntil: timestamp('previous_handle_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('profiles_handle_idx').on(t.handle),
  uniqueIndex('profiles_handle_key_idx').on(t.handleKey),
  uniqueIndex('profiles_previous_handle_key_idx').on(t.previousHandleKey),
  index('profiles_previous_handle_idx').on(t.previousHandle),
]);

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
    /** the owner's label for the link (a custom link's button text; decision 37-03), or null */
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profile_links_profile_idx').on(t.profileId)],
);
