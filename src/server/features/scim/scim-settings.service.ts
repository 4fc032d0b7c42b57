import { and, count, eq, max } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { scimGroups, scimSettings, scimUsers } from '#server/db/schema/scim';
import { forbidden, notFound } from '#server/http/http-errors';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import { teamRoleOf } from '#server/features/team/public-api';
import { TEAM_MESSAGES } from '#shared/schemas/team';
import {
  DEFAULT_FIELD_RULES,
  FIELD_RULES,
  SCIM_BASE_PATH,
  SCIM_PROFILE_FIELDS,
  SYNCED_FIELD_MESSAGE,
  type FieldRule,
  type ScimFieldRules,
  type ScimProfileField,
  type ScimSettings,
  type ScimSettingsBody,
  type SyncedFieldsResponse,
} from '#shared/schemas/scim';

export const ONLY_OWNER_SCIM = 'Only the team owner can change provisioning';

export interface TeamScimConfig {
  fieldRules: ScimFieldRules;
  adminGroup: string;
}

/** The stored rules, whatever they hold, as a complete set (unknown values fall back to the defaults). */
export function rulesOf(raw: unknown): ScimFieldRules {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out = { ...DEFAULT_FIELD_RULES };
  for (const f of SCIM_PROFILE_FIELDS) if ((FIELD_RULES as readonly unknown[]).includes(r[f])) out[f] = r[f] as FieldRule;
  return out;
}

export async function teamScimConfig(ctx: AppContext, teamId: string): Promise<TeamScimConfig> {
  const [row] = await ctx.db.select().from(scimSettings).where(eq(scimSettings.teamId, teamId)).limit(1);
  return { fieldRules: rulesOf(row?.fieldRules), adminGroup: row?.adminGroup ?? 'Card admins' };
}

async function ownersTeam(ctx: AppContext, userId: string): Promise<string> {
  const m = await teamRoleOf(ctx, userId);
  if (!m) throw notFound(TEAM_MESSAGES.noTeam);
  if (m.role !== 'owner') throw forbidden(ONLY_OWNER_SCIM);
  return m.teamId;
}

async function settingsView(ctx: AppContext, teamId: string, origin: string): Promise<ScimSettings> {
  const config = await teamScimConfig(ctx, teamId);
  const [[u], [g]] = await Promise.all([
    ctx.db.select({ n: count(), last: max(scimUsers.updatedAt) }).from(scimUsers).where(and(eq(scimUsers.teamId, teamId), eq(scimUsers.active, true))),
    ctx.db.select({ n: count(), last: max(scimGroups.updatedAt) }).from(scimGroups).where(eq(scimGroups.teamId, teamId)),
  ]);
  const last = [u?.last, g?.last].filter((d): d is Date => d instanceof Date).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    ...config,
    baseUrl: `${origin}${SCIM_BASE_PATH}`,
    provisionedUsers: Number(u?.n ?? 0),
    groups: Number(g?.n ?? 0),
    lastActivityAt: last ? new Date(last).toISOString() : null,
  };
}

/** GET /api/team/scim/settings (the team owner). */
export async function getScimSettings(ctx: AppContext, userId: string, origin: string): Promise<ScimSettings> {
  return settingsView(ctx, await ownersTeam(ctx, userId), origin);
}

/** PUT /api/team/scim/settings (the team owner): the field rules and the admin group's name. */
export async function saveScimSettings(ctx: AppContext, userId: string, body: ScimSettingsBody, origin: string, req: { ip: string }): Promise<ScimSettings> {
  const teamId = await ownersTeam(ctx, userId);
  const before = await teamScimConfig(ctx, teamId);
  await ctx.db
    .insert(scimSettings)
    .values({ teamId, fieldRules: body.fieldRules, adminGroup: body.adminGroup, updatedAt: new Date() })
    .onConflictDoUpdate({ target: scimSettings.teamId, set: { fieldRules: body.fieldRules, adminGroup: body.adminGroup, updatedAt: new Date() } });
  const changed = SCIM_PROFILE_FIELDS.filter((f) => before.fieldRules[f] !== body.fieldRules[f]).map((f) => `${f}: ${body.fieldRules[f]}`);
  await recordIdentityEvent(ctx, {
    kind: 'scim-settings-changed',
    teamId,
    actorId: userId,
    userId,
    req,
    detail: { rules: changed.join(', ') || 'unchanged', adminGroup: body.adminGroup },
  });
  return settingsView(ctx, teamId, origin);
}

/** The fields a user's team directory keeps in sync (the profile editor shows them locked). */
export async function syncedFieldsOf(ctx: AppContext, userId: string): Promise<ScimProfileField[]> {
  const m = await teamRoleOf(ctx, userId);
  if (!m) return [];
  const [linked] = await ctx.db.select({ id: scimUsers.id }).from(scimUsers).where(and(eq(scimUsers.teamId, m.teamId), eq(scimUsers.userId, userId), eq(scimUsers.active, true))).limit(1);
  if (!linked) return [];
  const { fieldRules } = await teamScimConfig(ctx, m.teamId);
  return SCIM_PROFILE_FIELDS.filter((f) => fieldRules[f] === 'always');
}

export async function syncedFields(ctx: AppContext, userId: string): Promise<SyncedFieldsResponse> {
  return { fields: await syncedFieldsOf(ctx, userId), message: SYNCED_FIELD_MESSAGE };
}
