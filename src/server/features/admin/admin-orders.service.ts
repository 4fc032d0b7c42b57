import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { cardType as findCardType, deliveryOption as findDeliveryOption } from '#shared/catalogue';
import type { AdminOrder, AdminOrderDetail, AdminOrderPage, OrderHistoryEntry, OrderNoteEntry } from '#shared/schemas/admin';
import type { AppContext, SessionUser } from '#server/context';
import { users } from '#server/db/schema/auth';
import { cards, designEvents } from '#server/db/schema/designs';
import { orderNotes, orderStatusHistory, orders } from '#server/db/schema/orders';
import { orderFulfilment } from '#server/db/schema/production';
import { carrierLabel } from '#shared/production/tracking';
import { ShippingAddressView } from '#shared/schemas/orders';
import { notFound } from '#server/http/http-errors';
import { ordersWaitingForProfile } from '#server/features/engagement/public-api';
import { getOrderPayment, orderWorkflow, saveInternalNotes } from '#server/features/orders/public-api';


/** The columns the admin list needs (never the status token or idempotency key). */
export const orderListColumns = {
  id: orders.id,
  status: orders.status,
  customerName: orders.customerName,
  email: orders.email,
  phone: orders.phone,
  companyName: orders.companyName,
  position: orders.position,
  address: orders.address,
  quantity: orders.quantity,
  cardType: orders.cardType,
  cardStyle: orders.cardStyle,
  deliveryOption: orders.deliveryOption,
  specialRequests: orders.specialRequests,
  totalCents: orders.totalCents,
  currency: orders.currency,
  templateId: orders.templateId,
  artworkUrl: orders.artworkUrl,
  cardId: orders.cardId,
  source: orders.source,
  userId: orders.userId,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
};

type ListRow = {
  id: number;
  status: string;
  customerName: string;
  email: string;
  phone: string | null;
  companyName: string | null;
  position: string | null;
  address: string | null;
  quantity: number;
  cardType: string;
  cardStyle: string;
  deliveryOption: string;
  specialRequests: string | null;
  totalCents: number;
  currency: string;
  templateId: number | null;
  artworkUrl: string | null;
  cardId: number | null;
  source: string;
  userId: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  designFront?: string | null;
  /** the order's card code has no profile to open yet (issue 20) */
  waitsForProfile?: boolean;
};

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toAdminOrder(r: ListRow): AdminOrder {
  return {
    id: r.id,
    status: r.status,
    customerName: r.customerName,
    email: r.email,
    phone: r.phone,
    company: r.companyName,
    companyName: r.companyName,
    position: r.position,
    jobTitle: r.position,
    address: r.address,
    quantity: r.quantity,
    cardType: r.cardType,
    cardTypeLabel: findCardType(r.cardType)?.label ?? r.cardType,
    cardStyle: r.cardStyle,
    deliveryOption: r.deliveryOption,
    deliveryLabel: findDeliveryOption(r.deliveryOption)?.label ?? r.deliveryOption,
    specialRequests: r.specialRequests,
    amount: Math.round(r.totalCents) / 100,
    totalCents: r.totalCents,
    currency: r.currency,
    templateId: r.templateId,
    logoUrl: r.artworkUrl,
    cardId: r.cardId,
    previewUrl: r.designFront ?? (r.artworkUrl && isImageUrl(r.artworkUrl) ? r.artworkUrl : null),
    source: r.source,
    userId: r.userId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    waitsForProfile: r.waitsForProfile ?? false,
  };
}

function isImageUrl(u: string) {
  return /\.(png|jpe?g|webp|gif|svg)(\?.*)?$/i.test(u);
}

/** `%term%` for LIKE, with the user's own %, _ and \ taken literally. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The WHERE of the admin order list: a case-insensitive substring of the customer's name, e-mail or
 * order id (a leading '#' is allowed: "#42"), plus an optional status.
 */
export function orderFilter(q: string, status?: string): SQL | undefined {
  const parts: SQL[] = [];
  const term = q.trim();
  if (term) parts.push(sql`${orders.searchText} like ${likePattern(term)}`);
  if (status) parts.push(eq(orders.status, status));
  return parts.length ? and(...parts) : undefined;
}

/** Up to this many matches of a search are collected in one scan and paged in memory. */
const SEARCH_COLLECT_MAX = 2000;

/**
 * One page of orders, newest first, with the total. A substring search cannot use an index, so it
 * is planned to read the orders once: the matches' ids are collected in one scan (a rare term, the
 * usual case: then paged in memory and the page read by primary key); when a term matches more than
 * SEARCH_COLLECT_MAX orders, the page comes from the created_at index (which finds the first matches
 * at once) and one count gives the total. See docs/decisions/08-01-order-search.md.
 */
