import crypto from 'node:crypto';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { users } from '#server/db/schema/auth';
import { scimGroupMembers, scimGroups, scimUsers } from '#server/db/schema/scim';
import { findUserByEmail, registerUser } from '#server/features/auth/public-api';
import { setDirectoryFields, type DirectoryProfileFields } from '#server/features/profile/public-api';
import { addDirectoryMember, offboardDirectoryMember, setDirectoryRole, teamRoleOf } from '#server/features/team/public-api';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import { ProfileSaveBody } from '#shared/schemas/profile';
import { SCIM_BASE_PATH, SCIM_PROFILE_FIELDS, SCIM_SCHEMAS, type ScimProfileField } from '#shared/schemas/scim';
import type { IdentityEventKind } from '#shared/schemas/audit';
import {
  ENTERPRISE,
  ScimError,
  applyOperation,
  enterpriseOf,
  invalidValue,
  isObject,
  nameParts,
  notFoundScim,
  parseFilter,
  patchOperations,
  pickValue,
  str,
  tidyUserDocument,
  toBoolean,
  uniqueness,
  userDocument,
  type Doc,
  type Json,
} from './scim-protocol';
import { teamScimConfig } from './scim-settings.service';

/** Who is calling: the team of the SCIM token, the token's creator, where from. */
export interface ScimCaller {
  teamId: string;
  actorId: string;
  tokenId: string;
  ip: string;
  origin: string;
}

type UserRow = typeof scimUsers.$inferSelect;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_PAGE = 200;

export function userLocation(c: Pick<ScimCaller, 'origin'>, id: string) {
  return `${c.origin}${SCIM_BASE_PATH}/Users/${id}`;
}

