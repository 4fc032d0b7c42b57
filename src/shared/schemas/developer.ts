import { z } from 'zod';
import { isoDateTime, singleLine } from './common';
import { confirmPasswordField } from './auth';

/** What an API token may do (decision 23-01). Team scopes belong to team tokens only. */
export const API_SCOPES = ['profile:read', 'profile:write', 'leads:read', 'stats:read', 'team:read', 'team:write', 'scim'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export const PERSONAL_SCOPES: readonly ApiScope[] = ['profile:read', 'profile:write', 'leads:read', 'stats:read'];
export const TEAM_SCOPES: readonly ApiScope[] = ['team:read', 'team:write', 'scim'];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'profile:read': 'Read your profile',
  'profile:write': 'Change your profile',
  'leads:read': 'Read your leads',
  'stats:read': 'Read your visit and save statistics',
  'team:read': "Read your team, its members, leads and stats",
  'team:write': 'Change your team: brand, invitations, members',
  scim: "Provision your team's members from your company directory (SCIM 2.0 at /scim/v2)",
};

/** Days a token lives; null: until revoked. */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** The secret's recognisable start: `mc_` + 43 base64url characters (32 random bytes). */
export const TOKEN_PREFIX = 'mc_';
export const TOKEN_PATTERN = /^mc_[A-Za-z0-9_-]{43}$/;

export const ApiScopeSchema = z.enum(API_SCOPES, { error: () => `Unknown scope (use ${API_SCOPES.join(', ')})` });

export const TokenCreateBody = z.strictObject({
  name: singleLine(60, 'Name').pipe(z.string().min(1, 'Please give the token a name')),
  scopes: z.array(ApiScopeSchema).min(1, 'Choose at least one scope').max(API_SCOPES.length),
  /** days until it expires; null: never (until revoked) */
  expiresInDays: z.union([z.literal(7), z.literal(30), z.literal(90), z.literal(365), z.null()], {
    error: () => 'Expiry must be 7, 30, 90 or 365 days, or none',
  }),
  /** a token for the caller's team (team scopes; the caller must be one of its admins) */
  team: z.boolean().default(false),
  /** the account's password (issue 33): a token is lasting access, so its creation is confirmed */
  password: confirmPasswordField,
});
export type TokenCreateBody = z.infer<typeof TokenCreateBody>;

export const TokenParams = z.strictObject({ id: z.uuid('Unknown token') });

export const ApiTokenSummary = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  /** the first characters of the secret, to tell tokens apart */
  prefix: z.string(),
  scopes: z.array(ApiScopeSchema),
  teamId: z.uuid().nullable(),
  expiresAt: isoDateTime.nullable(),
  lastUsedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  expired: z.boolean(),
});
export type ApiTokenSummary = z.infer<typeof ApiTokenSummary>;

export const TokenListResponse = z.strictObject({ tokens: z.array(ApiTokenSummary) });
export type TokenListResponse = z.infer<typeof TokenListResponse>;

/** The only answer that carries the secret: it is shown once and never again. */
export const TokenCreateResponse = z.strictObject({
  token: ApiTokenSummary,
  secret: z.string().regex(TOKEN_PATTERN),
  message: z.string(),
});
export type TokenCreateResponse = z.infer<typeof TokenCreateResponse>;

/** The OpenAPI 3.1 document (JSON) and the reference page are described loosely: they are documents. */
export const OpenApiDocumentResponse = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) });

/** A file of the API reference page (`/api/docs/swagger-ui.css`, ...). */
export const DocsAssetParams = z.strictObject({ file: z.string().max(100) });
