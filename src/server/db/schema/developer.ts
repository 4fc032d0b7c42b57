import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { teams } from './team';

/**
 * API access tokens (issue 23, decision 23-01). Only the sha256 of the secret is stored; the
 * prefix (the first characters of the secret) is what lists show. A team token (team_id set) acts
 * as its creator within that team while the creator is still one of its admins.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull().unique('api_tokens_hash_uq'),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** why it ended when the owner did not revoke it by hand (password reset, left the team; issue 33) */
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId, t.createdAt)],
);
