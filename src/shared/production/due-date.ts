/**
 * Production due dates (issue 22): business days, weekends and the studio's holidays skipped,
 * counted on the UTC calendar from the moment the order was approved for production (decision 22-02).
 *  - Expedited 24h: the end of the next business day;
 *  - Same-day Manhattan courier: the end of the same business day (the next one on a closed day);
 *  - Standard and Pickup NYC: 5-7 business days; due at the end of the 7th, overdue after it.
 */

export const STANDARD_PRODUCTION_DAYS = { min: 5, max: 7 } as const;

/** Statuses whose cards have left the floor: never overdue. */
export const OFF_FLOOR_STATUSES = ['shipped', 'ready-for-pickup', 'completed', 'cancelled'] as const;

const DAY_MS = 86_400_000;

export function isWeekend(d: Date): boolean {
  const day = d.getUTCDay();
  return day === 0 || day === 6;
}

/** `YYYY-MM-DD` of a UTC date. */
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/** The n-th (1-based) `weekday` (0 = Sunday) of a month; n = -1: the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n < 0) {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return new Date(Date.UTC(year, month, last.getUTCDate() - ((last.getUTCDay() - weekday + 7) % 7)));
  }
  const first = new Date(Date.UTC(year, month, 1));
  return new Date(Date.UTC(year, month, 1 + ((weekday - first.getUTCDay() + 7) % 7) + (n - 1) * 7));
}

/** A fixed-date holiday on a weekend is observed on the Friday before or the Monday after. */
function observed(d: Date): Date {
  const day = d.getUTCDay();
  return day === 6 ? new Date(d.getTime() - DAY_MS) : day === 0 ? new Date(d.getTime() + DAY_MS) : d;
}

const holidayCache = new Map<number, Set<string>>();

/**
 * The days the studio is closed in `year` besides weekends: the six US holidays most businesses
 * close for (New Year's Day, Memorial Day, Independence Day, Labor Day, Thanksgiving, Christmas),
 * on their observed dates (decision 22-02). New Year's Day of the next year can fall on Dec 31.
 */
export function studioHolidays(year: number): Set<string> {
  let days = holidayCache.get(year);
  if (!days) {
    days = new Set(
      [
        observed(new Date(Date.UTC(year, 0, 1))),
        nthWeekday(year, 4, 1, -1), // Memorial Day: the last Monday of May
        observed(new Date(Date.UTC(year, 6, 4))),
        nthWeekday(year, 8, 1, 1), // Labor Day: the first Monday of September
        nthWeekday(year, 10, 4, 4), // Thanksgiving: the fourth Thursday of November
        observed(new Date(Date.UTC(year, 11, 25))),
        observed(new Date(Date.UTC(year + 1, 0, 1))), // next New Year's Day, observed on Dec 31 when it is a Saturday
      ]
        .map(dayKey)
        .filter((k) => k.startsWith(`${year}-`)),
    );
    holidayCache.set(year, days);
  }
  return days;
}

/** A day no production is counted on: a weekend or one of the studio's holidays. */
export function isClosedDay(d: Date): boolean {
  return isWeekend(d) || studioHolidays(d.getUTCFullYear()).has(dayKey(d));
}

function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** The last millisecond of `d`'s day (UTC). */
export function endOfDay(d: Date): Date {
  return new Date(startOfDay(d).getTime() + DAY_MS - 1);
}

/** The start of the n-th business day after `from`'s day (a closed day counts for nothing; n = 0: `from`'s day, or the next business day when it is closed). */
export function addBusinessDays(from: Date, n: number): Date {
  let d = startOfDay(from);
  if (n === 0) while (isClosedDay(d)) d = new Date(d.getTime() + DAY_MS);
  for (let left = n; left > 0; ) {
    d = new Date(d.getTime() + DAY_MS);
    if (!isClosedDay(d)) left--;
  }
  return d;
}

export interface DueWindow {
  /** the earliest the cards are promised (the start of the window) */
  earliestAt: Date;
  /** the end of the window: after it the order is overdue */
  dueAt: Date;
}

/** When an order approved at `approvedAt` is due, by its delivery option. */
export function dueWindow(deliveryOption: string, approvedAt: Date): DueWindow {
  if (deliveryOption === 'rush-24h') {
    const due = endOfDay(addBusinessDays(approvedAt, 1));
    return { earliestAt: due, dueAt: due };
  }
  if (deliveryOption === 'same-day-manhattan') {
    const due = endOfDay(addBusinessDays(approvedAt, 0));
    return { earliestAt: due, dueAt: due };
  }
  return {
    earliestAt: endOfDay(addBusinessDays(approvedAt, STANDARD_PRODUCTION_DAYS.min)),
    dueAt: endOfDay(addBusinessDays(approvedAt, STANDARD_PRODUCTION_DAYS.max)),
  };
}

/** Past its due date and still on the floor. */
export function isOverdue(dueAt: Date, status: string, now: Date): boolean {
  return now.getTime() > dueAt.getTime() && !(OFF_FLOOR_STATUSES as readonly string[]).includes(status);
}