/** The user resource as SCIM shows it: the stored document, the server's attributes and meta. */
export function userResource(c: Pick<ScimCaller, 'origin'>, row: UserRow, groups: Array<{ id: string; displayName: string }>): Doc {
  const doc = (isObject(row.attributes as Json) ? row.attributes : {}) as Doc;
  const out: Doc = {
    schemas: [SCIM_SCHEMAS.user, ...(isObject(doc[ENTERPRISE]) ? [ENTERPRISE] : [])],
    id: row.id,
    ...doc,
    userName: row.userName,
    active: row.active,
    groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${c.origin}${SCIM_BASE_PATH}/Groups/${g.id}` })),
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: userLocation(c, row.id),
    },
  };
  if (row.externalId !== null) out.externalId = row.externalId;
  else delete out.externalId;
  return out;
}

async function groupsOf(ctx: AppContext, scimUserIds: string[]): Promise<Map<string, Array<{ id: string; displayName: string }>>> {
  const map = new Map<string, Array<{ id: string; displayName: string }>>();
  if (!scimUserIds.length) return map;
  const rows = await ctx.db
    .select({ userId: scimGroupMembers.scimUserId, id: scimGroups.id, displayName: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(inArray(scimGroupMembers.scimUserId, scimUserIds));
  for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), { id: r.id, displayName: r.displayName }]);
  return map;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

async function findRow(ctx: AppContext, c: ScimCaller, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFoundScim('User not found');
  const [row] = await ctx.db.select().from(scimUsers).where(and(eq(scimUsers.id, id), eq(scimUsers.teamId, c.teamId))).limit(1);
  if (!row) throw notFoundScim('User not found');
  return row;
}

export async function getUser(ctx: AppContext, c: ScimCaller, id: string): Promise<Doc> {
  const row = await findRow(ctx, c, id);
  return userResource(c, row, (await groupsOf(ctx, [row.id])).get(row.id) ?? []);
}

/** startIndex (1-based) and count of a list request (RFC 7644 3.4.2.4); count 0 answers the total only. */
export function paging(q: { startIndex?: string; count?: string }): { offset: number; limit: number; startIndex: number } {
  const startRaw = q.startIndex === undefined ? 1 : Number(q.startIndex);
  const countRaw = q.count === undefined ? 100 : Number(q.count);
  if (!Number.isFinite(startRaw) || !Number.isFinite(countRaw)) throw invalidValue('startIndex and count must be numbers');
  const startIndex = Math.max(1, Math.floor(startRaw));
  const limit = Math.min(MAX_PAGE, Math.max(0, Math.floor(countRaw)));
  return { offset: startIndex - 1, limit, startIndex };
}

function userFilterSql(text: string): SQL {
  const parts: SQL[] = [];
  for (const cmp of parseFilter(text)) {
    const v = cmp.value;
    const attr = cmp.attr.toLowerCase();
    if (typeof v !== 'string') throw new ScimError(400, `Filter on ${cmp.attr} with a string value`, 'invalidFilter');
    if (attr === 'username') parts.push(sql`lower(${scimUsers.userName}) = ${v.toLowerCase()}`);
    else if (attr === 'externalid') parts.push(eq(scimUsers.externalId, v));
    else if (attr === 'id') parts.push(isUuid(v) ? eq(scimUsers.id, v) : sql`false`);
    else if (attr === 'emails.value' || attr === 'emails')
      parts.push(sql`exists (select 1 from jsonb_array_elements(case when jsonb_typeof(${scimUsers.attributes}->'emails') = 'array' then ${scimUsers.attributes}->'emails' else '[]'::jsonb end) e where lower(e->>'value') = ${v.toLowerCase()})`);
    else if (attr === 'displayname') parts.push(sql`lower(${scimUsers.attributes}->>'displayName') = ${v.toLowerCase()}`);
    else throw new ScimError(400, `Filtering on ${cmp.attr} is not supported (userName, externalId, id, emails.value, displayName)`, 'invalidFilter');
  }
  return and(...parts)!;
}

export async function listUsers(ctx: AppContext, c: ScimCaller, q: { filter?: string; startIndex?: string; count?: string }) {
  const { offset, limit, startIndex } = paging(q);
  const where = and(eq(scimUsers.teamId, c.teamId), q.filter ? userFilterSql(q.filter) : undefined);
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(scimUsers).where(where),
    limit === 0 ? Promise.resolve([] as UserRow[]) : ctx.db.select().from(scimUsers).where(where).orderBy(asc(scimUsers.createdAt), asc(scimUsers.id)).limit(limit).offset(offset),
  ]);
  const groups = await groupsOf(ctx, rows.map((r) => r.id));
  return {
    schemas: [SCIM_SCHEMAS.list],
    totalResults: Number(total?.n ?? 0),
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((r) => userResource(c, r, groups.get(r.id) ?? [])),
  };
}

// ---------------------------------------------------------------- what the document says

interface Parsed {
  userName: string;
  externalId: string | null;
  active: boolean;
  doc: Doc;
}

function parsedOf(doc: Doc, fallbackActive = true): Parsed {
  const userName = doc.userName;
  if (typeof userName !== 'string' || !userName.trim()) throw invalidValue('userName is required');
  if (userName.length > 254 || /[\r\n]/.test(userName)) throw invalidValue('userName must be one line of at most 254 characters');
  const ext = doc.externalId;
  if (ext !== undefined && ext !== null && (typeof ext !== 'string' || ext.length > 254)) throw invalidValue('externalId must be a string of at most 254 characters');
  const active = doc.active === undefined || doc.active === null ? fallbackActive : toBoolean(doc.active, 'active');
  for (const multi of ['emails', 'phoneNumbers', 'addresses']) {
    if (doc[multi] !== undefined && doc[multi] !== null && !Array.isArray(doc[multi])) throw invalidValue(`${multi} must be a list`);
  }
  if (doc.name !== undefined && doc.name !== null && !isObject(doc.name)) throw invalidValue('name must be an object');
  const stored: Doc = { ...doc };
  delete stored.userName;
  delete stored.active;
  delete stored.externalId;
  return { userName: userName.trim(), externalId: typeof ext === 'string' && ext ? ext : null, active, doc: stored };
}

/** The profile values the document holds, each checked by the profile's own field rule (a bad one is left out). */
export function profileValuesOf(p: Parsed): Partial<Record<ScimProfileField, string>> {
  const { given, family, formatted } = nameParts(p.doc);
  const address = pickValue(p.doc.addresses);
  const addressText = address ? str(address.formatted) ?? [address.streetAddress, address.locality, address.region, address.postalCode, address.country].map((x) => str(x)).filter(Boolean).join(', ') : null;
  const phone = pickValue(p.doc.phoneNumbers);
  const email = pickValue(p.doc.emails);
  const raw: Record<ScimProfileField, string | null> = {
    fullName: formatted ?? ([given, family].filter(Boolean).join(' ') || str(p.doc.displayName)),
    jobTitle: str(p.doc.title),
    email: str(email?.value) ?? (EMAIL_RE.test(p.userName) ? p.userName : null),
    phoneNumber: str(phone?.value),
    address: addressText || null,
    companyName: str(enterpriseOf(p.doc).organization),
  };
  const shape = ProfileSaveBody.shape;
  const out: Partial<Record<ScimProfileField, string>> = {};
  for (const f of SCIM_PROFILE_FIELDS) {
    const v = raw[f];
    if (v === null) continue;
    const r = shape[f].safeParse(v);
    if (r.success && typeof r.data === 'string') out[f] = r.data;
  }
  return out;
}

function fieldsWithRule(values: Partial<Record<ScimProfileField, string>>, rules: Record<ScimProfileField, string>, allowed: string[]): DirectoryProfileFields {
  const out: DirectoryProfileFields = {};
  for (const f of SCIM_PROFILE_FIELDS) if (allowed.includes(rules[f]) && values[f] !== undefined) out[f] = values[f];
  return out;
}

async function audit(ctx: AppContext, c: ScimCaller, kind: IdentityEventKind, row: { id: string; userId: string; userName: string }, detail: Record<string, string | number | boolean | null> = {}) {
  await recordIdentityEvent(ctx, { kind, teamId: c.teamId, actorId: c.actorId, userId: row.userId, email: row.userName, ip: c.ip, detail: { scimId: row.id, token: c.tokenId, ...detail } });
}

async function userNameTaken(ctx: AppContext, c: ScimCaller, userName: string, exceptId?: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(and(eq(scimUsers.teamId, c.teamId), sql`lower(${scimUsers.userName}) = ${userName.toLowerCase()}`, exceptId ? sql`${scimUsers.id} <> ${exceptId}` : undefined))
    .limit(1);
  return rows.length > 0;
}

/** A free username for the new account, from the address's local part. */
async function freeUsername(ctx: AppContext, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 30) || 'member';
  for (let i = 0; i < 5; i++) {
    const candidate = i === 0 ? base : `${base}-${crypto.randomBytes(3).toString('hex')}`;
    const [taken] = await ctx.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`).limit(1);
    if (!taken) return candidate;
  }
  return `member-${crypto.randomBytes(6).toString('hex')}`;
}

