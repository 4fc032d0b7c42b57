import { pgTable, text, timestamp, uuid, integer, jsonb, unique, primaryKey } from 'drizzle-orm/pg-core';
import { users } from './auth';

/**
 * Teams (issue 21): a company runs the cards of its people. The brand (logo, colours, layout,
 * card template, locked fields) is one JSON document read with every member's public page
 * (`src/shared/team/brand.ts` says what it holds and how it applies).
 */
export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  companyName: text('company_name'),
  companyEmail: text('company_email'),
  companyPhone: text('company_phone'),
  address: text('address'),
  website: text('website'),
  brand: jsonb('brand').notNull().default({}),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user belongs to at most one team (unique user_id). Role: owner | admin | member. */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'team_members_pk', columns: [t.teamId, t.userId] }), unique('team_members_user_uq').on(t.userId)],
);

/** Single-use invitation links (7 days); only the sha256 of the token is stored. */
export const teamInvites = pgTable(
  'team_invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    fullName: text('full_name'),
    jobTitle: text('job_title'),
    phone: text('phone'),
    role: text('role').notNull().default('member'),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    sends: integer('sends').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('team_invites_token_uq').on(t.tokenHash)],
);
