import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeA11ySuite, openA11ySuite, signedInPages, walk, type A11ySuite } from '#tests/helpers/a11y';

/**
 * Issue 36: the signed-in pages (every page a signed-out visitor is sent away from, and the home
 * page) pass axe-core for WCAG 2.2 A and AA at 1280 and 360 px as a signed-in customer and as staff
 * who also run a team; their rendered HTML passes html-validate. That each page fits a phone, every
 * tab included, is the phone walk's (tests/e2e/phone-walk-*.e2e.ts). The walk is
 * tests/helpers/a11y.ts; the visitor's walk is tests/e2e/a11y-visitor.e2e.ts (decision 36-06).
 */

let suite: A11ySuite;

beforeAll(async () => {
  suite = await openA11ySuite({ staff: true });
});
afterAll(async () => {
  await closeA11ySuite(suite);
});

describe('accessibility: axe-core WCAG 2.2 A/AA on every page, signed in', () => {
  it('the signed-in pages as a signed-in customer and as staff running a team, at 1280 and 360 px, and their rendered HTML', { timeout: 300_000 }, async () => {
    const routes = await signedInPages(suite);
    expect(routes.length).toBeGreaterThan(5);
    const html: string[] = [];
    const problems = (await Promise.all((['customer', 'staff'] as const).map((who) => walk(suite, who, routes, [], html)))).flat();
    expect(problems).toEqual([]);
    expect(html).toEqual([]);
  });
});
