import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { scimGroupMembers, scimGroups, scimUsers } from '#server/db/schema/scim';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import { SCIM_BASE_PATH, SCIM_SCHEMAS } from '#shared/schemas/scim';
import type { IdentityEventKind } from '#shared/schemas/audit';
import {
  ScimError,
  cleanValue,
  invalidSyntax,
  invalidValue,
  isObject,
  notFoundScim,
  parseFilter,
  parsePath,
  patchOperations,
  uniqueness,
  type Doc,
  type Json,
} from './scim-protocol';
import { paging, syncRole, teamUserIds, type ScimCaller } from './scim-users.service';

/**
 * SCIM groups (issue 39, decision 39-02). Members of the group named as the team's admin group
 * (settings, "Card admins" by default) are team admins; everyone else provisioned is a member.
 */

type GroupRow = typeof scimGroups.$inferSelect;
const MAX_MEMBERS = 1000;
const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

async function membersOf(ctx: AppContext, groupIds: string[]): Promise<Map<string, Array<{ value: string; display: string }>>> {
  const map = new Map<string, Array<{ value: string; display: string }>>();
  if (!groupIds.length) return map;
  const rows = await ctx.db
    .select({ groupId: scimGroupMembers.groupId, id: scimUsers.id, userName: scimUsers.userName })
    .from(scimGroupMembers)
    .innerJoin(scimUsers, eq(scimUsers.id, scimGroupMembers.scimUserId))
    .where(inArray(scimGroupMembers.groupId, groupIds))
    .orderBy(asc(scimUsers.userName));
  for (const r of rows) map.set(r.groupId, [...(map.get(r.groupId) ?? []), { value: r.id, display: r.userName }]);
  return map;
}

