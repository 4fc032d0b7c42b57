import { pgTable, text, timestamp, uuid, integer, serial, jsonb, index, bigserial } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users';

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    cardId: integer('card_id'),
    /** pending | processing | in-production | shipped | completed | cancelled */
    status: text('status').notNull().default('pending'),
    customerName: text('customer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    companyName: text('company_name'),
    position: text('position'),
    address: text('address'),
    quantity: integer('quantity').notNull(),
    cardType: text('card_type').notNull(),
    cardStyle: text('card_style').notNull(),
    deliveryOption: text('delivery_option').notNull(),
    specialRequests: text('special_requests'),
    artworkUrl: text('artwork_url'),
    templateId: integer('template_id'),
    /** price snapshot, in cents, at the time of sale */
    unitPriceCents: integer('unit_price_cents').notNull(),
    deliveryFeeCents: integer('delivery_fee_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    priceSnapshot: jsonb('price_snapshot').notNull(),
    /** unguessable token for the customer's order status page */
    statusToken: text('status_token').notNull().unique(),
    idempotencyKey: text('idempotency_key').unique(),
    checkoutUrl: text('checkout_url'),
    internalNotes: text('internal_notes'),
    /** order-form | design */
    source: text('source').notNull().default('order-form'),
    anonymizedAt: timestamp('anonymized_at', { withTimezone: true }),
    /** a visitor's order: sha256 of the single-use claim link's token (null once claimed or attached) */
    claimTokenHash: text('claim_token_hash').unique('orders_claim_token_idx'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** a team's order for several members (issue 21) */
    teamId: uuid('team_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** admin search: lower-cased "name email #id", kept by the database (one narrow column to scan; see docs/decisions/08-01-order-search.md) */
    searchText: text('search_text').generatedAlwaysAs(sql`lower(customer_name || ' ' || email || ' #' || id::text)`),
  },
  (t) => [
    index('orders_status_idx').on(t.status),
    index('orders_created_idx').on(t.createdAt),
    index('orders_user_idx').on(t.userId),
    index('orders_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedByLabel: text('changed_by_label').notNull().default('system'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId)],
);

export const orderNotes = pgTable(
  'order_notes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorLabel: text('author_label').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_notes_order_idx').on(t.orderId)],
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

/** Durable e-mail outbox: written in the same transaction as the event, sent by the worker. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** the event this e-mail is for; unique so one event never yields two e-mails */
    dedupeKey: text('dedupe_key').notNull().unique(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** pending | sent | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_status_next_idx').on(t.status, t.nextAttemptAt)],
);
