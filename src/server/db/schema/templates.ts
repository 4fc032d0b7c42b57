import { pgTable, text, timestamp, uuid, integer, boolean, serial, jsonb, index, unique } from 'drizzle-orm/pg-core';
import { users } from './users';

export const templates = pgTable('templates', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  category: text('category').notNull().default('Business Card'),
  folder: text('folder').notNull().unique(),
  isActive: boolean('is_active').notNull().default(true),
  frontSvg: text('front_svg'),
  backSvg: text('back_svg'),
  notes: text('notes'),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** Every version of a template's SVG files (issue 20): the manager previews, checks and rolls back. */
export const templateVersions = pgTable(
  'template_versions',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    frontSvg: text('front_svg'),
    backSvg: text('back_svg'),
    notes: text('notes'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('template_versions_template_version_uniq').on(t.templateId, t.version)],
);

/** A designed card: submitted for review, linked to its order. Shown on the dashboard as the user's cards. */
export const cards = pgTable(
  'cards',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    profileId: text('profile_id'),
    templateId: integer('template_id').notNull(),
    cardType: text('card_type').notNull().default('standard'),
    customerProfile: jsonb('customer_profile').notNull(),
    customizations: jsonb('customizations'),
    frontImageUrl: text('front_image_url'),
    backImageUrl: text('back_image_url'),
    qrCodeUrl: text('qr_code_url'),
    /** pending | approved | rejected */
    status: text('status').notNull().default('pending'),
    reviewNotes: text('review_notes'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    orderId: integer('order_id'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('cards_user_idx').on(t.userId), index('cards_status_idx').on(t.status)],
);
