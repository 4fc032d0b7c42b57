import { pgTable, text, timestamp, uuid, integer, boolean, serial, index } from 'drizzle-orm/pg-core';
import { users } from './auth';

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