/** Team admin when in the admin group (active members only; the owner keeps their role). */
export async function syncRole(ctx: AppContext, c: Pick<ScimCaller, 'teamId'>, scimUserId: string): Promise<void> {
  const [row] = await ctx.db.select().from(scimUsers).where(and(eq(scimUsers.id, scimUserId), eq(scimUsers.teamId, c.teamId))).limit(1);
  if (!row || !row.active) return;
  const { adminGroup } = await teamScimConfig(ctx, c.teamId);
  const [inAdmin] = await ctx.db
    .select({ id: scimGroups.id })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(and(eq(scimGroupMembers.scimUserId, scimUserId), eq(scimGroups.teamId, c.teamId), sql`lower(${scimGroups.displayName}) = ${adminGroup.toLowerCase()}`))
    .limit(1);
  await setDirectoryRole(ctx, c.teamId, row.userId, inAdmin ? 'admin' : 'member');
}

/** POST /Users: the account (made, or the team's own member linked), the membership, the profile. */
export async function createUser(ctx: AppContext, c: ScimCaller, body: unknown): Promise<Doc> {
  const p = parsedOf(userDocument(body));
  if (await userNameTaken(ctx, c, p.userName)) throw uniqueness(`A user with userName "${p.userName.slice(0, 100)}" already exists`);
  const values = profileValuesOf(p);
  const email = EMAIL_RE.test(p.userName) ? p.userName : (values.email ?? null);
  if (!email || email.length > 254) throw invalidValue('userName or a work e-mail must be an e-mail address');
  const { fieldRules } = await teamScimConfig(ctx, c.teamId);

  let userId: string;
  const existing = await findUserByEmail(ctx, email);
  if (existing) {
    // an account that is already the team's member is linked; anyone else's account is not the directory's to take
    const m = await teamRoleOf(ctx, existing.id);
    if (m?.teamId !== c.teamId) throw uniqueness('An account with this e-mail address already exists and is not a member of this team');
    const [linked] = await ctx.db.select({ id: scimUsers.id }).from(scimUsers).where(and(eq(scimUsers.teamId, c.teamId), eq(scimUsers.userId, existing.id))).limit(1);
    if (linked) throw uniqueness('This member is already provisioned under another userName');
    userId = existing.id;
  } else {
    const { given, family } = nameParts(p.doc);
    const created = await registerUser(
      ctx,
      {
        username: await freeUsername(ctx, email),
        email,
        // nobody knows this password: the person signs in through single sign-on or sets one with "Forgot password"
        password: crypto.randomBytes(32).toString('base64url'),
        firstName: (given ?? '').slice(0, 80),
        lastName: (family ?? '').slice(0, 80),
      },
      c.origin,
    ).catch((e: { statusCode?: number; message?: string }) => {
      if (e?.statusCode === 409) throw uniqueness(e.message ?? 'The account exists already');
      if (e?.statusCode === 400) throw invalidValue(e.message ?? 'The account could not be made');
      throw e;
    });
    userId = created.id;
  }

  const createFields = fieldsWithRule(values, fieldRules, ['create', 'always']);
  if (p.active) {
    const joined = await addDirectoryMember(ctx, c.teamId, userId, { fullName: createFields.fullName ?? email.split('@')[0]!, ...createFields });
    if (joined === 'full') throw new ScimError(409, 'The team is full');
    if (joined === 'other-team') throw uniqueness('This account is a member of another team');
    if (joined === 'already') await setDirectoryFields(ctx, userId, fieldsWithRule(values, fieldRules, ['always']));
  }
  const [row] = await ctx.db
    .insert(scimUsers)
    .values({ teamId: c.teamId, userId, userName: p.userName, externalId: p.externalId, active: p.active, attributes: p.doc })
    .returning();
  await audit(ctx, c, 'scim-user-created', row!, { active: p.active, linked: existing ? true : false });
  return userResource(c, row!, []);
}

