import { BUSINESS, cardType, deliveryOption, formatUsd, orderStepLabel } from '#shared/catalogue';
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
}

function summaryRows(o: OrderEmailData): Array<[string, string]> {
  return [
    ['Order', `#${o.id}`],
    ['Cards', `${o.quantity} × ${cardType(o.cardType)?.label ?? o.cardType} (${o.cardStyle})`],
    ['Price per card', formatUsd(o.unitPriceCents)],
    ['Delivery', `${deliveryOption(o.deliveryOption)?.label ?? o.deliveryOption} (${o.deliveryFeeCents ? formatUsd(o.deliveryFeeCents) : 'free'})`],
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
    `Production takes ${BUSINESS.claims.productionDays}. We will e-mail you at each stage.`,
  ];
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
    kind: 'order-received',
    to: order.email,
    subject: `Order #${order.id} received - ${BUSINESS.name}`,
    ...content,
  };
}

/**
 * "Status changed": `eventId` makes the dedupe key (changeOrderStatus passes the history row id);
 * `details` are lines the step adds (the carrier's tracking link, the pickup code: issue 22).
 */
export function orderStatusChangedEmail(order: OrderEmailData, from: string | null, to: string, link: string, eventId?: string | number, details: string[] = []): OutgoingEmail {
  const toLabel = orderStepLabel(to, order.deliveryOption);
  const lines: Record<string, string> = {
    processing: 'We are preparing your order for production.',
    'in-production': `Your cards are now in production. Production takes ${BUSINESS.claims.productionDays}.`,
    'quality-check': 'Your cards are made and going through our quality check.',
    shipped: 'Your cards are on their way.',
    'ready-for-pickup': `Your cards are ready for pickup at our New York studio (${BUSINESS.hours.map((h) => `${h.days} ${h.time}`).join(', ')}). Show your pickup code when you collect them.`,
    completed: order.deliveryOption === 'pickup-nyc' ? 'You collected your cards. Thank you for choosing us.' : 'Your cards were delivered. Thank you for choosing us.',
    cancelled: `Your order has been cancelled. If this is unexpected, reply to this e-mail or write to ${BUSINESS.email}.`,
    pending: 'Your order is waiting for review.',
  };
  const content = renderEmail({
    preheader: `Order #${order.id} is now ${toLabel.toLowerCase()}`,
    heading: `Your order is ${toLabel.toLowerCase()}`,
    paragraphs: [
      `Hi ${firstName(order.customerName)}, the status of order #${order.id} changed${from ? ` from ${orderStepLabel(from, order.deliveryOption)}` : ''} to ${toLabel}.`,
      lines[to] ?? '',
      ...details,
      `Order page: ${link}`,
    ].filter(Boolean),
    rows: summaryRows(order),
    button: { label: 'View your order', url: link },
  });
  return {
    dedupeKey: `order-status:${order.id}:${eventId ?? randomToken(9)}`,
    kind: 'order-status',
    to: order.email,
    subject: `Order #${order.id} is ${toLabel.toLowerCase()} - ${BUSINESS.name}`,
    ...content,
  };
}

/** "Design approved / rejected": one e-mail per review of a card design. */
export function designReviewedEmail(p: { to: string; name: string; approved: boolean; reason?: string | null; orderId: number; link: string; eventId?: number; editUrl?: string | null }): OutgoingEmail {
  const reason = p.reason?.trim();
  const content = renderEmail({
    preheader: p.approved ? 'Your card design was approved' : 'Your card design needs changes',
    heading: p.approved ? 'Your card design is approved' : 'Your card design needs changes',
    paragraphs: p.approved
      ? [
          `Hi ${firstName(p.name)}, good news: our team approved your card design for order #${p.orderId}.`,
          `It now moves to production, which takes ${BUSINESS.claims.productionDays}. We will e-mail you when it ships.`,
          `Order page: ${p.link}`,
        ]
      : [
          `Hi ${firstName(p.name)}, our team reviewed your card design for order #${p.orderId} and could not approve it as it is.`,
          reason ? `Reason: ${reason}` : 'Please review your design or reply to this e-mail and we will help.',
          p.editUrl
            ? `Edit your design and resubmit it for the same order (sign in first): ${p.editUrl}`
            : 'Your order page shows the reason and lets you edit and resubmit the design.',
          `Order page: ${p.link}`,
        ],
    button: { label: p.approved ? 'View your order' : 'See what to change', url: p.link },
  });
  return {
    // one e-mail per review: a design rejected, resubmitted and rejected again is e-mailed twice
    dedupeKey: `design-reviewed:${p.orderId}:${p.approved ? 'approved' : 'rejected'}${p.eventId ? `:${p.eventId}` : ''}`,
    kind: p.approved ? 'design-approved' : 'design-rejected',
    to: p.to,
    subject: p.approved ? `Your card design is approved (order #${p.orderId})` : `Your card design needs changes (order #${p.orderId})`,
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
    kind: `staff-${p.kind}`,
    to: p.to,
    subject: `${heading} - ${BUSINESS.name}`,
    ...content,
  };
}
