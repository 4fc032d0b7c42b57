import { boolean, index, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './auth';
import { teams } from './team';

/**
 * Team single sign-on (issue 39 item 3, decisions 39-03 and 39-04). A team proves its e-mail
 * domains with a DNS TXT record and connects one identity provider, OpenID Connect or SAML 2.0.
 */

/** A company e-mail domain of a team: proven once its TXT record is seen. A verified domain belongs to one team only. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** lower case, no trailing dot */
    domain: text('domain').notNull(),
    /** the value published as `cards-verification=<token>` */
    token: text('token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('sso_domains_team_domain_uq').on(t.teamId, t.domain),
    uniqueIndex('sso_domains_verified_uq')
      .on(t.domain)
      .where(sql`${t.verifiedAt} is not null`),
  ],
);

/** The team's identity provider: which kind is active, the OIDC client, the SAML settings, and whether SSO is required. */
export const ssoConnections = pgTable('sso_connections', {
  teamId: uuid('team_id')
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  /** 'oidc' | 'saml' | null (none active) */
  kind: text('kind'),
  oidcIssuer: text('oidc_issuer'),
  oidcClientId: text('oidc_client_id'),
  /** sealed (AES-256-GCM); never leaves the server */
  oidcClientSecret: text('oidc_client_secret'),
  /** the SAML identity provider's settings (decision 39-04) */
  saml: jsonb('saml'),
  requireSso: boolean('require_sso').notNull().default(false),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A pending OIDC sign-in: the browser holds a random token (cookie), only its HMAC is kept; single use, ten minutes. */
export const ssoSignInStates = pgTable(
  'sso_sign_in_states',
  {
    id: text('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    returnTo: text('return_to'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_sign_in_states_expires_idx').on(t.expiresAt)],
);

// ---- SAML (sso-saml, decision 39-04): AuthnRequest IDs (InResponseTo) and seen assertions (replay)
export const samlMessageIds = pgTable('saml_message_ids', { key: text('key').primaryKey(), teamId: uuid('team_id').notNull(), expiresAt: timestamp('expires_at', { withTimezone: true }).notNull() }, (t) => [index('saml_message_ids_expires_idx').on(t.expiresAt)]);
