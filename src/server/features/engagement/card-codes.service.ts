import crypto from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { cardCodes, visits } from '#server/db/schema/engagement';
import { conflict, notFound } from '#server/http/http-errors';
import {
  CARD_CODE_ALPHABET,
  CARD_CODE_LENGTH,
  MAX_CARD_CODES,
  cardCodeQrText,
  type CardCode,
  type CreateCardCodeInput,
  type UpdateCardCodeInput,
} from '#shared/schemas/engagement';
import { cardCodePath } from '#shared/routes';
import { brandOf } from '#shared/team/brand';
import { visitFlusher } from './visit-flusher';
import { queryRows } from '#server/db/rows';
import { findProfileRowByUser } from '#server/features/profile/public-api';
import { liveOrderIdsOfUserQuery, orderBatchFacts, orderOfUser, orderOwnerStatus } from '#server/features/orders/reads';

type CodeRow = typeof cardCodes.$inferSelect;

/** A fresh code: CARD_CODE_LENGTH characters of CARD_CODE_ALPHABET, uniformly (rejection sampling). */
export function generateCardCode(length = CARD_CODE_LENGTH): string {
  const n = CARD_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = '';
  while (out.length < length) {
    for (const b of crypto.randomBytes(length * 2)) {
      if (b < limit) out += CARD_CODE_ALPHABET[b % n];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Inserts a code with a fresh random value (a collision simply draws again). */
async function insertCode(db: Db | Tx, values: { profileId: string | null; orderId: number | null; label: string }): Promise<CodeRow> {
  for (let attempt = 0; attempt < 12; attempt++) {
    const [row] = await db
      .insert(cardCodes)
      .values({ code: generateCardCode(), ...values })
      .onConflictDoNothing({ target: cardCodes.code })
      .returning();
    if (row) return row;
  }
  throw new Error('could not draw a free card code');
}

/**
 * A team order's card for one member (issue 21): the member's own code, drawn before the cards
 * are rendered (it is printed in their QR), tied to the team so that it can show the company once
 * the member leaves. A drawn code already taken (about one in 10^11) answers false.
 */
export async function insertTeamCardCode(tx: Tx, values: { code: string; profileId: string; orderId: number; teamId: string; label: string }): Promise<boolean> {
  const rows = await tx.insert(cardCodes).values(values).onConflictDoNothing({ target: cardCodes.code }).returning({ code: cardCodes.code });
  return rows.length === 1;
}

/** Turns off the team's codes of one member's profile (they left the team); answers the codes. */
export async function deactivateTeamCodes(ctx: AppContext, tx: Tx, teamId: string, profileId: string): Promise<string[]> {
  const rows = await tx
    .update(cardCodes)
    .set({ active: false, deactivatedAt: new Date() })
    .where(and(eq(cardCodes.teamId, teamId), eq(cardCodes.profileId, profileId), eq(cardCodes.active, true)))
    .returning({ code: cardCodes.code });
  for (const r of rows) forgetResolvedCode(ctx, r.code);
  return rows.map((r) => r.code);
}

/** Every live card code of a team is turned off (the team is deleted, or goes with its owner's account). */
export async function deactivateCodesOfTeam(tx: Tx, teamId: string): Promise<void> {
  await tx.update(cardCodes).set({ active: false, deactivatedAt: new Date() }).where(and(eq(cardCodes.teamId, teamId), eq(cardCodes.active, true)));
}

/** One writer per profile at a time (so two requests never give one order two codes). */
async function lockProfileCodes(tx: Tx, profileId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`card-codes:${profileId}`}))`);
}

export const orderCodeLabel = (orderId: number) => `Order #${orderId}`;

/**
 * Gives every card batch (order) of the user that has none yet its code. Called inside order
 * creation (see orders.service.ts) and again whenever the owner lists their codes, so an order
 * placed before the profile existed still gets one. Cancelled orders get none.
 */
export async function ensureOrderCardCodes(tx: Tx, userId: string, onlyOrderId?: number): Promise<CodeRow[]> {
  const profile = await findProfileRowByUser(tx, userId);
  if (!profile) return [];
  await lockProfileCodes(tx, profile.id);
  // codes made before the profile existed (or before a visitor's order was claimed) become its own
  await adoptOrderCodes(tx, userId, profile.id);
  const live = liveOrderIdsOfUserQuery(tx, userId).as('live_orders');
  const missing = await tx
    .select({ id: live.id })
    .from(live)
    .leftJoin(cardCodes, eq(cardCodes.orderId, live.id))
    .where(and(isNull(cardCodes.code), onlyOrderId ? eq(live.id, onlyOrderId) : undefined))
    .orderBy(live.id);
  const made: CodeRow[] = [];
  for (const o of missing) made.push(await insertCode(tx, { profileId: profile.id, orderId: o.id, label: orderCodeLabel(o.id) }));
  return made;
}

/** The user's orders' codes that have no profile yet are given this profile. */
async function adoptOrderCodes(db: Db | Tx, userId: string, profileId: string): Promise<string[]> {
  const rows = await db
    .update(cardCodes)
    .set({ profileId })
    .where(and(isNull(cardCodes.profileId), inArray(cardCodes.orderId, liveOrderIdsOfUserQuery(db, userId))))
    .returning({ code: cardCodes.code });
  return rows.map((r) => r.code);
}

/**
 * The hook for order creation: every order gets its batch code at once (issue 20), in the order's
 * own transaction but inside a savepoint, so a failure here can never fail the order (the owner's
 * next visit to their codes, or the production file, makes the missing one). Before the buyer has a
 * profile the code has none: a scan shows the "almost ready" page until the order is claimed.
 */
export async function createCardCodeForOrder(tx: Db | Tx, order: { id: number; userId: string | null }): Promise<void> {
  try {
    await tx.transaction(async (sp) => {
      if (order.userId && (await findProfileRowByUser(sp, order.userId))) {
        await ensureOrderCardCodes(sp, order.userId, order.id);
        return;
      }
      const [existing] = await sp.select({ code: cardCodes.code }).from(cardCodes).where(eq(cardCodes.orderId, order.id)).limit(1);
      if (!existing) await insertCode(sp, { profileId: null, orderId: order.id, label: orderCodeLabel(order.id) });
    });
  } catch {
    // made later (ensureOrderCardCodes or orderBatchQrText)
  }
}

/**
 * After an order is attached to an account (claimed, or matched by a verified e-mail): the codes of
 * the user's orders take the user's profile, and scans see it at once in this process.
 */
export async function attachOrderCodes(ctx: AppContext, userId: string): Promise<void> {
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) return;
  const codes = await ctx.db.transaction(async (tx) => {
    await lockProfileCodes(tx, profile.id);
    return adoptOrderCodes(tx, userId, profile.id);
  });
  for (const c of codes) forgetResolvedCode(ctx, c);
}

