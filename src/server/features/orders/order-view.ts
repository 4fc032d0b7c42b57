import { asc, desc, eq, inArray } from 'drizzle-orm';
import { orderStepLabel } from '#shared/catalogue';
import { carrierLabel } from '#shared/production/tracking';
import { designOrderPath, editDesignPath, orderStatusPath } from '#shared/routes';
import type { DesignEventKind, MyOrder, OrderDesignView, OrderFulfilmentView, OrderStatusView, OrderTimelineEntry } from '#shared/schemas/orders';
import type { AppContext } from '#server/context';
import { orders, orderStatusHistory } from '#server/db/schema/orders';
import { cardCodePath } from '#shared/routes';
import { ordersWaitingForProfile } from '#server/features/engagement/public-api';
import { activeCodesOfOrders } from '#server/features/engagement/reads';
import { cardReviews, designEventsOfOrders } from '#server/features/designs/reads';
import { fulfilmentOfOrders } from '#server/features/production/reads';
import { getStudio } from '#server/features/settings/public-api';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { PICKUP_DELIVERY_OPTION, ShippingAddressView, type OrderProofView } from '#shared/schemas/orders';
import { INVOICE_NOTE } from '#shared/orders/checkout-terms';
import { paidOrderIds, proofStates, type ProofInfo } from './order-facts';

/** The proof's images: each approved card's two sides, served by the proof route (decision 35-04). */
function proofView(p: ProofInfo, token: string): OrderProofView {
  const shown = p.state === 'awaiting' || p.state === 'approved';
  return {
    state: p.state,
    images: shown
      ? p.cardIds.flatMap((cardId) => (['front', 'back'] as const).map((side) => ({ cardId, side, url: `/api/order-status/${encodeURIComponent(token)}/proof/${cardId}/${side}.png` })))
      : [],
    cards: p.cards.map((c) => ({ cardId: c.id, name: c.name, status: c.status })),
    message: p.message,
  };
}

type OrderRow = typeof orders.$inferSelect;

/** Statuses after which the cards have left (or are leaving) the studio: the address is fixed. */
const ADDRESS_LOCKED_STATUSES = ['shipped', 'completed', 'cancelled', 'ready-for-pickup'];

/** A delivery order's address can be corrected until it ships (issue 35). */
export function addressEditable(o: { deliveryOption: string; status: string }): boolean {
  return o.deliveryOption !== PICKUP_DELIVERY_OPTION && !ADDRESS_LOCKED_STATUSES.includes(o.status);
}

const DESIGN_EVENT_LABELS: Record<DesignEventKind, string> = {
  submitted: 'Design submitted',
  rejected: 'Needs changes',
  resubmitted: 'Design resubmitted',
  approved: 'Design approved: proof ready',
  'proof-approved': 'Proof approved by you',
  'changes-requested': 'Changes requested',
};

const DESIGN_STATUS_LABELS: Record<string, string> = { pending: 'In review', approved: 'Approved', rejected: 'Needs changes' };