function groupResource(c: Pick<ScimCaller, 'origin'>, row: GroupRow, members: Array<{ value: string; display: string }> | null): Doc {
  const out: Doc = {
    schemas: [SCIM_SCHEMAS.group],
    id: row.id,
    displayName: row.displayName,
    meta: {
      resourceType: 'Group',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${c.origin}${SCIM_BASE_PATH}/Groups/${row.id}`,
    },
  };
  if (row.externalId !== null) out.externalId = row.externalId;
  if (members) out.members = members.map((m) => ({ ...m, $ref: `${c.origin}${SCIM_BASE_PATH}/Users/${m.value}` }));
  return out;
}

/** `excludedAttributes=members` (Entra ID asks so) or `attributes` without members: the list is left out. */
export function wantsMembers(q: { attributes?: string; excludedAttributes?: string }): boolean {
  const names = (s?: string) => (s ?? '').split(',').map((x) => x.trim().toLowerCase());
  if (names(q.excludedAttributes).includes('members')) return false;
  if (q.attributes && !names(q.attributes).includes('members')) return false;
  return true;
}

async function findRow(ctx: AppContext, c: ScimCaller, id: string): Promise<GroupRow> {
  if (!isUuid(id)) throw notFoundScim('Group not found');
  const [row] = await ctx.db.select().from(scimGroups).where(and(eq(scimGroups.id, id), eq(scimGroups.teamId, c.teamId))).limit(1);
  if (!row) throw notFoundScim('Group not found');
  return row;
}

export async function getGroup(ctx: AppContext, c: ScimCaller, id: string, q: { attributes?: string; excludedAttributes?: string }): Promise<Doc> {
  const row = await findRow(ctx, c, id);
  return groupResource(c, row, wantsMembers(q) ? ((await membersOf(ctx, [row.id])).get(row.id) ?? []) : null);
}

function groupFilterSql(text: string): SQL {
  const parts: SQL[] = [];
  for (const cmp of parseFilter(text)) {
    const v = cmp.value;
    if (typeof v !== 'string') throw new ScimError(400, `Filter on ${cmp.attr} with a string value`, 'invalidFilter');
    const attr = cmp.attr.toLowerCase();
    if (attr === 'displayname') parts.push(sql`lower(${scimGroups.displayName}) = ${v.toLowerCase()}`);
    else if (attr === 'externalid') parts.push(eq(scimGroups.externalId, v));
    else if (attr === 'id') parts.push(isUuid(v) ? eq(scimGroups.id, v) : sql`false`);
    else if (attr === 'members.value' || attr === 'members')
      parts.push(isUuid(v) ? sql`exists (select 1 from ${scimGroupMembers} m where m.group_id = ${scimGroups.id} and m.scim_user_id = ${v})` : sql`false`);
    else throw new ScimError(400, `Filtering on ${cmp.attr} is not supported (displayName, externalId, id, members.value)`, 'invalidFilter');
  }
  return and(...parts)!;
}

export async function listGroups(ctx: AppContext, c: ScimCaller, q: { filter?: string; startIndex?: string; count?: string; attributes?: string; excludedAttributes?: string }) {
  const { offset, limit, startIndex } = paging(q);
  const where = and(eq(scimGroups.teamId, c.teamId), q.filter ? groupFilterSql(q.filter) : undefined);
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(scimGroups).where(where),
    limit === 0 ? Promise.resolve([] as GroupRow[]) : ctx.db.select().from(scimGroups).where(where).orderBy(asc(scimGroups.createdAt), asc(scimGroups.id)).limit(limit).offset(offset),
  ]);
  const members = wantsMembers(q) ? await membersOf(ctx, rows.map((r) => r.id)) : null;
  return {
    schemas: [SCIM_SCHEMAS.list],
    totalResults: Number(total?.n ?? 0),
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((r) => groupResource(c, r, members ? (members.get(r.id) ?? []) : null)),
  };
}

/** `[{ value: id }, ...]` (or one such object) as the member ids; every id must be one of the team's users. */
async function memberIds(ctx: AppContext, c: ScimCaller, value: Json | undefined): Promise<string[]> {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_MEMBERS) throw invalidValue(`At most ${MAX_MEMBERS} members per request`);
  const ids = list.map((m) => {
    if (!isObject(m) || typeof m.value !== 'string') throw invalidValue('Each member must be an object with a value (the user id)');
    return m.value;
  });
  const known = await teamUserIds(ctx, c.teamId, ids);
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw invalidValue(`Unknown member "${unknown.slice(0, 60)}": not a user of this directory`);
  return [...new Set(ids)];
}

function displayNameOf(v: Json | undefined): string {
  if (typeof v !== 'string' || !v.trim()) throw invalidValue('displayName is required');
  if (v.length > 200 || /[\r\n]/.test(v)) throw invalidValue('displayName must be one line of at most 200 characters');
  return v.trim();
}

async function nameTaken(ctx: AppContext, c: ScimCaller, name: string, exceptId?: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ id: scimGroups.id })
    .from(scimGroups)
    .where(and(eq(scimGroups.teamId, c.teamId), sql`lower(${scimGroups.displayName}) = ${name.toLowerCase()}`, exceptId ? sql`${scimGroups.id} <> ${exceptId}` : undefined))
    .limit(1);
  return rows.length > 0;
}

async function audit(ctx: AppContext, c: ScimCaller, kind: IdentityEventKind, row: { id: string; displayName: string }, detail: Record<string, string | number | boolean | null> = {}) {
  await recordIdentityEvent(ctx, { kind, teamId: c.teamId, actorId: c.actorId, ip: c.ip, detail: { scimGroupId: row.id, group: row.displayName, token: c.tokenId, ...detail } });
}

async function setMembers(ctx: AppContext, groupId: string, add: string[], remove: string[] | 'all'): Promise<string[]> {
  const before = (await ctx.db.select({ id: scimGroupMembers.scimUserId }).from(scimGroupMembers).where(eq(scimGroupMembers.groupId, groupId))).map((r) => r.id);
  if (remove === 'all') await ctx.db.delete(scimGroupMembers).where(eq(scimGroupMembers.groupId, groupId));
  else if (remove.length) await ctx.db.delete(scimGroupMembers).where(and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.scimUserId, remove)));
  if (add.length) await ctx.db.insert(scimGroupMembers).values(add.map((scimUserId) => ({ groupId, scimUserId }))).onConflictDoNothing();
  return [...new Set([...before, ...add])];
}

async function syncRoles(ctx: AppContext, c: ScimCaller, ids: string[]) {
  for (const id of ids) await syncRole(ctx, c, id);
}

export async function createGroup(ctx: AppContext, c: ScimCaller, body: unknown): Promise<Doc> {
  if (!isObject(body)) throw invalidSyntax('The request body must be a JSON object');
  const doc = cleanValue(body) as Doc;
  const displayName = displayNameOf(doc.displayName);
  if (await nameTaken(ctx, c, displayName)) throw uniqueness(`A group named "${displayName.slice(0, 100)}" already exists`);
  const members = await memberIds(ctx, c, doc.members);
  const ext = typeof doc.externalId === 'string' && doc.externalId ? doc.externalId.slice(0, 254) : null;
  const [row] = await ctx.db.insert(scimGroups).values({ teamId: c.teamId, displayName, externalId: ext }).returning();
  await setMembers(ctx, row!.id, members, []);
  await syncRoles(ctx, c, members);
  await audit(ctx, c, 'scim-group-created', row!, { members: members.length });
  return groupResource(c, row!, (await membersOf(ctx, [row!.id])).get(row!.id) ?? []);
}

export async function replaceGroup(ctx: AppContext, c: ScimCaller, id: string, body: unknown): Promise<Doc> {
  const row = await findRow(ctx, c, id);
  if (!isObject(body)) throw invalidSyntax('The request body must be a JSON object');
  const doc = cleanValue(body) as Doc;
  const displayName = displayNameOf(doc.displayName);
  if (displayName.toLowerCase() !== row.displayName.toLowerCase() && (await nameTaken(ctx, c, displayName, row.id))) throw uniqueness(`A group named "${displayName.slice(0, 100)}" already exists`);
  const members = await memberIds(ctx, c, doc.members);
  const ext = typeof doc.externalId === 'string' && doc.externalId ? doc.externalId.slice(0, 254) : row.externalId;
  const [saved] = await ctx.db.update(scimGroups).set({ displayName, externalId: ext, updatedAt: new Date() }).where(eq(scimGroups.id, row.id)).returning();
  const touched = await setMembers(ctx, row.id, members, 'all');
  await syncRoles(ctx, c, touched);
  await audit(ctx, c, 'scim-group-updated', saved!, { operation: 'replace', members: members.length });
  return groupResource(c, saved!, (await membersOf(ctx, [row.id])).get(row.id) ?? []);
}

/**
 * PATCH /Groups/{id}: add or remove members (`path: "members"` with a list, Okta's
 * `members[value eq "id"]`), replace the members or the name (with a path, or Okta's path-less
 * `{ id, displayName }`).
 */
export async function patchGroup(ctx: AppContext, c: ScimCaller, id: string, body: unknown, q: { attributes?: string; excludedAttributes?: string }): Promise<Doc> {
  const row = await findRow(ctx, c, id);
  const ops = patchOperations(body);
  let displayName = row.displayName;
  let externalId = row.externalId;
  const touched = new Set<string>();
  let added = 0;
  let removed = 0;
  for (const o of ops) {
    if (o.path === undefined) {
      if (o.op === 'remove' || !isObject(o.value)) throw invalidValue('An operation without a path needs an object value');
      for (const [k, v] of Object.entries(o.value)) {
        const key = k.toLowerCase();
        if (key === 'displayname') displayName = displayNameOf(v);
        else if (key === 'externalid') externalId = typeof v === 'string' && v ? v.slice(0, 254) : null;
        else if (key === 'members') {
          const ids = await memberIds(ctx, c, v);
          for (const x of await setMembers(ctx, row.id, ids, o.op === 'replace' ? 'all' : [])) touched.add(x);
          added += ids.length;
        }
        // id, schemas, meta: not the client's to change
      }
      continue;
    }
    const p = parsePath(o.path);
    const attr = p.attr.toLowerCase();
    if (attr === 'displayname' && !p.filter && !p.sub) {
      if (o.op === 'remove') throw new ScimError(400, 'displayName is required', 'mutability');
      displayName = displayNameOf(o.value);
    } else if (attr === 'externalid' && !p.filter && !p.sub) {
      externalId = o.op === 'remove' ? null : typeof o.value === 'string' && o.value ? o.value.slice(0, 254) : null;
    } else if (attr === 'members') {
      if (o.op === 'remove') {
        let ids: string[] | 'all';
        if (p.filter) {
          if (p.filter.attr.toLowerCase() !== 'value' || typeof p.filter.value !== 'string') throw invalidValue('Remove members by value eq "id"');
          ids = [p.filter.value];
        } else if (o.value !== undefined && o.value !== null) {
          const list = Array.isArray(o.value) ? o.value : [o.value];
          ids = list.map((m) => (isObject(m) && typeof m.value === 'string' ? m.value : '')).filter(Boolean);
        } else ids = 'all';
        const before = (await ctx.db.select({ id: scimGroupMembers.scimUserId }).from(scimGroupMembers).where(eq(scimGroupMembers.groupId, row.id))).map((r) => r.id);
        await setMembers(ctx, row.id, [], ids);
        for (const x of ids === 'all' ? before : ids.filter((i) => before.includes(i))) touched.add(x);
        removed += ids === 'all' ? before.length : ids.length;
      } else {
        const ids = await memberIds(ctx, c, o.value);
        for (const x of await setMembers(ctx, row.id, ids, o.op === 'replace' ? 'all' : [])) touched.add(x);
        added += ids.length;
      }
    } else {
      throw new ScimError(400, `The path "${o.path.slice(0, 100)}" is not an attribute of a group`, 'invalidPath');
    }
  }
  if (displayName.toLowerCase() !== row.displayName.toLowerCase() && (await nameTaken(ctx, c, displayName, row.id))) throw uniqueness(`A group named "${displayName.slice(0, 100)}" already exists`);
  const [saved] = await ctx.db.update(scimGroups).set({ displayName, externalId, updatedAt: new Date() }).where(eq(scimGroups.id, row.id)).returning();
  // a rename can make (or unmake) the admin group: every member's role is looked at again
  if (displayName !== row.displayName) for (const m of (await membersOf(ctx, [row.id])).get(row.id) ?? []) touched.add(m.value);
  await syncRoles(ctx, c, [...touched]);
  await audit(ctx, c, 'scim-group-updated', saved!, { operation: 'patch', added, removed, ...(displayName !== row.displayName ? { renamedFrom: row.displayName } : {}) });
  return groupResource(c, saved!, wantsMembers(q) ? ((await membersOf(ctx, [row.id])).get(row.id) ?? []) : null);
}

export async function deleteGroup(ctx: AppContext, c: ScimCaller, id: string): Promise<void> {
  const row = await findRow(ctx, c, id);
  const members = ((await membersOf(ctx, [row.id])).get(row.id) ?? []).map((m) => m.value);
  await ctx.db.delete(scimGroups).where(and(eq(scimGroups.id, row.id), eq(scimGroups.teamId, c.teamId)));
  await syncRoles(ctx, c, members);
  await audit(ctx, c, 'scim-group-deleted', row, { members: members.length });
}
