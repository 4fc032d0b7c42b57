import { eq, sql } from 'drizzle-orm';
import { cardType as findCardType, deliveryOption as findDeliveryOption, orderStepLabel } from '#shared/catalogue';
import { dueWindow, isOverdue } from '#shared/production/due-date';
import { ndefPayload } from './ndef';
import { carrierLabel, normalizeTrackingNumber, PICKUP_CODE_ALPHABET, PICKUP_CODE_LENGTH, trackingUrl } from '#shared/production/tracking';
import { adminOrderUrl, cardCodePath } from '#shared/routes';
import { PICKUP_DELIVERY_OPTION, ShippingAddressView } from '#shared/schemas/orders';
import { addressLines } from '#shared/orders/address';
import type { NfcPayloadEntry, ProductionOrder, ProductionQueueResponse, ProductionShipmentBody } from '#shared/schemas/production';
import type { AppContext } from '#server/context';
import { orderFulfilment } from '#server/db/schema/production';
import { queryRows } from '#server/db/rows';
import { badRequest, notFound } from '#server/http/http-errors';
import { shortId } from '#server/infra/crypto';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { changeOrderStatus, type StatusActor } from '#server/features/orders/public-api';
import { lockOrder } from '#server/features/orders/reads';
import { getStudio } from '#server/features/settings/public-api';
import type { JobTicketData } from './job-ticket.task';

/** What the queue reads of one order (one query for the whole queue). */
type QueueRow = {
  id: number;
  customer_name: string;
  company_name: string | null;
  card_type: string;
  card_style: string;
  quantity: number;
  delivery_option: string;
  status: string;
  created_at: string | Date;
  artwork_url: string | null;
  special_requests: string | null;
  internal_notes: string | null;
  email: string;
  phone: string | null;
  address: string | null;
  /** the order's delivery address (issue 35), jsonb */
  shipping_address: unknown;
  card_ids: number[] | null;
  unapproved_cards: number | string;
  design_approved_at: string | Date | null;
  started_at: string | Date | null;
  codes: string[] | null;
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  shipped_at: string | Date | null;
  pickup_code: string | null;
  pickup_ready_at: string | Date | null;
};

const toDate = (v: string | Date) => (v instanceof Date ? v : new Date(v));
const isoOrNull = (v: string | Date | null) => (v === null ? null : toDate(v).toISOString());

/** Statuses the queue shows when no status is chosen (finished and cancelled orders are not on the floor). */
const ON_FLOOR = ['pending', 'processing', 'in-production', 'quality-check', 'shipped', 'ready-for-pickup'];

function queueSql(where: ReturnType<typeof sql>) {
  return sql`
    select o.id, o.customer_name, o.company_name, o.card_type, o.card_style, o.quantity, o.delivery_option, o.status,
           o.created_at, o.artwork_url, o.special_requests, o.internal_notes, o.email, o.phone, o.address, o.shipping_address,
           (select array_agg(c.id order by c.id) from cards c where (c.order_id = o.id or c.id = o.card_id) and c.status <> 'rejected') as card_ids,
           (select count(*) from cards c where (c.order_id = o.id or c.id = o.card_id) and c.status <> 'approved') as unapproved_cards,
           (select max(c.reviewed_at) from cards c where (c.order_id = o.id or c.id = o.card_id) and c.status = 'approved') as design_approved_at,
           (select min(h.created_at) from order_status_history h where h.order_id = o.id and h.to_status not in ('pending', 'cancelled')) as started_at,
           (select array_agg(k.code order by k.created_at, k.code) from card_codes k where k.order_id = o.id and k.active) as codes,
           f.carrier, f.tracking_number, f.tracking_url, f.shipped_at, f.pickup_code, f.pickup_ready_at
      from orders o left join order_fulfilment f on f.order_id = o.id
     where ${where}`;
}

/**
 * Approved for production: a designed order once every card of it is approved (design review), any
 * order once staff moved it past pending. The due date counts from the design approval, else from
 * the first move past pending (decision 22-02).
 */