async function ownProfileId(ctx: AppContext, userId: string): Promise<string> {
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) throw notFound('Create your profile first');
  return profile.id;
}

function toCardCode(
  row: CodeRow,
  origin: string,
  stats: { views: number; lastViewAt: Date | null } | undefined,
  order: { id: number; quantity: number; cardType: string; status: string; createdAt: Date } | undefined,
): CardCode {
  const o = origin.replace(/\/+$/, '');
  return {
    code: row.code,
    label: row.label,
    active: row.active,
    orderId: row.orderId,
    order: order ? { ...order, createdAt: order.createdAt.toISOString() } : null,
    url: `${o}${cardCodePath(row.code)}`,
    qrText: cardCodeQrText(o, row.code),
    views: stats?.views ?? 0,
    lastViewAt: stats?.lastViewAt ? stats.lastViewAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    deactivatedAt: row.deactivatedAt ? row.deactivatedAt.toISOString() : null,
  };
}

async function describeCodes(ctx: AppContext, rows: CodeRow[], origin: string): Promise<CardCode[]> {
  if (!rows.length) return [];
  const codes = rows.map((r) => r.code);
  const orderIds = rows.map((r) => r.orderId).filter((x): x is number => x !== null);
  const [stats, orderRows] = await Promise.all([
    ctx.db
      .select({ code: visits.cardCode, views: count(), last: max(visits.createdAt) })
      .from(visits)
      .where(and(eq(visits.profileId, rows[0].profileId ?? ''), inArray(visits.cardCode, codes)))
      .groupBy(visits.cardCode),
    orderBatchFacts(ctx.db, orderIds),
  ]);
  const byCode = new Map(stats.map((s) => [s.code, { views: Number(s.views), lastViewAt: s.last ? new Date(s.last) : null }]));
  const byOrder = new Map(orderRows.map((o) => [o.id, o]));
  return rows.map((r) => toCardCode(r, origin, byCode.get(r.code), r.orderId ? byOrder.get(r.orderId) : undefined));
}

