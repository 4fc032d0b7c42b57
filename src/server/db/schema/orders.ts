import { pgTable, text, timestamp, uuid, integer, boolean, serial, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './auth';

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
    /** where the cards go (issue 35): { name, line1, line2?, city, state, postalCode, country }; null for pickup */
    shippingAddress: jsonb('shipping_address'),
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
    /** the caller's key (Idempotency-Key header or form token), unique within its scope (issue 33) */
    idempotencyKey: text('idempotency_key'),
    /**
     * whose key it is: `user:<id>` (signed in), `team:<id>` (a team's order), `visitor:<hmac>` (signed
     * out: the visitor's form session, or their address when no session is sent); another scope's
     * replay of the same key never finds this order
     */
    idempotencyScope: text('idempotency_scope'),
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
    /** the online store's order paid for this one (issue 35, decision 35-01): its id, name (#1001), what it charged */
    storeOrderId: text('store_order_id').unique('orders_store_order_idx'),
    storeOrderName: text('store_order_name'),
    storeTotalCents: integer('store_total_cents'),
    /** the tax the store collected, in cents (null: not known) */
    storeTaxCents: integer('store_tax_cents'),
    /** the shipping address the store collected (its own field names, as received) */
    storeShippingAddress: jsonb('store_shipping_address'),
    storeCancelledAt: timestamp('store_cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** admin search: lower-cased "name email #id", kept by the database (one narrow column to scan; see docs/decisions/08-01-order-search.md) */
    searchText: text('search_text').generatedAlwaysAs(sql`lower(customer_name || ' ' || email || ' #' || id::text)`),
    /** placed while no admin account existed (nobody was told): the first admin's to-do (issue 37, decision 37-02) */
    placedWithoutStaff: boolean('placed_without_staff').notNull().default(false),
    /** when staff marked such an order seen (it leaves the to-do) */
    staffSeenAt: timestamp('staff_seen_at', { withTimezone: true }),
    staffSeenBy: uuid('staff_seen_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('orders_status_idx').on(t.status),
    index('orders_created_idx').on(t.createdAt),
    index('orders_user_idx').on(t.userId),
    index('orders_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('orders_idempotency_scope_key_idx').on(t.idempotencyScope, t.idempotencyKey),
    index('orders_staff_todo_idx').on(t.createdAt).where(sql`${t.placedWithoutStaff} and ${t.staffSeenAt} is null`),
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
    /** a staff override's reason (issue 35: production started unpaid) */
    note: text('note'),
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

/**
 * Money received on an order and money handed back (issue 35, decision 35-01): staff record payments
 * in invoice mode, the online store's webhooks record its payments and refunds. `amount_cents` is
 * always positive; `kind` says which way it went. `external_id` (the store's order or refund) makes a
 * store event count once, whichever webhook delivers it.
 */
export const orderPayments = pgTable(
  'order_payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** payment | refund */
    kind: text('kind').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    method: text('method').notNull(),
    reference: text('reference'),
    /** the store said this payment settles its order (orders/paid) */
    settles: boolean('settles').notNull().default(false),
    /** staff | store */
    source: text('source').notNull(),
    externalId: text('external_id').unique('order_payments_external_idx'),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    recordedByLabel: text('recorded_by_label').notNull().default('staff'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_payments_order_idx').on(t.orderId)],
);

/**
 * The online store's webhooks, one row per `X-Shopify-Webhook-Id`: a repeated id is acknowledged and
 * ignored. An event whose order we cannot find yet (a refund before the order's paid event) keeps its
 * payload as `unmatched` and is applied when the store order is linked.
 */
export const storeWebhookEvents = pgTable(
  'store_webhook_events',
  {
    webhookId: text('webhook_id').primaryKey(),
    topic: text('topic').notNull(),
    storeOrderId: text('store_order_id'),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** handled | unmatched | ignored */
    status: text('status').notNull(),
    payload: jsonb('payload'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
  },
  (t) => [index('store_webhook_events_store_order_idx').on(t.storeOrderId)],
);