export async function listOrders(ctx: AppContext, opts: { q: string; status?: string; page: number; pageSize: number }): Promise<AdminOrderPage> {
  const where = orderFilter(opts.q, opts.status);
  const offset = (opts.page - 1) * opts.pageSize;
  const pageByIndex = () =>
    ctx.db.select(orderListColumns).from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(opts.pageSize).offset(offset);
  let rows: ListRow[];
  let total: number;
  if (opts.q.trim()) {
    const matches = await ctx.db
      .select({ id: orders.id, createdAt: orders.createdAt })
      .from(orders)
      .where(where)
      .limit(SEARCH_COLLECT_MAX + 1);
    if (matches.length <= SEARCH_COLLECT_MAX) {
      matches.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
      total = matches.length;
      const ids = matches.slice(offset, offset + opts.pageSize).map((m) => m.id);
      const found = ids.length ? ((await ctx.db.select(orderListColumns).from(orders).where(inArray(orders.id, ids))) as unknown as ListRow[]) : [];
      const byId = new Map(found.map((r) => [r.id, r]));
      rows = ids.map((id) => byId.get(id)).filter((r): r is ListRow => !!r);
    } else {
      rows = (await pageByIndex()) as unknown as ListRow[];
      total = await countOrders(ctx, where);
    }
  } else {
    // no search: the page comes from the created_at index, the count separately
    rows = (await pageByIndex()) as unknown as ListRow[];
    total = await countOrders(ctx, where);
  }
  return { orders: await withPreviews(ctx, rows), total, page: opts.page, pageSize: opts.pageSize };
}

/**
 * Adds each order's design preview (the front image of its designed card) with one query for the
 * whole page: a card is linked by the order's card id or names the order in its own order id.
 */
export async function withPreviews(ctx: AppContext, rows: ListRow[]): Promise<AdminOrder[]> {
  if (rows.length === 0) return [];
  const orderIds = rows.map((r) => r.id);
  const cardIds = rows.map((r) => r.cardId).filter((x): x is number => typeof x === 'number');
  const [found, waiting] = await Promise.all([
    ctx.db
      .select({ id: cards.id, orderId: cards.orderId, front: cards.frontImageUrl })
      .from(cards)
      .where(cardIds.length ? sql`${inArray(cards.id, cardIds)} or ${inArray(cards.orderId, orderIds)}` : inArray(cards.orderId, orderIds))
      .orderBy(desc(cards.id)),
    ordersWaitingForProfile(ctx.db, orderIds),
  ]);
  const byCard = new Map(found.map((c) => [c.id, c.front]));
  const byOrder = new Map<number, string | null>();
  for (const c of found) if (c.orderId !== null && c.front && !byOrder.has(c.orderId)) byOrder.set(c.orderId, c.front);
  return rows.map((r) =>
    toAdminOrder({ ...r, designFront: (r.cardId !== null ? byCard.get(r.cardId) : null) ?? byOrder.get(r.id) ?? null, waitsForProfile: waiting.has(r.id) }),
  );
}

async function countOrders(ctx: AppContext, where: SQL | undefined): Promise<number> {
  const [r] = await ctx.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(orders).where(where);
  return r?.n ?? 0;
}

export async function recentOrders(ctx: AppContext, limit: number): Promise<AdminOrder[]> {
  const rows = await ctx.db.select(orderListColumns).from(orders).orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit);
  return withPreviews(ctx, rows as unknown as ListRow[]);
}

/** Streams the matching orders in pages of 1000 (for the CSV export), newest first. */
export async function* iterateOrders(ctx: AppContext, opts: { q: string; status?: string; max: number }): AsyncGenerator<AdminOrder[]> {
  const where = orderFilter(opts.q, opts.status);
  const size = 1000;
  // keyset cursor: the database's own timestamp text keeps microseconds (a JS Date would drop them)
  let cursorTs: string | null = null;
  let lastId = 0;
  let sent = 0;
  while (sent < opts.max) {
    const cursor: SQL | undefined = cursorTs !== null ? sql`(${orders.createdAt}, ${orders.id}) < (${cursorTs}::timestamptz, ${lastId})` : undefined;
    const rows = (await ctx.db
      .select({ ...orderListColumns, cursorTs: sql<string>`${orders.createdAt}::text` })
      .from(orders)
      .where(and(where, cursor))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(Math.min(size, opts.max - sent))) as unknown as Array<ListRow & { cursorTs: string }>;
    if (rows.length === 0) return;
    yield await withPreviews(ctx, rows);
    sent += rows.length;
    const last = rows[rows.length - 1];
    cursorTs = last.cursorTs;
    lastId = last.id;
    if (rows.length < size) return;
  }
}

const actorName = (u: { firstName: string; lastName: string; email: string } | null, fallback: string) =>
  u ? `${[u.firstName, u.lastName].filter(Boolean).join(' ') || u.email}` : fallback;

