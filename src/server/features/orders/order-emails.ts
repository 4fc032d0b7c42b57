import { BUSINESS, cardType, deliveryOption, formatUsd, orderStepLabel } from '#shared/catalogue';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { INVOICE_NOTE } from '#shared/orders/checkout-terms';
import type { ShippingAddressView } from '#shared/schemas/orders';
import { addressLines } from '#shared/orders/address';
import { randomToken } from '#server/infra/crypto';
import { renderEmail } from '#server/infra/mail/layout';
import type { OutgoingEmail } from '#server/infra/mail/outbox';

/** What the order e-mails need of an order (a row of `orders` has all of it). */
export interface OrderEmailData {
  id: number;
  customerName: string;
  email: string;
  quantity: number;
  cardType: string;
  cardStyle: string;
  deliveryOption: string;
  unitPriceCents: number;
  deliveryFeeCents: number;
  totalCents: number;
  checkoutUrl?: string | null;
  /** where the cards go (issue 35; a row's jsonb): shown as "Ship to" */
  shippingAddress?: unknown;
  /** when the order was placed: the delivery promise counts from it */
  createdAt?: Date;
}

function summaryRows(o: OrderEmailData): Array<[string, string]> {
  return [
    ['Order', `#${o.id}`],
    ['Cards', `${o.quantity} × ${cardType(o.cardType)?.label ?? o.cardType} (${o.cardStyle})`],
    ['Price per card', formatUsd(o.unitPriceCents)],
    ['Delivery', `${deliveryOption(o.deliveryOption)?.label ?? o.deliveryOption} (${o.deliveryFeeCents ? formatUsd(o.deliveryFeeCents) : 'free'})`],
    ...(o.shippingAddress ? [['Ship to', addressLines(o.shippingAddress as ShippingAddressView).join(', ')] as [string, string]] : []),
    ['Total', formatUsd(o.totalCents)],
  ];
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

/**
 * "Order received": sent once per order. `link` is the order's own status page; when the online
 * store made a checkout, its URL is the main button and the status page is linked in the text. A
 * visitor's order also carries its single-use claim link (`claimUrl`): it creates the account and
 * the digital profile that the cards' QR code opens (issue 20).
 */
export function orderReceivedEmail(order: OrderEmailData, link: string, claimUrl: string | null = null): OutgoingEmail {
  const checkout = order.checkoutUrl || null;
  const paragraphs = [
    `Hi ${firstName(order.customerName)}, thank you for your order. We have received it and will review your details and artwork before production.`,
    checkout
      ? 'Complete your payment with the secure checkout link below. You can follow your order at any time on its status page:'
      : 'You can follow your order, its total and every status change on its page:',
    link,
    `${deliveryPromise(order.createdAt ?? new Date(), order.deliveryOption).label}. We will e-mail you at each stage.`,
  ];
  // invoice mode (no online store checkout): said plainly (issue 35)
  if (!checkout) paragraphs.push(`${INVOICE_NOTE}.`);
  if (checkout) paragraphs.splice(2, 0, checkout);
  if (claimUrl) {
    paragraphs.push(
      'Every card carries a QR code that opens your digital profile. Claim your order to create your account and profile in one step (this link works once):',
      claimUrl,
    );
  }
  const content = renderEmail({
    preheader: `Order #${order.id} received: ${formatUsd(order.totalCents)}`,
    heading: 'We received your order',
    paragraphs,
    rows: summaryRows(order),
    button: checkout ? { label: 'Complete checkout', url: checkout } : { label: 'View your order', url: link },
  });
  return {
    dedupeKey: `order-received:${order.id}`,
    orderId: order.id,
    kind: 'order-received',
    to: order.email,
    subject: `Order #${order.id} received - ${BUSINESS.name}`,
    ...content,
  };
}

/**
 * A milestone of the order (issue 35: only these e-mail the customer): in production, shipped,
 * ready for pickup, delivered or collected. `eventId` makes the dedupe key (changeOrderStatus passes
 * the history row id); `details` are lines the step adds (carrier and tracking number, the pickup
 * code and the studio). One button: the order's page, which shows every step.
 */
export function orderStatusChangedEmail(order: OrderEmailData, _from: string | null, to: string, link: string, eventId?: string | number, details: string[] = []): OutgoingEmail {
  const pickup = order.deliveryOption === 'pickup-nyc';
  const milestone: Record<string, { heading: string; line: string; button: string }> = {
    'in-production': {
      heading: 'Your cards are in production',
      line: `You approved your proof, and we have started making your cards. ${pickup ? 'We will e-mail you when they are ready for pickup.' : 'We will e-mail you when they ship.'}`,
      button: 'View your order',
    },
    shipped: { heading: 'Your cards have shipped', line: 'Your cards are on their way. Follow your parcel with the carrier and tracking number below.', button: 'Track your order' },
    'ready-for-pickup': { heading: 'Your cards are ready for pickup', line: 'Your cards are ready at our studio. Show your pickup code when you collect them.', button: 'View pickup details' },
    completed: pickup
      ? { heading: 'You collected your cards', line: 'Thank you for choosing us. We hope you enjoy your new cards.', button: 'View your order' }
      : { heading: 'Your cards were delivered', line: 'Thank you for choosing us. We hope you enjoy your new cards.', button: 'View your order' },
  };
  const toLabel = orderStepLabel(to, order.deliveryOption);
  const m = milestone[to] ?? { heading: `Your order is ${toLabel.toLowerCase()}`, line: '', button: 'View your order' };
  const content = renderEmail({
    preheader: `Order #${order.id}: ${m.heading.charAt(0).toLowerCase()}${m.heading.slice(1)}`,
    heading: m.heading,
    paragraphs: [`Hi ${firstName(order.customerName)}, an update on order #${order.id}.`, m.line, ...details, `Order page: ${link}`].filter(Boolean),
    rows: summaryRows(order),
    button: { label: m.button, url: link },
  });
  return {
    dedupeKey: `order-status:${order.id}:${eventId ?? randomToken(9)}`,
    orderId: order.id,
    kind: 'order-status',
    to: order.email,
    subject: `${m.heading} (order #${order.id}) - ${BUSINESS.name}`,
    ...content,
  };
}

/** To staff (the "Staff order e-mails" setting): a new order, or a design waiting for review. */
export function staffNoticeEmail(p: {
  to: string;
  kind: 'new-order' | 'design-waiting';
  orderId: number;
  customerName: string;
  totalCents: number;
  detail: string;
  adminUrl: string;
  eventKey: string;
}): OutgoingEmail {
  const heading = p.kind === 'new-order' ? `New order #${p.orderId}` : `Design waiting for review (order #${p.orderId})`;
  const content = renderEmail({
    preheader: `${heading}: ${p.customerName}, ${formatUsd(p.totalCents)}`,
    heading,
    paragraphs: [
      p.kind === 'new-order'
        ? `${p.customerName} placed order #${p.orderId} (${formatUsd(p.totalCents)}).`
        : `${p.customerName}'s card design for order #${p.orderId} is waiting in the review queue.`,
      p.detail,
    ],
    button: { label: p.kind === 'new-order' ? 'Open the orders' : 'Open the review queue', url: p.adminUrl },
  });
  return {
    dedupeKey: `staff-${p.kind}:${p.eventKey}:${p.to.toLowerCase()}`,
    orderId: p.orderId,
    kind: `staff-${p.kind}`,
    to: p.to,
    subject: `${heading} - ${BUSINESS.name}`,
    ...content,
  };
}
