import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { insertDesignWithOrder, insertProfile, pngDataUrl, renderCardBack } from '#tests/helpers/admin-factories';
import { cardCodes, cards, designEvents, users } from '#server/db/schema/index';

/**
 * The design review's print check in a real browser (issue 22): staff see the print proof of each
 * side and the checks, approve a design that passes, and approve one that fails only with an
 * override reason, which the order's design history keeps.
 */

let server: BrowserServer;
let browser: Browser;
let adminCtx: BrowserContext;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  adminCtx = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(adminCtx, { firstName: 'Print', lastName: 'Staff' });
  await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
});
afterAll(() => closeBrowserSuite({ server, browser }));

const db = () => server.app.ctx.db;
const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) => expect.poll(fn, { timeout: 20_000, ...opts });
const toastText = (page: Page) => toastLocator(page).first().textContent();

async function pendingDesign(o: { withCode: boolean; fullName: string }) {
  const ctx = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(ctx);
  await ctx.close();
  const profile = await insertProfile(server.app, user.id, { fullName: o.fullName });
  const { design, order } = await insertDesignWithOrder(server.app, {
    userId: user.id,
    profileId: o.withCode ? profile.id : null,
    templateId: 18,
    qrCodeUrl: o.withCode ? `${server.baseUrl}/p/${profile.id}` : null,
    // the stored back the existing scan check reads (none without a code)
    backImageUrl: o.withCode ? pngDataUrl(await renderCardBack(`${server.baseUrl}/p/${profile.id}`)) : null,
    customerProfile: { fullName: o.fullName, email: 'print@example.com', jobTitle: 'Engineer', phoneNumber: '+1 212 555 0100' },
  });
  if (!o.withCode) {
    await db().update(cards).set({ userId: null }).where(eq(cards.id, design.id));
    // the order's batch code turned off: an order's card otherwise prints its batch link (issue 35)
    await db().insert(cardCodes).values({ code: `OFF${order.id}X${Math.random().toString(36).slice(2, 8).toUpperCase()}`, orderId: order.id, active: false });
  }
  return Object.assign(design, { orderId: order.id });
}

describe('print check in the design review', () => {
  it('shows the print proof and passing checks; Approve approves', async () => {
    const design = await pendingDesign({ withCode: true, fullName: 'Proof Passer' });
    const page = await adminCtx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/admin?tab=card-reviews');
    const card = page.getByTestId(`design-${design.id}`);
    const check = card.getByTestId('print-check');
    await poll(() => check.getAttribute('data-status'), { timeout: 30_000 }).toBe('pass');
    await poll(() => card.getByTestId('scan-check').getAttribute('data-status')).toBe('pass');
    // the proof of each side, at 300 DPI (1275 px wide), really drawn
    for (const side of ['front', 'back']) {
      const img = card.getByTestId(`print-proof-${side}`);
      await poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1275);
    }
    expect(await card.getByTestId('print-check-qr-decode').getAttribute('data-status')).toBe('ok');
    expect(await card.getByTestId('print-check-qr-decode').textContent()).toContain(`${server.baseUrl}/p/`);
    expect(await card.getByTestId('print-check-qr-module').textContent()).toMatch(/0\.\d\d mm \(minimum 0\.50 mm\)/);
    expect(await card.getByTestId('print-check-safe-area').getAttribute('data-status')).toBe('ok');
    expect(await card.getByLabel(/Override reason/).count()).toBe(0);
    // the print files are a click away
    expect(await card.getByRole('link', { name: 'Print PDF' }).getAttribute('href')).toBe(`/api/admin/cards/${design.id}/print.pdf`);

    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await poll(() => toastText(page)).toContain('Design approved');
    await poll(async () => (await db().select({ status: cards.status }).from(cards).where(eq(cards.id, design.id)))[0].status).toBe('approved');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a failing check blocks Approve until staff give an override reason, which the history keeps', async () => {
    const design = await pendingDesign({ withCode: false, fullName: 'Proof Failer' });
    const page = await adminCtx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/admin?tab=card-reviews');
    const card = page.getByTestId(`design-${design.id}`);
    await poll(() => card.getByTestId('print-check').getAttribute('data-status'), { timeout: 30_000 }).toBe('fail');
    expect(await card.getByTestId('print-check-qr-decode').getAttribute('data-status')).toBe('fail');
    const approve = card.getByRole('button', { name: 'Approve with override' });
    expect(await approve.isDisabled()).toBe(true);
    await card.getByLabel(/Override reason/).fill('The code is engraved after review');
    await poll(() => approve.isDisabled()).toBe(false);
    await approve.click();
    // the existing scan check of the stored back fails too (there is none): the review asks once more
    await poll(() => card.getByText('Press Approve again').count()).toBe(1);
    await approve.click();
    await poll(() => toastText(page)).toContain('Design approved');
    const [row] = await db().select({ status: cards.status }).from(cards).where(eq(cards.id, design.id));
    expect(row.status).toBe('approved');
    const events = await db().select().from(designEvents).where(eq(designEvents.cardId, design.id));
    const reason = events.find((e) => e.kind === 'approved')?.reason;
    expect(reason).toMatch(/^Print check overridden \(failed: .*\): The code is engraved after review$/);
    // the order's detail shows the override with the design
    await page.goto(`/admin?tab=orders&order=${design.orderId}`);
    const override = page.getByRole('dialog').getByTestId('print-override');
    await poll(() => override.textContent()).toBe(`Approved with an override. ${reason}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
