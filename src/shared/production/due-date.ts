/**
 * Production due dates (issue 22): business days, weekends skipped, counted on the UTC calendar
 * from the moment the order was approved for production (decision 22-02).
 *  - Expedited 24h: the end of the next business day;
 *  - Same-day Manhattan courier: the end of the same business day (the next one on a weekend);
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

function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** The last millisecond of `d`'s day (UTC). */
export function endOfDay(d: Date): Date {
  return new Date(startOfDay(d).getTime() + DAY_MS - 1);
}

/** The start of the n-th business day after `from`'s day (a weekend day counts for nothing; n = 0: `from`'s day, or the next business day on a weekend). */
export function addBusinessDays(from: Date, n: number): Date {
  let d = startOfDay(from);
  if (n === 0) while (isWeekend(d)) d = new Date(d.getTime() + DAY_MS);
  for (let left = n; left > 0; ) {
    d = new Date(d.getTime() + DAY_MS);
    if (!isWeekend(d)) left--;
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