export async function getOrderDetail(ctx: AppContext, id: number): Promise<AdminOrderDetail> {
  const [row] = await ctx.db
    .select({ ...orderListColumns, internalNotes: orders.internalNotes, unitPriceCents: orders.unitPriceCents, deliveryFeeCents: orders.deliveryFeeCents, shippingAddress: orders.shippingAddress })
    .from(orders)
    .where(eq(orders.id, id))
    .limit(1);
  if (!row) throw notFound('Order not found');

  const historyRows = await ctx.db
    .select({ h: orderStatusHistory, u: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
    .from(orderStatusHistory)
    .leftJoin(users, eq(users.id, orderStatusHistory.changedBy))
    .where(eq(orderStatusHistory.orderId, id))
    .orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id));
  const history: OrderHistoryEntry[] = historyRows.map(({ h, u }) => ({
    id: h.id,
    fromStatus: h.fromStatus,
    toStatus: h.toStatus,
    changedBy: h.changedBy && u ? actorName(u, h.changedByLabel) : h.changedByLabel,
    note: h.note ?? null,
    createdAt: h.createdAt.toISOString(),
  }));

  const noteRows = await ctx.db
    .select({ n: orderNotes, u: { firstName: users.firstName, lastName: users.lastName, email: users.email } })
    .from(orderNotes)
    .leftJoin(users, eq(users.id, orderNotes.authorId))
    .where(eq(orderNotes.orderId, id))
    .orderBy(desc(orderNotes.createdAt), desc(orderNotes.id));
  const notes: OrderNoteEntry[] = noteRows.map(({ n, u }) => ({
    id: n.id,
    body: n.body,
    author: n.authorId && u ? actorName(u, n.authorLabel) : n.authorLabel || 'staff',
    createdAt: n.createdAt.toISOString(),
  }));

  const designCandidates = await ctx.db
    .select()
    .from(cards)
    .where(row.cardId ? sql`${cards.id} = ${row.cardId} or ${cards.orderId} = ${id}` : eq(cards.orderId, id))
    .orderBy(desc(cards.id))
    .limit(5);
  const card = designCandidates.find((c) => c.id === row.cardId) ?? designCandidates[0];
  // the latest approval's reason is set only when staff overrode a failing print check
  const [approval] = card
    ? await ctx.db
        .select({ reason: designEvents.reason })
        .from(designEvents)
        .where(and(eq(designEvents.cardId, card.id), eq(designEvents.kind, 'approved')))
        .orderBy(desc(designEvents.id))
        .limit(1)
    : [];
  const [shipped] = await ctx.db.select().from(orderFulfilment).where(eq(orderFulfilment.orderId, id)).limit(1);

  return {
    ...toAdminOrder({ ...(row as unknown as ListRow), designFront: card?.frontImageUrl ?? null, waitsForProfile: (await ordersWaitingForProfile(ctx.db, [id])).has(id) }),
    internalNotes: row.internalNotes ?? '',
    shippingAddress: row.shippingAddress ? (ShippingAddressView.safeParse({ line2: null, ...(row.shippingAddress as object) }).data ?? null) : null,
    unitPriceCents: row.unitPriceCents,
    deliveryFeeCents: row.deliveryFeeCents,
    history,
    notes,
    design: card
      ? {
          id: card.id,
          status: card.status,
          templateId: card.templateId,
          frontImageUrl: card.frontImageUrl,
          backImageUrl: card.backImageUrl,
          qrCodeUrl: card.qrCodeUrl,
          profileId: card.profileId,
          reviewNotes: card.reviewNotes,
          reviewedAt: card.reviewedAt ? card.reviewedAt.toISOString() : null,
          printOverride: card.status === 'approved' ? (approval?.reason ?? null) : null,
        }
      : null,
    shipment: shipped
      ? {
          carrier: shipped.carrier,
          carrierLabel: shipped.carrier ? carrierLabel(shipped.carrier) : null,
          trackingNumber: shipped.trackingNumber,
          trackingUrl: shipped.trackingUrl,
          shippedAt: shipped.shippedAt ? shipped.shippedAt.toISOString() : null,
          pickupCode: shipped.pickupCode,
          pickupReadyAt: shipped.pickupReadyAt ? shipped.pickupReadyAt.toISOString() : null,
        }
      : null,
    payment: await getOrderPayment(ctx, id),
    workflow: await orderWorkflow(ctx.db, id),
  };
}

export const staffLabel = (u: SessionUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;

/**
 * Save Notes: the order's current internal notes become `notes`, and the saved text is kept as one
 * entry of the notes history (who and when), in one transaction. Saving the same text again adds nothing.
 */
export async function saveOrderNotes(ctx: AppContext, id: number, notes: string, actor: SessionUser): Promise<AdminOrderDetail> {
  await saveInternalNotes(ctx, id, notes, { id: actor.id, label: staffLabel(actor) });
  return getOrderDetail(ctx, id);
}
