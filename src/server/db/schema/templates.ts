import { pgTable, text, timestamp, uuid, integer, boolean, serial, unique } from 'drizzle-orm/pg-core';
import { users } from './auth';

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
