import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { teams } from './team';

/**
 * Things that happened (issue 23, decision 23-02): written by `recordEvent` in the same transaction
 * as the change, so a rolled-back change emits nothing. The webhook worker fans each one out to the
 * matching endpoints and deletes it in the same transaction (the deliveries keep the payload).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    /** whose event it is (their own endpoints get it); null: nobody's (a signed-out visitor's order) */
    userId: uuid('user_id'),
    /** the team it also belongs to (the team's endpoints get it) */
    teamId: uuid('team_id'),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
);

/** A URL a user (or a team's admin, for the team) registered; the secret signs every delivery. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: jsonb('events').$type<string[]>().notNull(),
    /** `whsec_` + base64 of 32 random bytes; shown once (decision 23-02 says why it is not encrypted) */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId), index('webhook_endpoints_team_idx').on(t.teamId)],
);

/** One event for one endpoint: sent in order per endpoint, retried with backoff for 24 hours. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** null for test events and redeliveries (a redelivery repeats its original's message id) */
    eventId: bigint('event_id', { mode: 'number' }),
    /** the `webhook-id` header: the same on every attempt and redelivery of one message */
    messageId: text('message_id').notNull(),
    type: text('type').notNull(),
    /** the exact JSON body sent */
    payload: text('payload').notNull(),
    /** pending | delivered | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('webhook_deliveries_event_endpoint_uq').on(t.eventId, t.endpointId), index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.status, t.id)],
);
