import { z } from 'zod';
import { isoDateTime } from './common';

/**
 * The identity audit log (issue 39, decision 39-02). Kinds are an open list: a feature that adds
 * an identity event adds its kind here (the log page names it).
 */
export const IDENTITY_EVENT_KINDS = [
  'sign-in',
  'sign-in-failed',
  'two-factor-enabled',
  'two-factor-disabled',
  'two-factor-failed',
  'recovery-code-used',
  'passkey-added',
  'passkey-removed',
  'sso-configured',
  'sso-removed',
  'sso-sign-in',
  'sso-sign-in-failed',
  'scim-settings-changed',
  'scim-user-created',
  'scim-user-updated',
  'scim-user-deactivated',
  'scim-user-reactivated',
  'scim-user-deleted',
  'scim-group-created',
  'scim-group-updated',
  'scim-group-deleted',
  'scim-request-refused',
  'scim-read',
] as const;
export type IdentityEventKind = (typeof IDENTITY_EVENT_KINDS)[number];

export const IDENTITY_EVENT_LABELS: Record<IdentityEventKind, string> = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in failed',
  'two-factor-enabled': 'Two-factor turned on',
  'two-factor-disabled': 'Two-factor turned off',
  'two-factor-failed': 'Two-factor code refused',
  'recovery-code-used': 'Recovery code used',
  'passkey-added': 'Passkey added',
  'passkey-removed': 'Passkey removed',
  'sso-configured': 'Single sign-on configured',
  'sso-removed': 'Single sign-on removed',
  'sso-sign-in': 'Signed in with SSO',
  'sso-sign-in-failed': 'SSO sign-in failed',
  'scim-settings-changed': 'Provisioning settings changed',
  'scim-user-created': 'Directory created a member',
  'scim-user-updated': 'Directory updated a member',
  'scim-user-deactivated': 'Directory deactivated a member',
  'scim-user-reactivated': 'Directory reactivated a member',
  'scim-user-deleted': 'Directory deleted a member',
  'scim-group-created': 'Directory created a group',
  'scim-group-updated': 'Directory updated a group',
  'scim-group-deleted': 'Directory deleted a group',
  'scim-request-refused': 'Directory request refused',
  'scim-read': 'Directory read',
};

export const IdentityEventKindSchema = z.enum(IDENTITY_EVENT_KINDS, { error: () => 'Unknown event kind' });

export const IdentityEvent = z.strictObject({
  id: z.uuid(),
  at: isoDateTime,
  kind: z.string(),
  outcome: z.enum(['success', 'failure']),
  teamId: z.uuid().nullable(),
  userId: z.uuid().nullable(),
  actorId: z.uuid().nullable(),
  email: z.string().nullable(),
  ip: z.string(),
  /** short facts (the SCIM operation, the fields changed, the reason of a failure) */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type IdentityEvent = z.infer<typeof IdentityEvent>;

const page = z.coerce.number({ error: () => 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page must be 1 or more').max(10_000, 'Page must be at most 10000').default(1);

/** GET /api/team/audit (the team owner) */
export const TeamAuditQuery = z.strictObject({
  page,
  kind: IdentityEventKindSchema.optional(),
});
export type TeamAuditQuery = z.infer<typeof TeamAuditQuery>;

/** GET /api/admin/audit (staff): every event, by team, address or kind */
export const AdminAuditQuery = TeamAuditQuery.extend({
  teamId: z.uuid('Team must be a team id').optional(),
  email: z.string().trim().max(254, 'Address must be at most 254 characters').optional(),
});
export type AdminAuditQuery = z.infer<typeof AdminAuditQuery>;

export const AuditCsvQuery = z.strictObject({ kind: IdentityEventKindSchema.optional() });
export const AdminAuditCsvQuery = AuditCsvQuery.extend({ teamId: z.uuid('Team must be a team id').optional() });

export const AUDIT_PAGE_SIZE = 50;

export const AuditListResponse = z.strictObject({
  events: z.array(IdentityEvent),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  /** days an entry is kept (AUDIT_LOG_RETENTION_DAYS) */
  retentionDays: z.number().int().positive(),
});
export type AuditListResponse = z.infer<typeof AuditListResponse>;
