import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The identity audit log (issue 39, decision 39-02): sign-ins and failures, factor and passkey
 * changes, SSO and SCIM configuration, every SCIM operation. Kept AUDIT_LOG_RETENTION_DAYS days.
 * No foreign keys: an entry outlives the account or team it names (the e-mail is kept as text).
 */
export const identityEvents = pgTable(
  'identity_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    teamId: uuid('team_id'),
    /** who did it (null: a SCIM client, an anonymous sign-in attempt) */
    actorId: uuid('actor_id'),
    /** whom it concerns */
    userId: uuid('user_id'),
    email: text('email'),
    kind: text('kind').notNull(),
    outcome: text('outcome').notNull().default('success'),
    ip: text('ip').notNull().default(''),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('identity_events_at_idx').on(t.at), index('identity_events_team_idx').on(t.teamId, t.at), index('identity_events_user_idx').on(t.userId, t.at)],
);
