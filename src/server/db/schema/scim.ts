import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { teams } from './team';

/**
 * SCIM 2.0 provisioning (issue 39, decision 39-02). A team's settings: which profile fields the
 * company's directory fills (`never`, `create`, `always`) and the name of the group whose members
 * are team admins.
 */
export const scimSettings = pgTable('scim_settings', {
  teamId: uuid('team_id')
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  /** profile field -> 'never' | 'create' | 'always' */
  fieldRules: jsonb('field_rules').notNull().default({}),
  adminGroup: text('admin_group').notNull().default('Card admins'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A directory user of a team: the SCIM resource (its id is the SCIM id) and the account it runs. */
export const scimUsers = pgTable(
  'scim_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userName: text('user_name').notNull(),
    externalId: text('external_id'),
    active: boolean('active').notNull().default(true),
    /** the SCIM attributes as last provisioned (name, emails, phones, title, enterprise extension) */
    attributes: jsonb('attributes').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('scim_users_team_user_uq').on(t.teamId, t.userId), index('scim_users_team_name_idx').on(t.teamId, t.userName)],
);

/** A directory group of a team; its members are team admins when it is the admin group. */
export const scimGroups = pgTable(
  'scim_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('scim_groups_team_idx').on(t.teamId)],
);

export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => scimGroups.id, { onDelete: 'cascade' }),
    scimUserId: uuid('scim_user_id')
      .notNull()
      .references(() => scimUsers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'scim_group_members_pk', columns: [t.groupId, t.scimUserId] })],
);