/** The customer's view of orders (the order page and My orders), in as few queries as there are tables. */
export async function orderViews(ctx: AppContext, rows: OrderRow[], origin = ctx.publicUrl()): Promise<OrderStatusView[]> {
  if (!rows.length) return [];
  const ids = rows.map((o) => o.id);
  const cardIds = rows.map((o) => o.cardId).filter((x): x is number => x !== null);
  const [history, events, designs, codes, waiting, shipments, proofs] = await Promise.all([
    ctx.db
      .select({ orderId: orderStatusHistory.orderId, status: orderStatusHistory.toStatus, at: orderStatusHistory.createdAt })
      .from(orderStatusHistory)
      .where(inArray(orderStatusHistory.orderId, ids))
      .orderBy(asc(orderStatusHistory.createdAt), asc(orderStatusHistory.id)),
    designEventsOfOrders(ctx.db, ids),
    cardReviews(ctx.db, cardIds),
    activeCodesOfOrders(ctx.db, ids),
    ordersWaitingForProfile(ctx.db, ids),
    fulfilmentOfOrders(ctx.db, ids),
    proofStates(ctx.db, rows),
  ]);
  // invoice mode (no online store): said plainly while the order is unpaid (issue 35)
  const invoiceMode = !(ctx.config.SHOPIFY_STORE_DOMAIN && ctx.config.SHOPIFY_STOREFRONT_TOKEN);
  const paidIds = invoiceMode ? await paidOrderIds(ctx.db, rows) : new Set<number>();
  // pickup orders show the studio's address, hours and instructions (issue 35)
  const studio = rows.some((o) => o.deliveryOption === PICKUP_DELIVERY_OPTION) ? await getStudio(ctx.db) : null;
  const fulfilmentByOrder = new Map(shipments.map((f) => [f.orderId, f]));
  const base = origin.replace(/\/+$/, '');
  const designById = new Map(designs.map((d) => [d.id, d]));
  const codeByOrder = new Map<number, string>();
  for (const c of codes) if (c.orderId !== null && !codeByOrder.has(c.orderId)) codeByOrder.set(c.orderId, c.code);

  return rows.map((o) => {
    const hist = history.filter((h) => h.orderId === o.id);
    const f = fulfilmentByOrder.get(o.id);
    const fulfilment: OrderFulfilmentView | null = f
      ? {
          carrier: f.carrier,
          carrierLabel: f.carrier ? carrierLabel(f.carrier) : null,
          trackingNumber: f.trackingNumber,
          trackingUrl: f.trackingUrl,
          pickupCode: f.pickupCode,
        }
      : null;
    const stepExtra = (status: string): { detail: string | null; href: string | null } => {
      if (status === 'shipped' && fulfilment?.trackingNumber) return { detail: `${fulfilment.carrierLabel} ${fulfilment.trackingNumber}`, href: fulfilment.trackingUrl };
      if (status === 'ready-for-pickup' && fulfilment?.pickupCode) return { detail: `Pickup code ${fulfilment.pickupCode}`, href: null };
      return { detail: null, href: null };
    };
    const timeline: OrderTimelineEntry[] = [
      ...hist.map((h, i) => ({
        kind: 'status' as const,
        event: h.status,
        label: i === 0 && h.status === 'pending' ? 'Order placed' : orderStepLabel(h.status, o.deliveryOption),
        reason: null,
        ...stepExtra(h.status),
        at: h.at.toISOString(),
      })),
      ...events
        .filter((e) => e.orderId === o.id)
        .map((e) => ({
          kind: 'design' as const,
          event: e.kind,
          label: DESIGN_EVENT_LABELS[e.kind as DesignEventKind] ?? e.kind,
          reason: e.kind === 'rejected' || e.kind === 'changes-requested' ? e.reason : null,
          detail: null,
          href: null,
          at: e.at.toISOString(),
        })),
    ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.kind === b.kind ? 0 : a.kind === 'status' ? -1 : 1));
    const d = o.cardId ? designById.get(o.cardId) : undefined;
    const design: OrderDesignView | null = d
      ? {
          cardId: d.id,
          status: d.status,
          statusLabel: DESIGN_STATUS_LABELS[d.status] ?? d.status,
          reason: d.status === 'rejected' ? d.reviewNotes?.trim() || null : null,
          frontImageUrl: d.frontImageUrl,
          backImageUrl: d.backImageUrl,
          editPath: d.status === 'rejected' && o.status === 'pending' ? editDesignPath(d.id) : null,
        }
      : null;
    const snap = o.priceSnapshot as { cardTypeLabel?: string; deliveryLabel?: string; subtotalCents?: number };
    const code = codeByOrder.get(o.id);
    return {
      id: o.id,
      createdAt: o.createdAt.toISOString(),
      customerName: o.customerName,
      companyName: o.companyName,
      quantity: o.quantity,
      cardType: o.cardType as OrderStatusView['cardType'],
      cardTypeLabel: snap.cardTypeLabel ?? o.cardType,
      cardStyle: o.cardStyle,
      deliveryOption: o.deliveryOption as OrderStatusView['deliveryOption'],
      deliveryLabel: snap.deliveryLabel ?? o.deliveryOption,
      unitPriceCents: o.unitPriceCents,
      deliveryFeeCents: o.deliveryFeeCents,
      subtotalCents: snap.subtotalCents ?? o.unitPriceCents * o.quantity,
      totalCents: o.totalCents,
      currency: o.currency,
      status: o.status,
      statusLabel: orderStepLabel(o.status, o.deliveryOption),
      hasArtwork: !!o.artworkUrl,
      checkoutUrl: o.checkoutUrl,
      history: hist.map((h) => ({ status: h.status, statusLabel: orderStepLabel(h.status, o.deliveryOption), at: h.at.toISOString() })),
      timeline,
      design,
      cardLink: code ? `${base}${cardCodePath(code)}` : null,
      waitsForProfile: waiting.has(o.id),
      fulfilment,
      shippingAddress: o.shippingAddress ? (ShippingAddressView.safeParse({ line2: null, ...(o.shippingAddress as object) }).data ?? null) : null,
      addressEditable: addressEditable(o),
      deliveryPromise: deliveryPromise(o.createdAt, o.deliveryOption).label,
      studio: o.deliveryOption === PICKUP_DELIVERY_OPTION ? studio : null,
      proof: proofView(proofs.get(o.id)!, o.statusToken),
      paymentNote: invoiceMode && !o.checkoutUrl && !paidIds.has(o.id) && o.status !== 'cancelled' ? INVOICE_NOTE : null,
    };
  });
}

/** The signed-in customer's orders, newest first, each with its order page's path. */
/** An order whose card may still be designed (issue 35; the designer's submit says the same with a 409). */
const DESIGNABLE_STATUSES = new Set(['pending', 'processing']);

export async function listMyOrders(ctx: AppContext, userId: string, origin?: string): Promise<MyOrder[]> {
  const rows = await ctx.db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(200);
  const views = await orderViews(ctx, rows, origin);
  return views.map((v, i) => ({ ...v, statusPath: orderStatusPath(rows[i].statusToken), designPath: !v.design && !rows[i].teamId && DESIGNABLE_STATUSES.has(rows[i].status) ? designOrderPath(rows[i].id) : null }));
}
