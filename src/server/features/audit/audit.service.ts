import { and, count, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { identityEvents } from '#server/db/schema/audit';
import { CSV_BOM, csvRow } from '#server/http/csv';
import { AUDIT_PAGE_SIZE, IDENTITY_EVENT_LABELS, type AuditListResponse, type IdentityEvent, type IdentityEventKind } from '#shared/schemas/audit';

/**
 * The identity audit log (issue 39, decision 39-02). `recordIdentityEvent` is the one way in; it
 * never throws (a sign-in does not fail because its log line could not be written). Entries older
 * than AUDIT_LOG_RETENTION_DAYS are deleted as the log is written and read (at most once a minute
 * per process), so no timer is needed and nothing older is ever shown.
 */

export interface IdentityEventInput {
  kind: IdentityEventKind;
  outcome?: 'success' | 'failure';
  /** the team it belongs to (SSO and SCIM); a person's own events reach their team owner through the membership */
  teamId?: string | null;
  /** whom it concerns */
  userId?: string | null;
  /** who did it, when not the person themselves */
  actorId?: string | null;
  email?: string | null;
  /** the request (its client address is kept), or the address itself */
  req?: { ip: string } | null;
  ip?: string;
  detail?: Record<string, string | number | boolean | null>;
}

const PURGE_EVERY_MS = 60_000;
const lastPurge = new WeakMap<object, number>();
const MAX_DETAIL_VALUE = 300;

export async function purgeExpiredIdentityEvents(ctx: AppContext, force = false): Promise<void> {
  const now = Date.now();
  if (!force && now - (lastPurge.get(ctx) ?? 0) < PURGE_EVERY_MS) return;
  lastPurge.set(ctx, now);
  const cutoff = new Date(now - ctx.config.AUDIT_LOG_RETENTION_DAYS * 86400_000);
  await ctx.db.delete(identityEvents).where(lt(identityEvents.at, cutoff));
}

function cleanDetail(detail: IdentityEventInput['detail']): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(detail ?? {}).slice(0, 20)) out[k.slice(0, 60)] = typeof v === 'string' ? v.slice(0, MAX_DETAIL_VALUE) : v;
  return out;
}

/** Writes one entry of the identity audit log. Never throws: a failure is logged and the caller goes on. */
export async function recordIdentityEvent(ctx: AppContext, e: IdentityEventInput): Promise<void> {
  try {
    await ctx.db.insert(identityEvents).values({
      kind: e.kind,
      outcome: e.outcome ?? (e.kind.endsWith('-failed') || e.kind === 'scim-request-refused' ? 'failure' : 'success'),
      teamId: e.teamId ?? null,
      userId: e.userId ?? null,
      actorId: e.actorId ?? null,
      email: e.email ? e.email.slice(0, 254) : null,
      ip: (e.ip ?? e.req?.ip ?? '').slice(0, 64),
      detail: cleanDetail(e.detail),
    });
    await purgeExpiredIdentityEvents(ctx);
  } catch (err) {
    ctx.log.warn({ err, kind: e.kind }, 'identity audit event not recorded');
  }
}

type Row = typeof identityEvents.$inferSelect;

function toEvent(r: Row): IdentityEvent {
  return {
    id: r.id,
    at: r.at.toISOString(),
    kind: r.kind,
    outcome: r.outcome === 'failure' ? 'failure' : 'success',
    teamId: r.teamId,
    userId: r.userId,
    actorId: r.actorId,
    email: r.email,
    ip: r.ip,
    detail: (r.detail ?? {}) as IdentityEvent['detail'],
  };
}

/** What a list reads: a team's entries (and its members' own since they joined), or everything (staff). */
export interface AuditScope {
  teamId?: string;
  members?: Array<{ userId: string; joinedAt: Date }>;
  kind?: string;
  email?: string;
}

function whereOf(scope: AuditScope): SQL | undefined {
  const parts: SQL[] = [];
  if (scope.teamId) {
    const own: SQL[] = [eq(identityEvents.teamId, scope.teamId)];
    // a member's personal events (sign-ins, factors) from the day they joined; at most 500 members
    for (const m of scope.members ?? []) own.push(and(eq(identityEvents.userId, m.userId), sql`${identityEvents.teamId} is null`, sql`${identityEvents.at} >= ${m.joinedAt.toISOString()}`)!);
    parts.push(or(...own)!);
  }
  if (scope.kind) parts.push(eq(identityEvents.kind, scope.kind));
  if (scope.email) parts.push(sql`lower(${identityEvents.email}) = ${scope.email.toLowerCase()}`);
  return parts.length ? and(...parts) : undefined;
}

export async function listIdentityEvents(ctx: AppContext, scope: AuditScope, page: number): Promise<AuditListResponse> {
  await purgeExpiredIdentityEvents(ctx);
  const where = whereOf(scope);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(identityEvents)
      .where(where)
      .orderBy(desc(identityEvents.at), desc(identityEvents.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((page - 1) * AUDIT_PAGE_SIZE),
    ctx.db.select({ n: count() }).from(identityEvents).where(where),
  ]);
  return { events: rows.map(toEvent), total: Number(total?.n ?? 0), page, pageSize: AUDIT_PAGE_SIZE, retentionDays: ctx.config.AUDIT_LOG_RETENTION_DAYS };
}

const CSV_HEADERS = ['Time (UTC)', 'Event', 'Kind', 'Outcome', 'E-mail', 'User id', 'Actor id', 'Team id', 'IP address', 'Detail'];
/** A CSV export holds at most this many rows (the newest), like the other exports. */
const CSV_MAX_ROWS = 50_000;

export async function identityEventsCsv(ctx: AppContext, scope: AuditScope): Promise<string> {
  await purgeExpiredIdentityEvents(ctx);
  const rows = await ctx.db.select().from(identityEvents).where(whereOf(scope)).orderBy(desc(identityEvents.at), desc(identityEvents.id)).limit(CSV_MAX_ROWS);
  let out = CSV_BOM + csvRow(CSV_HEADERS);
  for (const r of rows) {
    const detail = Object.entries((r.detail ?? {}) as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join('; ');
    out += csvRow([
      r.at.toISOString().replace('T', ' ').slice(0, 19),
      IDENTITY_EVENT_LABELS[r.kind as IdentityEventKind] ?? r.kind,
      r.kind,
      r.outcome,
      r.email ?? '',
      r.userId ?? '',
      r.actorId ?? '',
      r.teamId ?? '',
      r.ip,
      detail,
    ]);
  }
  return out;
}
