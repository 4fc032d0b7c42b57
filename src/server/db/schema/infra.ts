import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid, integer, bigserial, index } from 'drizzle-orm/pg-core';
import { users } from './auth';

/** Secrets generated once and shared by every instance (e.g. the session pepper when SESSION_SECRET is unset). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Fixed-window counters shared by every instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

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
    /** the order the e-mail is about, if any (staff search the outbox by order number; issue 37) */
    orderId: integer('order_id'),
  },
  (t) => [index('outbox_status_next_idx').on(t.status, t.nextAttemptAt), index('outbox_order_idx').on(t.orderId).where(sql`${t.orderId} is not null`)],
);
