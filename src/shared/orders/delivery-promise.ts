/**
 * The one delivery promise (issue 35, decision 35-02): the order page, the confirmation, the order
 * e-mail and the order status page all read it from here, so they say the same ("Ships by Fri,
 * Nov 27"). It is the floor's own due date (`dueWindow`, decision 22-02: business days, weekends and
 * the studio's US holidays skipped, rush the next business day, same-day courier the same business
 * day), counted from the moment the order is placed on the New York calendar, with one rule of its
 * own: a same-day courier order placed after the cutoff (2 pm in New York) goes the next business day.
 */
import { dueWindow } from '#shared/production/due-date';

/** Same-day courier orders placed at or after this hour (New York) are delivered the next business day. */
export const SAME_DAY_CUTOFF_HOUR = 14;

export type PromiseKind = 'ships' | 'delivered' | 'pickup';

export interface DeliveryPromise {
  /** the promised day: 00:00 UTC of that New York calendar day (read it with the UTC getters) */
  date: Date;
  kind: PromiseKind;
  /** "Ships by Fri, Nov 27" | "Delivered by Wed, Nov 25" | "Ready for pickup by Mon, Dec 7" */
  label: string;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

let nyParts: Intl.DateTimeFormat | undefined;

/** The New York wall clock of `at` as a Date whose UTC fields read that wall clock. */
export function newYorkWallClock(at: Date): Date {
  nyParts ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  const p: Record<string, number> = {};
  for (const part of nyParts.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute));
}

/** The day the order's cards ship (courier: arrive; pickup: are ready), for an order placed at `orderedAt`. */
export function shipsBy(orderedAt: Date, deliveryOption: string): Date {
  let from = newYorkWallClock(orderedAt);
  if (deliveryOption === 'same-day-manhattan' && from.getUTCHours() >= SAME_DAY_CUTOFF_HOUR) {
    from = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()) + DAY_MS);
  }
  const due = dueWindow(deliveryOption, from).dueAt;
  return new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate()));
}

/** "Fri, Nov 27" of a day from {@link shipsBy} (plain string work, no locale data). */
export function formatPromiseDay(day: Date): string {
  return `${WEEKDAYS[day.getUTCDay()]}, ${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}`;
}

export function promiseKind(deliveryOption: string): PromiseKind {
  return deliveryOption === 'pickup-nyc' ? 'pickup' : deliveryOption === 'same-day-manhattan' ? 'delivered' : 'ships';
}

const PREFIX: Record<PromiseKind, string> = { ships: 'Ships by', delivered: 'Delivered by', pickup: 'Ready for pickup by' };

/** The promise of an order placed at `orderedAt`, with its words: "Ships by Fri, Nov 27". */
export function deliveryPromise(orderedAt: Date, deliveryOption: string): DeliveryPromise {
  const date = shipsBy(orderedAt, deliveryOption);
  const kind = promiseKind(deliveryOption);
  return { date, kind, label: `${PREFIX[kind]} ${formatPromiseDay(date)}` };
}