/** The owner's batch codes, newest first, with their views (orders without a code get one first). */
export async function listCardCodes(ctx: AppContext, userId: string, origin: string): Promise<CardCode[]> {
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) return [];
  await ctx.db.transaction((tx) => ensureOrderCardCodes(tx, userId));
  await visitFlusher(ctx).flush().catch(() => undefined);
  const rows = await ctx.db.select().from(cardCodes).where(eq(cardCodes.profileId, profile.id)).orderBy(desc(cardCodes.createdAt), desc(cardCodes.code));
  return describeCodes(ctx, rows, origin);
}

/**
 * A code made by the owner: for one of their orders that has none (409 when it has one), or
 * free-standing with a label (e.g. cards from an earlier batch). At most MAX_CARD_CODES.
 */
export async function createCardCode(ctx: AppContext, userId: string, input: Required<Pick<CreateCardCodeInput, 'label'>> & { orderId?: number }, origin: string): Promise<CardCode> {
  const profileId = await ownProfileId(ctx, userId);
  const row = await ctx.db.transaction(async (tx) => {
    await lockProfileCodes(tx, profileId);
    const [{ n }] = await tx.select({ n: count() }).from(cardCodes).where(eq(cardCodes.profileId, profileId));
    if (Number(n) >= MAX_CARD_CODES) throw conflict(`You can have up to ${MAX_CARD_CODES} card codes`);
    if (input.orderId !== undefined) {
      const order = await orderOfUser(tx, input.orderId, userId);
      if (!order) throw notFound('Order not found');
      const [existing] = await tx.select({ code: cardCodes.code }).from(cardCodes).where(eq(cardCodes.orderId, order.id)).limit(1);
      if (existing) throw conflict(`Order #${order.id} already has the code ${existing.code}`, { orderId: 'This order already has a code' });
    }
    return insertCode(tx, {
      profileId,
      orderId: input.orderId ?? null,
      label: input.label || (input.orderId !== undefined ? orderCodeLabel(input.orderId) : 'Cards'),
    });
  });
  const [described] = await describeCodes(ctx, [row], origin);
  return described;
}

/** Turns a code off (a lost batch) or on again, or renames it. Someone else's code: 404. */
export async function updateCardCode(ctx: AppContext, userId: string, code: string, input: UpdateCardCodeInput, origin: string): Promise<CardCode> {
  const profileId = await ownProfileId(ctx, userId);
  const set: Partial<typeof cardCodes.$inferInsert> = {};
  if (input.label !== undefined) set.label = input.label.trim();
  if (input.active !== undefined) {
    set.active = input.active;
    set.deactivatedAt = input.active ? null : new Date();
  }
  const [current] = await ctx.db.select().from(cardCodes).where(and(eq(cardCodes.code, code), eq(cardCodes.profileId, profileId))).limit(1);
  if (!current) throw notFound('Card code not found');
  // turning off an already-off code keeps the time it was first turned off
  if (input.active === false && !current.active) delete set.deactivatedAt;
  const [row] = await ctx.db.update(cardCodes).set(set).where(eq(cardCodes.code, code)).returning();
  forgetResolvedCode(ctx, code);
  const [described] = await describeCodes(ctx, [row], origin);
  return described;
}

// ---- resolving /c/{code}: the hot path of every card scan, cached briefly in process ----

export interface ResolvedCode {
  code: string;
  /** null: the order's buyer has no profile yet (the code shows the "almost ready" page) */
  profileId: string | null;
  active: boolean;
  /** a team card's company (issue 21): a turned-off team card shows the company, not the person */
  company: CompanyContact | null;
}

export interface CompanyContact {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  website: string | null;
  /** the team's brand (issue 37): its logo and header colour on the company page */
  logoUrl: string | null;
  primaryColor: string | null;
}

