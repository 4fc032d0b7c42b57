import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CARD_TYPES, DELIVERY_OPTIONS, formatUsd, priceOrder } from './catalogue';

describe('catalogue', () => {
  it('prices the spec cards and delivery fees', () => {
    expect(CARD_TYPES.map((c) => [c.id, c.priceCents])).toEqual([
      ['standard', 400],
      ['color', 500],
      ['black_anodized', 700],
      ['luxury_titanium', 900],
    ]);
    expect(DELIVERY_OPTIONS.map((d) => [d.id, d.feeCents])).toEqual([
      ['standard', 0],
      ['rush-24h', 3000],
      ['same-day-manhattan', 5000],
      ['pickup-nyc', 0],
    ]);
    const q = priceOrder({ cardType: 'color', deliveryOption: 'rush-24h', quantity: 250 });
    expect(q).toMatchObject({ subtotalCents: 125000, deliveryFeeCents: 3000, totalCents: 128000, volumeDiscountEligible: true });
    expect(formatUsd(q.totalCents)).toBe('$1,280.00');
    expect(priceOrder({ cardType: 'standard', deliveryOption: 'standard', quantity: 99 }).volumeDiscountEligible).toBe(false);
  });

  it('refuses unknown types, options and quantities', () => {
    expect(() => priceOrder({ cardType: 'gold', deliveryOption: 'standard', quantity: 1 })).toThrow();
    expect(() => priceOrder({ cardType: 'color', deliveryOption: 'drone', quantity: 1 })).toThrow();
    for (const q of [0, 5001, 1.5, NaN]) expect(() => priceOrder({ cardType: 'color', deliveryOption: 'standard', quantity: q })).toThrow();
  });

  it('total = card price x quantity + delivery fee, for every combination', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CARD_TYPES), fc.constantFrom(...DELIVERY_OPTIONS), fc.integer({ min: 1, max: 5000 }), (c, d, n) => {
        expect(priceOrder({ cardType: c.id, deliveryOption: d.id, quantity: n }).totalCents).toBe(c.priceCents * n + d.feeCents);
      }),
    );
  });

  it('formats dollars like en-US', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        expect(formatUsd(cents)).toBe('$' + (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
      }),
    );
    expect(formatUsd(-1234)).toBe('-$12.34');
  });
});
