import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ReviewCreateBody, parseOrderNumber } from './reviews';

const valid = { customerName: 'Ada', email: 'ada@example.com', rating: 5, title: 'Lovely cards', comment: 'Heavy and sharp, the QR scans well.' };

describe('review contract', () => {
  it('accepts exactly the whole ratings 1 to 5', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)), (rating) => {
        const ok = ReviewCreateBody.safeParse({ ...valid, rating }).success;
        expect(ok).toBe(typeof rating === 'number' && Number.isInteger(rating) && rating >= 1 && rating <= 5);
      }),
    );
  });

  it('reads order numbers with or without #', () => {
    expect(parseOrderNumber('#42')).toBe(42);
    expect(parseOrderNumber(' 42 ')).toBe(42);
    expect(parseOrderNumber('# 42')).toBe(42);
    expect(parseOrderNumber('0')).toBeNull();
    expect(parseOrderNumber('42a')).toBeNull();
    expect(parseOrderNumber('##42')).toBeNull();
    expect(parseOrderNumber('2147483648')).toBeNull();
    expect(parseOrderNumber('')).toBeNull();
    expect(parseOrderNumber(null)).toBeNull();
  });

  it('treats an empty or missing order number as none', () => {
    expect(ReviewCreateBody.parse({ ...valid, orderNumber: '' }).orderNumber).toBeNull();
    expect(ReviewCreateBody.parse({ ...valid, orderNumber: '   ' }).orderNumber).toBeNull();
    expect(ReviewCreateBody.parse(valid).orderNumber).toBeNull();
    expect(ReviewCreateBody.parse({ ...valid, orderNumber: null }).orderNumber).toBeNull();
  });
});
