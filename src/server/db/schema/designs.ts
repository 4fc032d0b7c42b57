import { pgTable, text, timestamp, uuid, integer, serial, jsonb, index } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orders } from './orders';

// Tables of the `designs` capability (issue 34): written only by `server/features/designs`.

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

/** The design review loop of an order (issue 20): submitted, rejected (reason), resubmitted, approved. */
export const designEvents = pgTable(
  'design_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    cardId: integer('card_id').notNull(),
    /** submitted | rejected | resubmitted | approved */
    kind: text('kind').notNull(),
    reason: text('reason'),
    actorLabel: text('actor_label').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('design_events_order_idx').on(t.orderId), index('design_events_card_idx').on(t.cardId)],
);
