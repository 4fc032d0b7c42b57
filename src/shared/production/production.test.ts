import { describe, expect, it } from 'vitest';
import { addBusinessDays, dueWindow, isClosedDay, isOverdue, studioHolidays } from './due-date';
import { normalizeTrackingNumber, trackingNumberError, trackingUrl, upsCheckDigit, TRACKING_MESSAGES } from './tracking';

describe('due dates (business days, UTC)', () => {
  const at = (s: string) => new Date(s);
  it('rush: the end of the next business day, weekends skipped', () => {
    expect(dueWindow('rush-24h', at('2026-11-18T15:00:00Z')).dueAt.toISOString()).toBe('2026-11-19T23:59:59.999Z'); // Wed -> Thu
    expect(dueWindow('rush-24h', at('2026-11-20T10:00:00Z')).dueAt.toISOString()).toBe('2026-11-23T23:59:59.999Z'); // Fri -> Mon
    expect(dueWindow('rush-24h', at('2026-11-21T10:00:00Z')).dueAt.toISOString()).toBe('2026-11-23T23:59:59.999Z'); // Sat -> Mon
  });
  it("holidays are skipped like weekends: Thanksgiving, Christmas on a Friday", () => {
    expect(dueWindow('rush-24h', at('2026-11-25T15:00:00Z')).dueAt.toISOString()).toBe('2026-11-27T23:59:59.999Z'); // Wed -> (Thanksgiving) -> Fri
    expect(dueWindow('same-day-manhattan', at('2026-11-26T08:00:00Z')).dueAt.toISOString()).toBe('2026-11-27T23:59:59.999Z');
    expect(dueWindow('rush-24h', at('2026-12-24T15:00:00Z')).dueAt.toISOString()).toBe('2026-12-28T23:59:59.999Z'); // Thu -> (Christmas, weekend) -> Mon
  });
  it('the studio holidays: six a year, on their observed dates', () => {
    expect([...studioHolidays(2026)]).toEqual(['2026-01-01', '2026-05-25', '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25']);
    // Christmas 2022 on a Sunday -> Monday; New Year's Day 2022 on a Saturday -> Friday Dec 31, 2021
    expect([...studioHolidays(2022)]).toEqual(['2022-05-30', '2022-07-04', '2022-09-05', '2022-11-24', '2022-12-26']);
    expect(studioHolidays(2021).has('2021-12-31')).toBe(true);
    expect(isClosedDay(at('2021-12-31T12:00:00Z'))).toBe(true);
    expect(isClosedDay(at('2026-11-27T12:00:00Z'))).toBe(false);
  });
  it('standard: 5-7 business days, due at the end of the 7th', () => {
    const w = dueWindow('standard', at('2026-11-25T15:00:00Z')); // Wed, Thanksgiving the next day
    expect(w.earliestAt.toISOString()).toBe('2026-12-03T23:59:59.999Z');
    expect(w.dueAt.toISOString()).toBe('2026-12-07T23:59:59.999Z');
    expect(dueWindow('pickup-nyc', at('2026-11-28T09:00:00Z')).dueAt.toISOString()).toBe('2026-12-08T23:59:59.999Z'); // Sat -> Tue+
  });
  it('same-day courier: the same business day (Monday on a weekend)', () => {
    expect(dueWindow('same-day-manhattan', at('2026-11-25T08:00:00Z')).dueAt.toISOString()).toBe('2026-11-25T23:59:59.999Z');
    expect(dueWindow('same-day-manhattan', at('2026-11-29T08:00:00Z')).dueAt.toISOString()).toBe('2026-11-30T23:59:59.999Z');
  });
  it('addBusinessDays skips Saturday and Sunday', () => {
    expect(addBusinessDays(at('2026-11-27T00:00:00Z'), 2).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
  it('overdue after the due date while still on the floor', () => {
    const due = at('2026-11-26T23:59:59.999Z');
    expect(isOverdue(due, 'in-production', at('2026-11-27T00:00:00Z'))).toBe(true);
    expect(isOverdue(due, 'in-production', at('2026-11-26T12:00:00Z'))).toBe(false);
    expect(isOverdue(due, 'shipped', at('2026-11-30T00:00:00Z'))).toBe(false);
  });
});

describe('tracking numbers', () => {
  it('UPS: 1Z + 16, with its check digit', () => {
    expect(upsCheckDigit('999AA1012345678')).toBe(4);
    expect(trackingNumberError('ups', '1Z999AA10123456784')).toBeNull();
    expect(trackingNumberError('ups', '1z 999 aa1 0123 4567 84')).toBeNull();
    expect(trackingNumberError('ups', '1Z999AA10123456785')).toBe(TRACKING_MESSAGES.upsCheckDigit);
    expect(trackingNumberError('ups', '1Z999AA1012345678')).toBe(TRACKING_MESSAGES.ups);
  });
  it('USPS: 20-22 digits or S10 international', () => {
    expect(trackingNumberError('usps', '9400111899223344556677')).toBeNull();
    expect(trackingNumberError('usps', 'EC123456789US')).toBeNull();
    expect(trackingNumberError('usps', '12345')).toBe(TRACKING_MESSAGES.usps);
  });
  it('FedEx: 12, 15 or 20 digits', () => {
    expect(trackingNumberError('fedex', '123456789012')).toBeNull();
    expect(trackingNumberError('fedex', '123456789012345')).toBeNull();
    expect(trackingNumberError('fedex', '12345678901234567890')).toBeNull();
    expect(trackingNumberError('fedex', '1234567890123')).toBe(TRACKING_MESSAGES.fedex);
    expect(trackingNumberError('dhl', '123')).toBe(TRACKING_MESSAGES.carrier);
    expect(trackingNumberError('fedex', '  ')).toBe(TRACKING_MESSAGES.required);
  });
  it('builds the carriers\' tracking links', () => {
    expect(trackingUrl('ups', '1z999aa10123456784')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(trackingUrl('usps', 'EC123456789US')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=EC123456789US');
    expect(trackingUrl('fedex', '123456789012')).toBe('https://www.fedex.com/fedextrack/?trknbr=123456789012');
    expect(normalizeTrackingNumber(' 1z-99 ')).toBe('1Z99');
  });
});
