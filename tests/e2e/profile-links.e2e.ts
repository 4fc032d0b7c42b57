import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MOBILE, newContext, signUpViaApi, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { overflow } from '#tests/helpers/overflow';

/** Issue 37 item 1 (decision 37-03): typed, labelled links the owner orders, on a 360 px phone. */

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

describe('typed, labelled, ordered profile links', () => {
  it('adds a WhatsApp link and a custom labelled one, reorders, saves; the public page shows them in that order', async () => {
    const ctx = await newContext(browser, server.baseUrl, { ...MOBILE, viewport: { width: 360, height: 740 } });
    await signUpViaApi(ctx);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/profile');
    await page.getByLabel('Full name').fill('Rosa Metal');

    await page.getByRole('button', { name: /Add Link/ }).click();
    await page.getByLabel('Link 1 type').selectOption('whatsapp');
    await page.getByLabel('Link 1 URL').fill('+1 (212) 555-0100');
    await page.getByRole('button', { name: /Add Link/ }).click();
    await page.getByLabel('Link 2 type').selectOption('custom');
    await page.getByLabel('Link 2 URL').fill('rosa.example.com/portfolio');

    // a custom link needs its label: said beside it, nothing sent
    await page.getByRole('button', { name: 'Create Profile' }).click();
    await expect.poll(() => page.getByText('Please enter a label for this link').isVisible()).toBe(true);
    await page.getByLabel('Link 2 label').fill('My portfolio');

    // the custom link first
    const rows = page.getByTestId('link-row');
    await rows.nth(1).getByRole('button', { name: 'Move up' }).click();
    expect(await page.getByLabel('Link 1 type').inputValue()).toBe('custom');
    expect(await rows.nth(0).getByRole('button', { name: 'Move up' }).isDisabled()).toBe(true);
    expect((await overflow(page)).excess).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Create Profile' }).click();
    await expect.poll(async () => (await (await ctx.request.get('/api/profile')).json())?.links?.length ?? 0).toBe(2);
    const profile = await (await ctx.request.get('/api/profile')).json();
    expect(profile.links.map((l: any) => [l.linkType, l.url, l.label])).toEqual([
      ['custom', 'https://rosa.example.com/portfolio', 'My portfolio'],
      ['whatsapp', 'https://wa.me/12125550100', null],
    ]);

    // then WhatsApp first again, saved as the new order
    await page.reload();
    await page.getByTestId('link-row').nth(1).getByRole('button', { name: 'Move up' }).click();
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expect
      .poll(async () => (await (await ctx.request.get('/api/profile')).json()).links.map((l: any) => l.linkType).join(','))
      .toBe('whatsapp,custom');

    const pub = await ctx.newPage();
    await pub.goto(`/p/${profile.id}`);
    const links = pub.getByRole('navigation', { name: 'Links' }).getByRole('link');
    expect(await links.allInnerTexts()).toEqual(['WhatsApp', 'My portfolio']);
    expect((await overflow(pub)).excess).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