const RESOLVE_TTL_MS = 10_000;
const RESOLVE_MAX = 5_000;
const resolveCaches = new WeakMap<object, Map<string, { value: ResolvedCode | null; expires: number }>>();

function resolveCache(ctx: AppContext) {
  let c = resolveCaches.get(ctx);
  if (!c) {
    c = new Map();
    resolveCaches.set(ctx, c);
  }
  return c;
}

export function forgetResolvedCode(ctx: AppContext, code: string) {
  resolveCache(ctx).delete(code);
}

/**
 * The profile behind a code (upper-cased already), or null when there is no such code. A change
 * made through this process is seen at once, other instances see it within RESOLVE_TTL_MS.
 */
export async function resolveCardCode(ctx: AppContext, code: string): Promise<ResolvedCode | null> {
  const cache = resolveCache(ctx);
  const now = Date.now();
  const hit = cache.get(code);
  if (hit && hit.expires > now) return hit.value;
  // a code without a profile yet opens the profile its order's owner has made since
  const [row] = await queryRows<{
    code: string;
    profile_id: string | null;
    active: boolean;
    team_name: string | null;
    company_name: string | null;
    company_email: string | null;
    company_phone: string | null;
    address: string | null;
    website: string | null;
    brand: unknown;
  }>(
    ctx.db,
    sql`select cc.code, coalesce(cc.profile_id, p.id) as profile_id, cc.active,
               t.name as team_name, t.company_name, t.company_email, t.company_phone, t.address, t.website, t.brand
        from card_codes cc
        left join orders o on cc.profile_id is null and o.id = cc.order_id
        left join profiles p on p.user_id = o.user_id
        left join teams t on t.id = cc.team_id
        where cc.code = ${code}
        limit 1`,
  );
  const company: CompanyContact | null = row?.team_name
    ? {
        name: row.company_name || row.team_name,
        email: row.company_email,
        phone: row.company_phone,
        address: row.address,
        website: row.website,
        logoUrl: brandOf(row.brand).logoUrl,
        primaryColor: brandOf(row.brand).primaryColor,
      }
    : null;
  const value = row ? { code: row.code, profileId: row.profile_id, active: row.active, company } : null;
  if (cache.size >= RESOLVE_MAX) cache.clear();
  cache.set(code, { value, expires: now + RESOLVE_TTL_MS });
  return value;
}

/**
 * What the QR code printed on an order's cards carries: the batch's own short link
 * (`HTTPS://HOST/C/CODE`, alphanumeric mode). An order that has no code yet (placed before codes
 * were made at once) gets one here, so a production file never shows a placeholder. Null only for a
 * missing or cancelled order, or when the owner turned the batch's code off (print the profile URL).
 */
export async function orderBatchQrText(ctx: AppContext, orderId: number, origin: string): Promise<string | null> {
  const [row] = await ctx.db.select({ code: cardCodes.code, active: cardCodes.active }).from(cardCodes).where(eq(cardCodes.orderId, orderId)).limit(1);
  if (row) return row.active ? cardCodeQrText(origin, row.code) : null;
  const order = await orderOwnerStatus(ctx.db, orderId);
  if (!order || order.status === 'cancelled') return null;
  await createCardCodeForOrder(ctx.db, order);
  const [made] = await ctx.db.select({ code: cardCodes.code }).from(cardCodes).where(and(eq(cardCodes.orderId, orderId), eq(cardCodes.active, true))).limit(1);
  return made ? cardCodeQrText(origin, made.code) : null;
}

/** Orders whose code has no profile to open yet (staff see "Waits for profile"). */
export async function ordersWaitingForProfile(db: Db | Tx, orderIds: number[]): Promise<Set<number>> {
  if (!orderIds.length) return new Set();
  const rows = await queryRows<{ order_id: number }>(
    db,
    sql`select cc.order_id from card_codes cc
        join orders o on o.id = cc.order_id
        left join profiles p on p.user_id = o.user_id
        where cc.profile_id is null and p.id is null and cc.order_id in (${sql.join(orderIds.map((id) => sql`${id}`), sql`, `)})`,
  );
  return new Set(rows.map((r) => Number(r.order_id)));
}
