import { and, eq, sql } from 'drizzle-orm';
import { ORDER_STATUSES, cardType, deliveryOption, priceOrder, type OrderStatus } from '#shared/catalogue';
import { claimOrderUrl, orderStatusUrl } from '#shared/routes';
import { ARTWORK_URL_RE, type OrderInputData, type OrderStatusView } from '#shared/schemas/orders';
import type { AppContext } from '#server/context';
import type { Tx } from '#server/db/client';
import { orders, orderStatusHistory } from '#server/db/schema/orders';
import { queryRow } from '#server/db/rows';
import { hmacHex, randomToken, sha256Hex } from '#server/infra/crypto';
import { badRequest, conflict, conflictMissing, notFound } from '#server/http/http-errors';
import { checkMove } from '#shared/orders/status-machine';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { orderEventData, recordEvent } from '#server/features/webhooks/public-api';
import { createStoreCheckout } from '#server/features/shopify/public-api';
import { createCardCodeForOrder } from '#server/features/engagement/public-api';
import { assertFilesOwned, claimTokenOwnedFiles } from '#server/infra/file-ownership';

import { orderReceivedEmail, orderStatusChangedEmail } from './order-emails';
import { orderFacts } from './order-facts';
import { orderViews } from './order-view';
import { notifyStaff } from './staff-notices';

const ARTWORK_NOT_FOUND = 'Artwork not found. Please upload it again.';

export type OrderRow = typeof orders.$inferSelect;

export interface CreateOrderOptions {
  /** run inside the caller's transaction (the design flow creates its card and the order together) */
  tx?: Tx;
  userId?: string;
  cardId?: number;
  source: 'order-form' | 'design' | 'team';
  /** a team's order for several members (issue 21): each member's card gets its own code (made by the team) */
  teamId?: string;
  /** Idempotency-Key header or the form's client token: a retry with the same key answers the same order */
  idempotencyKey?: string;
  /**
   * whose key it is (issue 33): the key is looked up only within this scope, so another caller's
   * replay of a known key never finds the order. Defaults to the account (`user:<id>`); a signed-out
   * caller's comes from {@link visitorKeyScope}, a team's order uses `team:<id>`.
   */
  idempotencyScope?: string;
  /** the site's origin for links in the e-mail, e.g. https://metalcards.nyc */
  baseUrl: string;
}

export interface CreateOrderResult {
  order: OrderRow;
  /** true when the key had already made this order (nothing new was written) */
  replayed: boolean;
  statusUrl: string;
}

/** The key scope of a signed-in caller's orders (the order form and the designer). */
export function userKeyScope(userId: string): string {
  return `user:${userId}`;
}

/** The key scope of a team's orders: their own space, never the members' or visitors' (issue 33). */
export function teamKeyScope(teamId: string): string {
  return `team:${teamId}`;
}

/**
 * The key scope of a signed-out caller (issue 33): the visitor's own form session (a random token
 * the order page makes with crypto and sends as `X-Form-Session`), or without one the caller's
 * address. Kept as an HMAC with the server's secret: the stored scope tells nothing about either.
 */
export function visitorKeyScope(secret: string, caller: { formSession?: string; ip: string }): string {
  const basis = caller.formSession ? `form:${caller.formSession}` : `ip:${caller.ip}`;
  return `visitor:${hmacHex(secret, `order-key-scope:${basis}`)}`;
}

/**
 * Creates an order: validated against the catalogue, priced on the server (client totals are never
 * read), stored with its price snapshot, status `pending`, an unguessable status token, its first
 * history row and the "order received" e-mail, all in one transaction. `data` is already parsed with
 * OrderInput (by the route's body schema, or by the caller that builds an order from other input).
 */
