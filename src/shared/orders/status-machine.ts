import { orderStatusLabel, type OrderStatus } from '#shared/catalogue';

/**
 * The order's status machine (issue 35, decision 35-04): pure and zod-free, so the staff screens
 * offer exactly the moves the server accepts (`changeOrderStatus` checks every move with it, the
 * production floor's ship and pickup included).
 */

/** What a move can be missing. The API's 409 lists these in `missing`. */
export const MOVE_REQUIREMENTS = ['design', 'proof', 'address', 'payment', 'tracking', 'pickup', 'delivery'] as const;
export type MoveRequirement = (typeof MOVE_REQUIREMENTS)[number];

/** Staff's words for what is missing (the 409's message and the order detail). */
export const REQUIREMENT_LABELS: Record<MoveRequirement, string> = {
  design: 'an approved design',
  proof: "the customer's proof approval",
  address: 'a delivery address',
  payment: 'payment',
  tracking: 'a carrier and tracking number',
  pickup: 'pickup delivery (this order is shipped)',
  delivery: 'a shipped delivery (this is a pickup order)',
};

/** What the machine needs to know about an order; the server reads it from the database. */
export interface OrderFacts {
  status: string;
  deliveryOption: string;
  /** every design of the order is approved by staff (and there is at least one) */
  designApproved: boolean;
  /** the customer approved the proof of the approved design */
  proofApproved: boolean;
  /** a delivery address is on the order (pickup needs none) */
  hasAddress: boolean;
  /** payment status 'paid' (decision 35-01) */
  paid: boolean;
  /** a carrier and a tracking number are recorded */
  hasTracking: boolean;
}

const PICKUP = 'pickup-nyc';

/** The moves each status allows, before any prerequisite. Completed and cancelled are final. */
export const STATUS_MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['processing', 'in-production', 'cancelled'],
  processing: ['pending', 'in-production', 'cancelled'],
  'in-production': ['quality-check', 'shipped', 'ready-for-pickup', 'cancelled'],
  'quality-check': ['in-production', 'shipped', 'ready-for-pickup', 'cancelled'],
  shipped: ['completed'],
  'ready-for-pickup': ['completed'],
  completed: [],
  cancelled: [],
};

/** Moves that e-mail the customer (the milestones): staff confirm them first. */
export const CUSTOMER_EMAIL_STATUSES: readonly string[] = ['in-production', 'shipped', 'ready-for-pickup', 'completed'];

export function emailsCustomer(from: string, to: string): boolean {
  // rework (quality check back to production) is not news for the customer
  return CUSTOMER_EMAIL_STATUSES.includes(to) && !(to === 'in-production' && from === 'quality-check');
}

/** Only the payment can be overridden (with a reason staff give, kept in the history). */
export const OVERRIDABLE: readonly MoveRequirement[] = ['payment'];

export type MoveCheck =
  | { ok: true; overridden: boolean; emailsCustomer: boolean }
  | { ok: false; kind: 'not-a-move' | 'missing'; missing: MoveRequirement[]; message: string; overridable: boolean };

function structural(from: string, to: string): boolean {
  return ((STATUS_MOVES as Record<string, readonly string[]>)[from] ?? []).includes(to);
}

/** What a move to `to` still needs (empty: nothing). */
export function missingFor(facts: OrderFacts, to: string): MoveRequirement[] {
  const pickup = facts.deliveryOption === PICKUP;
  const missing: MoveRequirement[] = [];
  if (to === 'in-production' && (facts.status === 'pending' || facts.status === 'processing')) {
    if (!facts.designApproved) missing.push('design');
    if (!facts.proofApproved) missing.push('proof');
    if (!pickup && !facts.hasAddress) missing.push('address');
    if (!facts.paid) missing.push('payment');
  }
  if (to === 'shipped') {
    if (pickup) missing.push('delivery');
    else if (!facts.hasTracking) missing.push('tracking');
  }
  if (to === 'ready-for-pickup' && !pickup) missing.push('pickup');
  return missing;
}

const joinWords = (xs: string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * Checks one move. `overrideReason` (staff's words) lets an unpaid order start production; every
 * other requirement must be met. The same status again is not a move (the caller answers "no change").
 */
export function checkMove(facts: OrderFacts, to: string, overrideReason?: string | null): MoveCheck {
  const fromLabel = orderStatusLabel(facts.status);
  const toLabel = orderStatusLabel(to);
  if (!structural(facts.status, to)) {
    const next = STATUS_MOVES[facts.status as OrderStatus] ?? [];
    return {
      ok: false,
      kind: 'not-a-move',
      missing: [],
      overridable: false,
      message: `An order cannot move from ${fromLabel} to ${toLabel}. ${next.length ? `From ${fromLabel} it can move to ${joinWords(next.map(orderStatusLabel))}.` : `${fromLabel} is final.`}`,
    };
  }
  const missing = missingFor(facts, to);
  const blocking = missing.filter((m) => !(OVERRIDABLE.includes(m) && overrideReason && overrideReason.trim()));
  if (blocking.length) {
    return {
      ok: false,
      kind: 'missing',
      missing,
      overridable: blocking.every((m) => OVERRIDABLE.includes(m)),
      message: `The order cannot move to ${toLabel} yet: it needs ${joinWords(missing.map((m) => REQUIREMENT_LABELS[m]))}.${blocking.every((m) => OVERRIDABLE.includes(m)) ? ' Staff can start production unpaid with an override reason.' : ''}`,
    };
  }
  return { ok: true, overridden: missing.length > 0, emailsCustomer: emailsCustomer(facts.status, to) };
}

/** The moves staff may be offered from this status (structurally), each with what it still needs. */
export function offeredMoves(facts: OrderFacts): Array<{ status: OrderStatus; missing: MoveRequirement[]; allowed: boolean; overridable: boolean; emailsCustomer: boolean }> {
  const pickup = facts.deliveryOption === PICKUP;
  return (STATUS_MOVES[facts.status as OrderStatus] ?? [])
    .filter((to) => !(to === 'shipped' && pickup) && !(to === 'ready-for-pickup' && !pickup))
    .map((to) => {
      const missing = missingFor(facts, to);
      return {
        status: to,
        missing,
        allowed: missing.length === 0,
        overridable: missing.length > 0 && missing.every((m) => OVERRIDABLE.includes(m)),
        emailsCustomer: emailsCustomer(facts.status, to),
      };
    });
}
