import { pgTable, text, timestamp, uuid, integer, boolean, serial, index } from 'drizzle-orm/pg-core';
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
    /** the owner's label for the link (a custom link's button text; decision 37-03), or null */
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profile_links_profile_idx').on(t.profileId)],
);
