import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { overflow } from '#tests/helpers/overflow';
import { users } from '#server/db/schema/index';

/**
 * Issue 37, "Honest pages": staff edit the shop's claims and the legal texts in Admin > Settings;
 * visitors see the change at once on /reviews and /terms; the footer's links lead somewhere; the
 * legal pages fit a 360 px phone.
 */
let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

async function staff(): Promise<BrowserContext> {
  const ctx = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(ctx);
  await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  return ctx;
}

describe('claims and legal pages (issue 37)', () => {
  it('a visitor sees the default claims, no empty rating, and how reviews are verified; the footer links lead to real pages', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/reviews');
    await page.getByText('No reviews yet. Be the first to leave a review!').waitFor();
    await expect.poll(() => page.getByTestId('shop-claim').allTextContents()).toEqual(['98% customer satisfaction', '24-48 hour average delivery']);
    // no reviews: no average rating card beside the claims
    expect(await page.getByText('No ratings yet').count()).toBe(0);
    expect(await page.getByTestId('average-rating').count()).toBe(0);
    const how = (await page.getByTestId('review-verification').textContent()) ?? '';
    expect(how).toContain('Signed in with the account that placed the order');
    expect(how).toContain('waits until our staff have checked it');

    const footer = page.locator('footer');
    const hrefs = async (name: string) => footer.getByRole('link', { name, exact: true }).getAttribute('href');
    expect(await hrefs('Privacy Policy')).toBe('/privacy');
    expect(await hrefs('Terms of Service')).toBe('/terms');
    expect(await hrefs('Pricing')).toBe('/faq#card-types');
    expect(await hrefs('Resources')).toBe('/help');
    expect(await footer.locator('[aria-disabled="true"]').count()).toBe(0);

    await footer.getByRole('link', { name: 'Privacy Policy', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'What we keep' }).waitFor();
    expect(await page.title()).toBe('Privacy Policy · Metal Cards NYC');
    await page.locator('footer').getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }).waitFor();
    // the card types' answer is opened, with the catalogue's prices
    await page.locator('#card-types').getByText('per card').first().waitFor();
    await page.locator('footer').getByRole('link', { name: 'Resources', exact: true }).click();
    await page.waitForURL('**/help');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('staff hide a claim and edit the terms; a visitor sees it at once; the pages fit 360 px', async () => {
    const admin = await staff();
    const page = await admin.newPage();
    await page.goto('/admin?tab=settings');
    const form = page.getByRole('form', { name: 'Claims, profile links and legal pages' });
    await form.waitFor();
    expect(await form.getByLabel('Links per profile').inputValue()).toBe('3');
    const row = form.getByTestId('claim-row-satisfaction');
    expect(await row.getByLabel('Claim 1', { exact: true }).inputValue()).toBe('98% customer satisfaction');
    await row.getByLabel('Shown').uncheck();
    await form.getByTestId('claim-row-average-delivery').getByLabel('Claim 2', { exact: true }).fill('Most orders delivered within 2-3 days');
    const terms = form.getByLabel('Terms of Service');
    const saveButton = form.getByRole('button', { name: 'Save claims and pages' });
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/admin/settings')) puts.push(r.postData() ?? '');
    });
    // the empty terms are refused before sending, at the field, and nothing is sent. On a busy machine
    // a run once saw no message 20 s after the click, for a reason it did not show: the field is
    // emptied and sent again, once, and what the form showed is reported if it still says nothing
    let refused = false;
    for (let attempt = 0; attempt < 2 && !refused; attempt++) {
      await terms.fill('');
      await expect.poll(() => terms.inputValue()).toBe('');
      await saveButton.click();
      refused = await form
        .getByText('Enter the terms of service')
        .waitFor({ timeout: 10_000 })
        .then(() => true)
        .catch(() => false);
    }
    if (!refused) throw new Error(`no field message; terms: ${JSON.stringify(await terms.inputValue())}, alerts: ${JSON.stringify(await form.getByRole('alert').allTextContents())}, toasts: ${JSON.stringify(await toastLocator(page).allTextContents())}`);
    expect(puts).toEqual([]);
    await terms.fill('Cards are made to order.\n\n## Refunds\n- Faulty cards are replaced\n- Ask within 30 days');
    await form.getByRole('button', { name: 'Save claims and pages' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Pages and claims saved');

    const visitor = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 740 } });
    const v = await visitor.newPage();
    await v.goto('/reviews');
    await v.getByText('No reviews yet. Be the first to leave a review!').waitFor();
    await expect.poll(() => v.getByTestId('shop-claim').allTextContents()).toEqual(['Most orders delivered within 2-3 days']);
    expect(await v.getByText('98%').count()).toBe(0);
    expect((await overflow(v)).excess).toBeLessThanOrEqual(0);

    await v.goto('/terms');
    await v.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await v.getByText('Cards are made to order.').waitFor();
    await v.getByRole('heading', { level: 2, name: 'Refunds' }).waitFor();
    expect(await v.getByRole('listitem').filter({ hasText: 'Faulty cards are replaced' }).count()).toBe(1);
    expect((await overflow(v)).excess).toBeLessThanOrEqual(0);
    await v.goto('/privacy');
    await v.getByRole('heading', { level: 2, name: 'Who else sees it' }).waitFor();
    expect((await overflow(v)).excess).toBeLessThanOrEqual(0);

    // sign-up and the order form link both texts
    for (const [path, testId] of [['/signup', 'signup-legal'], ['/order', 'order-legal']] as const) {
      await v.goto(path);
      const note = v.getByTestId(testId);
      await note.waitFor();
      expect(await note.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
      expect(await note.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    }

    // the staff's own session shows the change at once too (the public queries were refreshed)
    await page.goto('/reviews');
    await expect.poll(() => page.getByTestId('shop-claim').allTextContents()).toEqual(['Most orders delivered within 2-3 days']);
    await visitor.close();
    await admin.close();
  });
});
