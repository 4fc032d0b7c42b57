import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePhoneSuite, openPhoneSuite, phoneWalkInTwo, type PhoneSuite } from '#tests/helpers/phone-walk';

/**
 * Issue 37 (phones first, decision 37-08): every page route, and every tab on it, as a team owner
 * (a member who joined, an invitation waiting, a lead) and as staff (orders and a design to review)
 * on a 360 and a 390 px phone: nothing cut, nothing scrolling sideways that is not meant to, no
 * overlap, no squashed image. The measure and its own probe: tests/e2e/phone-walk-visitor.e2e.ts.
 */

let suite: PhoneSuite;

beforeAll(async () => {
  suite = await openPhoneSuite(['owner', 'staff']);
  // a busy shared machine: the server's warm-up and four sign-ups
}, 400_000);
afterAll(async () => {
  await closePhoneSuite(suite);
});

describe('phone walk: a team owner and staff at 360 and 390 px', () => {
  it('every route and tab as a team owner and as staff: nothing cut or overlapping', { timeout: 600_000 }, async () => {
    const problems: string[] = [];
    await Promise.all([phoneWalkInTwo(suite, 'owner', problems), phoneWalkInTwo(suite, 'staff', problems)]);
    expect([...new Set(problems)].sort()).toEqual([]);
  });
});
