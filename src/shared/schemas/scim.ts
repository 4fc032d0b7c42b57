import { z } from 'zod';
import { isoDateTime } from './common';

/**
 * SCIM 2.0 provisioning (issue 39, decision 39-02): the team owner's settings and the wire shapes
 * of `/scim/v2` (described loosely: the SCIM documents are RFC 7643's, checked by the server).
 */
export const SCIM_BASE_PATH = '/scim/v2';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  spc: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The profile fields the directory may fill, and where each comes from in a SCIM user. */
export const SCIM_PROFILE_FIELDS = ['fullName', 'jobTitle', 'email', 'phoneNumber', 'address', 'companyName'] as const;
export type ScimProfileField = (typeof SCIM_PROFILE_FIELDS)[number];

export const SCIM_FIELD_LABELS: Record<ScimProfileField, { label: string; source: string }> = {
  fullName: { label: 'Full name', source: 'name.formatted (or given and family name, or displayName)' },
  jobTitle: { label: 'Job title', source: 'title' },
  email: { label: 'Contact e-mail', source: 'emails (work or primary)' },
  phoneNumber: { label: 'Phone', source: 'phoneNumbers (work, mobile or primary)' },
  address: { label: 'Address', source: 'addresses (work or primary)' },
  companyName: { label: 'Company name', source: 'enterprise extension: organization' },
};

/** never: the member fills it; create: filled when the directory creates the member; always: kept in sync (locked for the member). */
export const FIELD_RULES = ['never', 'create', 'always'] as const;
export type FieldRule = (typeof FIELD_RULES)[number];
export const FIELD_RULE_LABELS: Record<FieldRule, string> = {
  never: 'Never provisioned',
  create: 'Filled when created',
  always: 'Always kept in sync',
};

export const DEFAULT_FIELD_RULES: Record<ScimProfileField, FieldRule> = {
  fullName: 'always',
  jobTitle: 'always',
  email: 'create',
  phoneNumber: 'create',
  address: 'never',
  companyName: 'never',
};

export const SYNCED_FIELD_MESSAGE = "This field is kept in sync with your company's directory";

const FieldRuleSchema = z.enum(FIELD_RULES, { error: () => 'Choose never, create or always' });

export const ScimFieldRules = z.strictObject(
  Object.fromEntries(SCIM_PROFILE_FIELDS.map((f) => [f, FieldRuleSchema])) as Record<ScimProfileField, typeof FieldRuleSchema>,
);
export type ScimFieldRules = z.infer<typeof ScimFieldRules>;

export const ScimSettings = z.strictObject({
  fieldRules: ScimFieldRules,
  /** members of the directory group of this name are team admins; everyone else a member */
  adminGroup: z.string(),
  /** the SCIM base URL the identity provider is given */
  baseUrl: z.string(),
  /** directory users of the team (active ones) and groups */
  provisionedUsers: z.number().int().nonnegative(),
  groups: z.number().int().nonnegative(),
  /** when the directory last changed something (null: never) */
  lastActivityAt: isoDateTime.nullable(),
});
export type ScimSettings = z.infer<typeof ScimSettings>;

export const ScimSettingsBody = z.strictObject({
  fieldRules: ScimFieldRules,
  adminGroup: z
    .string({ error: () => 'Please name the admin group' })
    .trim()
    .min(1, 'Please name the admin group')
    .max(100, 'The group name must be at most 100 characters')
    .refine((v) => !/[\r\n\t]/.test(v), 'The group name must be on one line'),
});
export type ScimSettingsBody = z.infer<typeof ScimSettingsBody>;

/** GET /api/team/scim/synced-fields: the caller's profile fields their team's directory keeps in sync. */
export const SyncedFieldsResponse = z.strictObject({ fields: z.array(z.enum(SCIM_PROFILE_FIELDS)), message: z.string() });
export type SyncedFieldsResponse = z.infer<typeof SyncedFieldsResponse>;

// ---- wire shapes of /scim/v2 (loose: SCIM documents carry attributes we keep as they come)

export const ScimResource = z.looseObject({ schemas: z.array(z.string()) });
export const ScimListResponse = z.looseObject({
  schemas: z.array(z.string()),
  totalResults: z.number().int().nonnegative(),
  Resources: z.array(z.looseObject({})),
});
export const ScimError = z.looseObject({
  schemas: z.array(z.string()),
  status: z.string(),
  detail: z.string(),
  scimType: z.string().optional(),
});
export const ScimIdParams = z.strictObject({ id: z.string().max(200) });
export const ScimListQuery = z.looseObject({
  filter: z.string().max(1000).optional(),
  startIndex: z.string().max(20).optional(),
  count: z.string().max(20).optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
export const ScimGetQuery = z.looseObject({
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
/** a SCIM request body, parsed and checked by the SCIM service (errors in the SCIM error schema) */
export const ScimBody = z.unknown();
