import { pgTable, text, timestamp, uuid, integer, boolean, serial, jsonb, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users';

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    customerName: text('customer_name').notNull(),
    email: text('email').notNull(),
    rating: integer('rating').notNull(),
    title: text('title').notNull(),
    comment: text('comment').notNull(),
    orderNumber: text('order_number'),
    verified: boolean('verified').notNull().default(false),
    hidden: boolean('hidden').notNull().default(false),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: uuid('verified_by').references(() => users.id, { onDelete: 'set null' }),
    /** how it was verified: purchase (a proven order) | staff; null while unverified */
    verifiedVia: text('verified_via'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reviews_verified_idx').on(t.verified, t.hidden)],
);

export const subscribers = pgTable(
  'subscribers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscribers_email_lower_uq').on(sql`lower(${t.email})`)],
);

/** Results of the site's own link check (shown in the admin testing summary). */
export const linkChecks = pgTable('link_checks', {
  id: serial('id').primaryKey(),
  totalPages: integer('total_pages').notNull(),
  okPages: integer('ok_pages').notNull(),
  details: jsonb('details').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});