export async function createOrder(ctx: AppContext, data: OrderInputData, opts: CreateOrderOptions): Promise<CreateOrderResult> {
  const key = opts.idempotencyKey ?? data.clientToken ?? null;
  if (key !== null && !/^[A-Za-z0-9_.:-]{8,100}$/.test(key)) {
    throw badRequest('Invalid idempotency key', { idempotencyKey: 'Use 8-100 letters, digits, dots, colons, dashes or underscores' });
  }
  const scope = key === null ? null : (opts.idempotencyScope ?? (opts.userId ? userKeyScope(opts.userId) : null));
  if (key !== null && scope === null) throw new Error('createOrder: an idempotency key needs its caller\'s scope');
  const keyIs = () => and(eq(orders.idempotencyScope, scope!), eq(orders.idempotencyKey, key!));
  const quote = priceOrder(data);
  const db = opts.tx ?? ctx.db;

  const replay = async (existing: OrderRow): Promise<CreateOrderResult> => {
    const same =
      existing.email.toLowerCase() === data.email.toLowerCase() &&
      existing.quantity === data.quantity &&
      existing.cardType === data.cardType &&
      existing.deliveryOption === data.deliveryOption &&
      existing.cardStyle === data.cardStyle;
    if (!same) throw conflict('This idempotency key was already used for a different order');
    return { order: existing, replayed: true, statusUrl: orderStatusUrl(opts.baseUrl, existing.statusToken) };
  };

  // with the online store configured, a replay is found before a new cart would be made for it;
  // otherwise the insert's conflict on the key finds it (one statement less per order)
  if (key && ctx.config.SHOPIFY_STORE_DOMAIN && ctx.config.SHOPIFY_STOREFRONT_TOKEN) {
    const [hit] = await db.select({ id: orders.id }).from(orders).where(keyIs()).limit(1);
    if (hit) {
      const [existing] = await db.select().from(orders).where(eq(orders.id, hit.id)).limit(1);
      return replay(existing);
    }
  }

  // the artwork must be the caller's: uploaded by this account, or signed out with the token its
  // upload answered (issue 19); someone else's file answers the same as a missing one
  let claimArtwork: string[] = [];
  if (data.artworkUrl) {
    if (!ARTWORK_URL_RE.test(data.artworkUrl)) throw badRequest(ARTWORK_NOT_FOUND, { artworkUrl: ARTWORK_NOT_FOUND });
    const owned = await assertFilesOwned(db, { userId: opts.userId ?? null, uploadToken: data.artworkToken }, { artworkUrl: data.artworkUrl }, { kind: 'artwork', message: ARTWORK_NOT_FOUND });
    if (opts.userId) claimArtwork = owned.tokenOwnedKeys;
  }

  const statusToken = randomToken(32);
  const statusUrl = orderStatusUrl(opts.baseUrl, statusToken);
  // a visitor's order: a single-use link in the e-mail claims it into an account (issue 20)
  const claimToken = opts.userId ? null : randomToken(32);
  // the online store's checkout is made before the transaction (a network call must not hold it open)
  // with the online store configured the order's id is taken first, so the checkout carries it to
  // the store and the store's webhooks find the order (issue 35, decision 35-01)
  const storeId = ctx.config.SHOPIFY_STORE_DOMAIN && ctx.config.SHOPIFY_STOREFRONT_TOKEN ? await reserveOrderId(db) : null;
  const checkoutUrl = await createStoreCheckout(ctx, { ...data, quote, orderId: storeId ?? undefined });

  const write = async (tx: Tx | typeof ctx.db): Promise<CreateOrderResult> => {
    const inserted = await tx
      .insert(orders)
      .values({
        ...(storeId !== null ? { id: storeId } : {}),
        userId: opts.userId ?? null,
        cardId: opts.cardId ?? null,
        status: 'pending',
        customerName: data.customerName,
        email: data.email,
        phone: data.phone ?? null,
        companyName: data.companyName ?? null,
        position: data.position ?? null,
        address: data.address ?? null,
        // issue 35: pickup has no delivery address (the body's rule drops one sent with it)
        shippingAddress: quote.deliveryOption === 'pickup-nyc' ? null : (data.shippingAddress ?? null),
        quantity: quote.quantity,
        cardType: quote.cardType,
        cardStyle: data.cardStyle,
        deliveryOption: quote.deliveryOption,
        specialRequests: data.specialRequests ?? null,
        artworkUrl: data.artworkUrl ?? null,
        templateId: data.templateId ?? null,
        unitPriceCents: quote.unitPriceCents,
        deliveryFeeCents: quote.deliveryFeeCents,
        totalCents: quote.totalCents,
        currency: quote.currency,
        priceSnapshot: quote,
        statusToken,
        idempotencyKey: key,
        idempotencyScope: scope,
        checkoutUrl,
        source: opts.source,
        teamId: opts.teamId ?? null,
        claimTokenHash: claimToken ? sha256Hex(claimToken) : null,
      })
      .onConflictDoNothing({ target: [orders.idempotencyScope, orders.idempotencyKey] })
      .returning();
    const order = inserted[0];
    if (!order) {
      // a concurrent request with the same key won the race: answer its order
      const [existing] = await tx.select().from(orders).where(keyIs()).limit(1);
      if (!existing) throw conflict('A request with this idempotency key is still in progress');
      return replay(existing);
    }
    if (opts.userId) await claimTokenOwnedFiles(tx, opts.userId, claimArtwork);
    await tx.insert(orderStatusHistory).values({
      orderId: order.id,
      fromStatus: null,
      toStatus: 'pending',
      changedBy: opts.userId ?? null,
      changedByLabel: opts.source === 'design' ? 'customer (design)' : opts.source === 'team' ? 'team admin' : 'customer',
    });
    await recordEvent(tx, { type: 'order.created', userId: order.userId, teamId: order.teamId, data: orderEventData(order) });
    await enqueueEmail(tx, orderReceivedEmail(order, statusUrl, claimToken ? claimOrderUrl(opts.baseUrl, claimToken) : null));
    // the batch's own short code /c/{code} for its QR, at once (issues 10 and 20; never fails the order)
    if (opts.source !== 'team') await createCardCodeForOrder(tx, order);
    const quoteLabel = `${order.quantity} × ${cardType(order.cardType)?.label ?? order.cardType} (${order.cardStyle}), ${deliveryOption(order.deliveryOption)?.label ?? order.deliveryOption}`;
    await notifyStaff(ctx, tx, {
      kind: opts.source === 'order-form' ? 'new-order' : 'design-waiting',
      orderId: order.id,
      customerName: order.customerName,
      totalCents: order.totalCents,
      detail: `${quoteLabel}. ${opts.userId ? 'Placed signed in.' : 'Placed signed out: the card code waits for the buyer to claim the order.'}`,
      eventKey: `order-${order.id}`,
      baseUrl: opts.baseUrl,
      placed: true,
    });
    return { order, replayed: false, statusUrl };
  };

  const result = opts.tx ? await write(opts.tx) : await ctx.db.transaction((tx) => write(tx));
  if (!result.replayed) ctx.outbox.kick();
  return result;
}