/** The stored user after a replace or a patch: membership follows `active`, synced fields follow the document. */
async function saveUser(ctx: AppContext, c: ScimCaller, row: UserRow, p: Parsed, how: 'replace' | 'patch'): Promise<Doc> {
  if (p.userName.toLowerCase() !== row.userName.toLowerCase() && (await userNameTaken(ctx, c, p.userName, row.id))) {
    throw uniqueness(`A user with userName "${p.userName.slice(0, 100)}" already exists`);
  }
  const { fieldRules } = await teamScimConfig(ctx, c.teamId);
  const values = profileValuesOf(p);
  let kind: IdentityEventKind = 'scim-user-updated';
  let note: string | null = null;
  if (row.active && !p.active) {
    kind = 'scim-user-deactivated';
    const r = await offboardDirectoryMember(ctx, c.teamId, row.userId);
    if (r === 'owner') note = 'the team owner stays in the team (transfer the ownership first)';
  } else if (!row.active && p.active) {
    kind = 'scim-user-reactivated';
    const joined = await addDirectoryMember(ctx, c.teamId, row.userId, { fullName: values.fullName ?? row.userName.split('@')[0]!, ...fieldsWithRule(values, fieldRules, ['create', 'always']) });
    if (joined === 'full') throw new ScimError(409, 'The team is full');
    if (joined === 'other-team') throw uniqueness('This account is a member of another team now');
  }
  const [saved] = await ctx.db
    .update(scimUsers)
    .set({ userName: p.userName, externalId: p.externalId, active: p.active, attributes: p.doc, updatedAt: new Date() })
    .where(and(eq(scimUsers.id, row.id), eq(scimUsers.teamId, c.teamId)))
    .returning();
  if (p.active) {
    await setDirectoryFields(ctx, row.userId, fieldsWithRule(values, fieldRules, ['always']));
    await syncRole(ctx, c, row.id);
  }
  await audit(ctx, c, kind, saved!, { operation: how, ...(note ? { note } : {}) });
  return userResource(c, saved!, (await groupsOf(ctx, [row.id])).get(row.id) ?? []);
}

/** PUT /Users/{id}: the whole resource replaced (Okta's profile updates). */
export async function replaceUser(ctx: AppContext, c: ScimCaller, id: string, body: unknown): Promise<Doc> {
  const row = await findRow(ctx, c, id);
  const doc = userDocument(body);
  return saveUser(ctx, c, row, parsedOf(doc, row.active), 'replace');
}

/** PATCH /Users/{id}: operations applied to the stored resource (Entra ID's updates, both IdPs' deactivation). */
export async function patchUser(ctx: AppContext, c: ScimCaller, id: string, body: unknown): Promise<Doc> {
  const row = await findRow(ctx, c, id);
  const ops = patchOperations(body);
  const doc: Doc = { ...((isObject(row.attributes as Json) ? row.attributes : {}) as Doc), userName: row.userName, active: row.active, ...(row.externalId !== null ? { externalId: row.externalId } : {}) };
  for (const o of ops) applyOperation(doc, o.op, o.path, o.value);
  return saveUser(ctx, c, row, parsedOf(tidyUserDocument(doc), row.active), 'patch');
}

/** DELETE /Users/{id}: offboarding, and the directory's link to the account forgotten (the account stays the person's). */
export async function deleteUser(ctx: AppContext, c: ScimCaller, id: string): Promise<void> {
  const row = await findRow(ctx, c, id);
  const r = row.active ? await offboardDirectoryMember(ctx, c.teamId, row.userId) : 'absent';
  await ctx.db.delete(scimUsers).where(and(eq(scimUsers.id, row.id), eq(scimUsers.teamId, c.teamId)));
  await audit(ctx, c, 'scim-user-deleted', row, r === 'owner' ? { note: 'the team owner stays in the team (transfer the ownership first)' } : {});
}

/** Ids of the team's SCIM users among `ids` (group members must be the team's users). */
export async function teamUserIds(ctx: AppContext, teamId: string, ids: string[]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return new Set();
  const rows = await ctx.db.select({ id: scimUsers.id }).from(scimUsers).where(and(eq(scimUsers.teamId, teamId), inArray(scimUsers.id, valid)));
  return new Set(rows.map((r) => r.id));
}