function approvedAt(r: QueueRow): Date | null {
  const cards = r.card_ids ?? [];
  const designApproved = cards.length > 0 && Number(r.unapproved_cards) === 0 && r.design_approved_at ? toDate(r.design_approved_at) : null;
  if (designApproved) return designApproved;
  if (r.status !== 'pending' && r.status !== 'cancelled') return r.started_at ? toDate(r.started_at) : toDate(r.created_at);
  return null;
}

function toProductionOrder(r: QueueRow, now: Date): ProductionOrder | null {
  const approved = approvedAt(r);
  if (!approved) return null;
  const window = dueWindow(r.delivery_option, approved);
  const hasFulfilment = r.carrier !== null || r.pickup_code !== null;
  return {
    id: r.id,
    customerName: r.customer_name,
    companyName: r.company_name,
    cardType: r.card_type,
    cardTypeLabel: findCardType(r.card_type)?.label ?? r.card_type,
    cardStyle: r.card_style,
    quantity: Number(r.quantity),
    deliveryOption: r.delivery_option,
    deliveryLabel: findDeliveryOption(r.delivery_option)?.label ?? r.delivery_option,
    status: r.status,
    statusLabel: orderStepLabel(r.status, r.delivery_option),
    approvedAt: approved.toISOString(),
    earliestAt: window.earliestAt.toISOString(),
    dueAt: window.dueAt.toISOString(),
    overdue: isOverdue(window.dueAt, r.status, now),
    cardIds: (r.card_ids ?? []).map(Number),
    hasArtwork: !!r.artwork_url,
    codes: r.codes ?? [],
    fulfilment: hasFulfilment
      ? {
          carrier: r.carrier,
          carrierLabel: r.carrier ? carrierLabel(r.carrier) : null,
          trackingNumber: r.tracking_number,
          trackingUrl: r.tracking_url,
          shippedAt: isoOrNull(r.shipped_at),
          pickupCode: r.pickup_code,
          pickupReadyAt: isoOrNull(r.pickup_ready_at),
        }
      : null,
  };
}

/** The queue: approved orders, soonest due first (overdue ones first of all), filtered by status and card type. */
export async function listProductionQueue(ctx: AppContext, q: { status: string; cardType: string }, now = new Date()): Promise<ProductionQueueResponse> {
  const statuses = q.status ? [q.status] : ON_FLOOR;
  const parts = [sql`o.status in (${sql.join(statuses.map((s) => sql`${s}`), sql`, `)})`];
  if (q.cardType) parts.push(sql`o.card_type = ${q.cardType}`);
  const rows = await queryRows<QueueRow>(ctx.db, queueSql(sql.join(parts, sql` and `)));
  const list = rows.map((r) => toProductionOrder(r, now)).filter((o): o is ProductionOrder => o !== null);
  list.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id - b.id);
  return { orders: list, now: now.toISOString() };
}

async function queueRow(ctx: AppContext, orderId: number): Promise<QueueRow> {
  const [row] = await queryRows<QueueRow>(ctx.db, queueSql(sql`o.id = ${orderId}`));
  if (!row) throw notFound('Order not found');
  return row;
}