/** The next order id, taken from the orders' sequence before the row is written. */
async function reserveOrderId(db: Tx | AppContext['db']): Promise<number> {
  const row = await queryRow<{ id: number }>(db, sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`);
  return Number(row!.id);
}

export interface StatusActor {
  id?: string;
  label: string;
}


/**
 * What a feature built on top of orders does inside a status change's transaction (issue 37: team
 * members hear about their own cards). Registered through orders' public API; a listener that
 * throws undoes the change, so listeners only queue work (e-mails) and never call out.
 */
export type OrderStatusListener = (tx: Tx, change: { order: typeof orders.$inferSelect; from: string; to: OrderStatus; baseUrl: string }) => Promise<void>;
const statusListeners = new Set<OrderStatusListener>();
export function onOrderStatusChanged(listener: OrderStatusListener): void {
  statusListeners.add(listener);
}

/**
 * Moves an order to another status: updates it, writes the history row (who and when) and queues
 * the "status changed" e-mail, in one transaction. The same status again changes nothing.
 */
export async function changeOrderStatus(
  ctx: AppContext,
  orderId: number,
  toStatus: string,
  actor: StatusActor,
  opts: { baseUrl?: string; tx?: Tx; emailDetails?: string[]; overrideReason?: string | null } = {},
): Promise<{ order: OrderRow; changed: boolean }> {
  if (!(ORDER_STATUSES as readonly string[]).includes(toStatus)) {
    throw badRequest(`Unknown status: ${toStatus}`, { status: `Status must be one of ${ORDER_STATUSES.join(', ')}` });
  }
  const to = toStatus as OrderStatus;
  const baseUrl = opts.baseUrl ?? ctx.publicUrl();
  const run = async (tx: Tx) => {
    const [current] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update').limit(1);
    if (!current) throw notFound('Order not found');
    if (current.status === to) return { order: current, changed: false };
    // the status machine (issue 35, decision 35-04): only valid moves, with their prerequisites
    const check = checkMove(await orderFacts(tx, current), to, opts.overrideReason);
    if (!check.ok) throw conflictMissing(check.message, check.missing);
    const override = check.overridden ? `Payment override: ${opts.overrideReason!.trim()}` : null;
    const [order] = await tx.update(orders).set({ status: to, updatedAt: new Date() }).where(eq(orders.id, orderId)).returning();
    const [history] = await tx
      .insert(orderStatusHistory)
      .values({ orderId, fromStatus: current.status, toStatus: to, changedBy: actor.id ?? null, changedByLabel: actor.label || 'staff', note: override })
      .returning({ id: orderStatusHistory.id });
    // only the milestones e-mail the customer (in production, shipped or ready for pickup, delivered)
    if (check.emailsCustomer && !order.anonymizedAt && order.email) {
      await enqueueEmail(tx, orderStatusChangedEmail(order, current.status, to, orderStatusUrl(baseUrl, order.statusToken), history.id, opts.emailDetails));
    }
    await recordEvent(tx, { type: 'order.status_changed', userId: order.userId, teamId: order.teamId, data: { ...orderEventData(order), fromStatus: current.status, toStatus: to } });
    for (const listener of statusListeners) await listener(tx, { order, from: current.status, to, baseUrl });
    return { order, changed: true };
  };
  const result = opts.tx ? await run(opts.tx) : await ctx.db.transaction(run);
  if (result.changed) ctx.outbox.kick();
  return result;
}

/** The customer's view of one order, reached only by its status token. */
export async function getOrderStatusView(ctx: AppContext, token: string, origin?: string): Promise<OrderStatusView> {
  const [o] = await ctx.db.select().from(orders).where(eq(orders.statusToken, token)).limit(1);
  if (!o) throw notFound('Order not found');
  const [view] = await orderViews(ctx, [o], origin);
  return view;
}
