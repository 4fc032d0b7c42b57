import { describe, expect, it } from 'vitest';
import { deliveryPromise, formatPromiseDay, newYorkWallClock, shipsBy } from './delivery-promise';

const at = (iso: string) => new Date(iso);
const day = (d: Date) => d.toISOString().slice(0, 10);

describe('delivery promise (issue 35)', () => {
  it('rush ships the next business day, skipping Thanksgiving and weekends', () => {
    expect(deliveryPromise(at('2026-11-25T15:00:00Z'), 'rush-24h').label).toBe('Ships by Fri, Nov 27'); // Wed -> (Thu holiday) -> Fri
    expect(day(shipsBy(at('2026-11-20T15:00:00Z'), 'rush-24h'))).toBe('2026-11-23'); // Fri -> Mon
    expect(day(shipsBy(at('2026-11-21T15:00:00Z'), 'rush-24h'))).toBe('2026-11-23'); // Sat -> Mon
    expect(day(shipsBy(at('2026-12-24T15:00:00Z'), 'rush-24h'))).toBe('2026-12-28'); // Thu -> (Christmas Fri, weekend) -> Mon
  });

  it('standard ships by the 7th business day; pickup is ready by then', () => {
    expect(deliveryPromise(at('2026-11-25T15:00:00Z'), 'standard').label).toBe('Ships by Mon, Dec 7');
    expect(deliveryPromise(at('2026-11-28T14:00:00Z'), 'pickup-nyc').label).toBe('Ready for pickup by Tue, Dec 8'); // Sat
    expect(day(shipsBy(at('2026-06-29T15:00:00Z'), 'standard'))).toBe('2026-07-09'); // July 3 (observed Independence Day) skipped
  });

  it('same-day courier: the same business day before 2 pm in New York, else the next one', () => {
    expect(deliveryPromise(at('2026-11-25T15:00:00Z'), 'same-day-manhattan').label).toBe('Delivered by Wed, Nov 25'); // 10:00 EST
    expect(day(shipsBy(at('2026-11-25T19:30:00Z'), 'same-day-manhattan'))).toBe('2026-11-27'); // 14:30 EST -> (Thanksgiving) Fri
    expect(day(shipsBy(at('2026-11-26T15:00:00Z'), 'same-day-manhattan'))).toBe('2026-11-27'); // on Thanksgiving
    expect(day(shipsBy(at('2026-11-29T15:00:00Z'), 'same-day-manhattan'))).toBe('2026-11-30'); // Sunday
  });

  it('counts on the New York calendar, not UTC', () => {
    // Fri 21:00 in New York is already Saturday in UTC: still Friday's order
    expect(newYorkWallClock(at('2026-11-28T02:00:00Z')).toISOString()).toBe('2026-11-27T21:00:00.000Z');
    expect(day(shipsBy(at('2026-11-28T02:00:00Z'), 'rush-24h'))).toBe('2026-11-30');
    // summer time (EDT, UTC-4)
    expect(newYorkWallClock(at('2026-07-01T03:30:00Z')).toISOString()).toBe('2026-06-30T23:30:00.000Z');
  });

  it('formats a day as "Fri, Nov 27"', () => {
    expect(formatPromiseDay(new Date(Date.UTC(2026, 10, 27)))).toBe('Fri, Nov 27');
    expect(formatPromiseDay(new Date(Date.UTC(2027, 0, 4)))).toBe('Mon, Jan 4');
  });
});