/** Rows of the chosen orders, in the order given (unknown ids: 400 naming them). */
export async function exportRows(ctx: AppContext, orderIds: number[]): Promise<Array<{ row: QueueRow; order: ProductionOrder | null }>> {
  const ids = [...new Set(orderIds)];
  const rows = await queryRows<QueueRow>(ctx.db, queueSql(sql`o.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw badRequest(`Unknown orders: ${missing.map((id) => `#${id}`).join(', ')}`, { orderIds: `Unknown orders: ${missing.map((id) => `#${id}`).join(', ')}` });
  const now = new Date();
  return ids.map((id) => ({ row: byId.get(id)!, order: toProductionOrder(byId.get(id)!, now) }));
}

export async function getProductionOrder(ctx: AppContext, orderId: number): Promise<ProductionOrder> {
  const row = await queueRow(ctx, orderId);
  const order = toProductionOrder(row, new Date());
  if (!order) throw badRequest('This order is not approved for production yet', { status: 'Approve its design or move it past Pending first' });
  return order;
}

function nfcEntries(codes: string[], origin: string, orderId: number): NfcPayloadEntry[] {
  const base = origin.replace(/\/+$/, '');
  return codes.map((code, i) => {
    const p = ndefPayload(`${base}${cardCodePath(code)}`);
    return { code, label: codes.length > 1 ? `Order #${orderId} card ${i + 1}` : `Order #${orderId}`, url: p.url, recordHex: p.recordHex, tlvHex: p.tlvHex, bytes: p.bytes, fitsNtag213: p.fitsNtag213, fitsNtag215: p.fitsNtag215 };
  });
}

/** Every batch code of the order as the NDEF URI record its chips get. */
export async function orderNfcPayloads(ctx: AppContext, orderId: number, origin: string): Promise<NfcPayloadEntry[]> {
  return orderNfcPayloadsOf(await queueRow(ctx, orderId), origin);
}

export function orderNfcPayloadsOf(row: QueueRow, origin: string): NfcPayloadEntry[] {
  return nfcEntries(row.codes ?? [], origin, row.id);
}

/** The encoder's CSV: code, URL, NDEF hex (what is written to the tag), bytes, and the chip fits. */
export function nfcCsvLines(entries: NfcPayloadEntry[]): string[][] {
  return [
    ['code', 'url', 'ndef_hex', 'bytes', 'ndef_record_hex', 'fits_ntag213', 'fits_ntag215'],
    ...entries.map((e) => [e.code, e.url, e.tlvHex, String(e.bytes), e.recordHex, e.fitsNtag213 ? 'yes' : 'no', e.fitsNtag215 ? 'yes' : 'no']),
  ];
}

/** The ticket's "Ship to": the order's delivery address (never the address printed on the card), or pickup. */
function shipTo(row: QueueRow): string {
  if (row.delivery_option === PICKUP_DELIVERY_OPTION) return 'Pickup at the studio (no shipping)';
  const a = row.shipping_address ? ShippingAddressView.safeParse({ line2: null, ...(row.shipping_address as object) }).data : undefined;
  return a ? addressLines(a).join(', ') : 'no delivery address on the order';
}

const dueLabel = (d: Date) => d.toISOString().slice(0, 10) + ' (end of day, UTC)';

/** The job ticket's data for one order row (no database work: the export calls it per order). */
export function jobTicketData(row: QueueRow, order: ProductionOrder | null, origin: string): JobTicketData {
  const rows: Array<[string, string]> = [
    ['Customer', [row.customer_name, row.company_name].filter(Boolean).join(', ')],
    ['Contact', [row.email, row.phone].filter(Boolean).join(', ')],
    ['Card type', findCardType(row.card_type)?.label ?? row.card_type],
    ['Style', row.card_style],
    ['Quantity', String(row.quantity)],
    ['Delivery', findDeliveryOption(row.delivery_option)?.label ?? row.delivery_option],
    ['Ship to', shipTo(row)],
    ['Status', orderStepLabel(row.status, row.delivery_option)],
    ['Approved', order ? order.approvedAt.replace('T', ' ').slice(0, 16) + ' UTC' : 'not yet approved'],
    ['Print files', (row.card_ids ?? []).length ? (row.card_ids ?? []).map((id) => `card ${id}`).join(', ') : row.artwork_url ? 'artwork from the order form' : 'none: no design and no artwork'],
  ];
  const notes = [row.special_requests ? `Customer: ${row.special_requests}` : '', row.internal_notes ? `Staff: ${row.internal_notes}` : ''].filter(Boolean);
  return {
    orderId: row.id,
    title: `Job ticket - Order #${row.id}`,
    dueLabel: order ? dueLabel(new Date(order.dueAt)) : 'not approved yet',
    dueAt: order?.dueAt ?? '',
    overdue: order?.overdue ?? false,
    rush: row.delivery_option === 'rush-24h' || row.delivery_option === 'same-day-manhattan',
    rows,
    codes: nfcEntries(row.codes ?? [], origin, row.id),
    notes,
    adminUrl: adminOrderUrl(origin, row.id),
    generatedAt: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
  };
}

