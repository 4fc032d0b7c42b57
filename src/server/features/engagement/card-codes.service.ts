import crypto from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, max, ne, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import type { Db, Tx } from '#server/db/client';
import { cardCodes, orders, profiles, visits } from '#server/db/schema/index';
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
import { visitFlusher } from '#server/jobs/visit-flusher';
import { findProfileRowByUser } from '#server/features/profile/public-api';

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
async function insertCode(db: Db | Tx, values: { profileId: string; orderId: number | null; label: string }): Promise<CodeRow> {
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
  const missing = await tx
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(cardCodes, eq(cardCodes.orderId, orders.id))
    .where(and(eq(orders.userId, userId), ne(orders.status, 'cancelled'), isNull(cardCodes.code), onlyOrderId ? eq(orders.id, onlyOrderId) : undefined))
    .orderBy(orders.id);
  const made: CodeRow[] = [];
  for (const o of missing) made.push(await insertCode(tx, { profileId: profile.id, orderId: o.id, label: orderCodeLabel(o.id) }));
  return made;
}

/**
 * The hook for order creation: the new order's batch code, in the order's own transaction but
 * inside a savepoint, so a failure here can never fail the order (the owner's next visit to
 * their codes makes the missing one). Orders without a signed-in user, or whose user has no
 * profile yet, get their code later the same way.
 */
export async function createCardCodeForOrder(tx: Db | Tx, order: { id: number; userId: string | null }): Promise<void> {
  if (!order.userId) return;
  const userId = order.userId;
  try {
    await tx.transaction((sp) => ensureOrderCardCodes(sp, userId, order.id));
  } catch {
    // made later by ensureOrderCardCodes when the owner lists their codes
  }
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
      .where(and(eq(visits.profileId, rows[0].profileId), inArray(visits.cardCode, codes)))
      .groupBy(visits.cardCode),
    orderIds.length
      ? ctx.db
          .select({ id: orders.id, quantity: orders.quantity, cardType: orders.cardType, status: orders.status, createdAt: orders.createdAt })
          .from(orders)
          .where(inArray(orders.id, orderIds))
      : Promise.resolve([]),
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
      const [order] = await tx.select({ id: orders.id }).from(orders).where(and(eq(orders.id, input.orderId), eq(orders.userId, userId))).limit(1);
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
  profileId: string;
  active: boolean;
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
  const [row] = await ctx.db
    .select({ code: cardCodes.code, profileId: cardCodes.profileId, active: cardCodes.active })
    .from(cardCodes)
    .innerJoin(profiles, eq(profiles.id, cardCodes.profileId))
    .where(eq(cardCodes.code, code))
    .limit(1);
  const value = row ?? null;
  if (cache.size >= RESOLVE_MAX) cache.clear();
  cache.set(code, { value, expires: now + RESOLVE_TTL_MS });
  return value;
}

/**
 * What the QR code printed on an order's cards should carry: the batch's own short link
 * (`HTTPS://HOST/C/CODE`, alphanumeric mode) when the order has an active code, otherwise null
 * (print the profile URL). For the production file of an order (admin card generation).
 */
export async function orderBatchQrText(ctx: AppContext, orderId: number, origin: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ code: cardCodes.code })
    .from(cardCodes)
    .where(and(eq(cardCodes.orderId, orderId), eq(cardCodes.active, true)))
    .limit(1);
  return row ? cardCodeQrText(origin, row.code) : null;
}
