import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ROUTES } from '#shared/routes';
import { closeA11ySuite, openA11ySuite, walkInTwo, type A11ySuite } from '#tests/helpers/a11y';

/**
 * Issue 36: every page as a visitor passes axe-core (an independent checker) for WCAG 2.2 A and AA
 * at 1280 and 360 px; each page's rendered HTML (`page.content()` once it has settled) passes
 * html-validate (the preset and documented exceptions of tests/helpers/html-validator.ts, decision
 * 36-04); and no anonymous page logs a console error (that each page fits a phone, every tab
 * included, is the phone walk's: tests/e2e/phone-walk-*.e2e.ts). One walk for the checks keeps the
 * browser suite short; the walk and its helpers are in tests/helpers/a11y.ts. The signed-in pages
 * are walked in tests/e2e/a11y-signed-in.e2e.ts, the public profile's layouts and the API reference
 * in tests/e2e/a11y-profiles.e2e.ts (three files so the browser workers share the walk, decision 36-06).
 */

let suite: A11ySuite;

beforeAll(async () => {
  suite = await openA11ySuite();
});
afterAll(async () => {
  await closeA11ySuite(suite);
});

describe('accessibility: axe-core WCAG 2.2 A/AA on every page, as a visitor', () => {
  it('every page as a visitor at 1280 and 360 px, and its rendered HTML; no console error', { timeout: 300_000 }, async () => {
    const consoleErrors: string[] = [];
    const html: string[] = [];
    const problems = await walkInTwo(suite, 'visitor', PAGE_ROUTES, consoleErrors, html);
    expect(problems).toEqual([]);
    expect(html).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