/** Draws a job ticket in the worker pool. */
export async function renderJobTicket(data: JobTicketData): Promise<Buffer> {
  return asBuffer(await runTask<Uint8Array>('render', 'jobTicket', data));
}

export async function orderJobTicket(ctx: AppContext, orderId: number, origin: string): Promise<Buffer> {
  const row = await queueRow(ctx, orderId);
  return renderJobTicket(jobTicketData(row, toProductionOrder(row, new Date()), origin));
}

/**
 * Shipped: the carrier, the (checked) tracking number and its link are stored, the order moves to
 * Shipped (history row, e-mail with the tracking link), in one transaction. Shipping again with
 * another number corrects it (no second e-mail).
 */
export async function markShipped(ctx: AppContext, orderId: number, body: ProductionShipmentBody, actor: StatusActor, baseUrl: string): Promise<ProductionOrder> {
  const number = normalizeTrackingNumber(body.trackingNumber);
  const url = trackingUrl(body.carrier, number);
  await ctx.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    if (!o) throw notFound('Order not found');
    if (o.status === 'cancelled') throw badRequest('This order is cancelled', { status: 'A cancelled order cannot ship' });
    const now = new Date();
    const values = { carrier: body.carrier, trackingNumber: number, trackingUrl: url, shippedAt: now, updatedAt: now };
    await tx.insert(orderFulfilment).values({ orderId, ...values }).onConflictDoUpdate({ target: orderFulfilment.orderId, set: values });
    await changeOrderStatus(ctx, orderId, 'shipped', actor, {
      tx,
      baseUrl,
      emailDetails: [`Carrier: ${carrierLabel(body.carrier)}, tracking number ${number}.`, `Track your parcel: ${url}`],
    });
  });
  ctx.outbox.kick();
  return getProductionOrder(ctx, orderId);
}

/** Ready for pickup (Pickup NYC): a short code is made once, the order moves on, the e-mail carries the code. */
export async function markPickupReady(ctx: AppContext, orderId: number, actor: StatusActor, baseUrl: string): Promise<ProductionOrder> {
  await ctx.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    if (!o) throw notFound('Order not found');
    if (o.status === 'cancelled') throw badRequest('This order is cancelled', { status: 'A cancelled order cannot be picked up' });
    const [existing] = await tx.select({ pickupCode: orderFulfilment.pickupCode }).from(orderFulfilment).where(eq(orderFulfilment.orderId, orderId)).limit(1);
    const code = existing?.pickupCode ?? shortId(PICKUP_CODE_LENGTH, PICKUP_CODE_ALPHABET);
    const now = new Date();
    await tx
      .insert(orderFulfilment)
      .values({ orderId, pickupCode: code, pickupReadyAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: orderFulfilment.orderId, set: { pickupCode: code, pickupReadyAt: now, updatedAt: now } });
    // the studio's address, hours and instructions from the shop settings (issue 35)
    const studio = await getStudio(tx);
    await changeOrderStatus(ctx, orderId, 'ready-for-pickup', actor, {
      tx,
      baseUrl,
      emailDetails: [
        `Your pickup code: ${code}`,
        `Studio: ${studio.address.split('\n').map((l) => l.trim()).filter(Boolean).join(', ')} (map: ${studio.mapUrl})`,
        `Opening hours: ${studio.hours.split('\n').map((l) => l.trim()).filter(Boolean).join('; ')}. Phone: ${studio.phone}.`,
        ...(studio.pickupInstructions.trim() ? [studio.pickupInstructions.trim()] : []),
      ],
    });
  });
  ctx.outbox.kick();
  return getProductionOrder(ctx, orderId);
}
