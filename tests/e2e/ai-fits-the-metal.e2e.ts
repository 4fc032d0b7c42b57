import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { logoImage } from '#tests/helpers/ai-images';
import { shippingAddressInput } from '#tests/helpers/orders';

/** Issue 37 (decision 37-07): the AI assistant works on the customer's own card and its metal. */
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const toastWith = (page: Page, text: string) => toastLocator(page).filter({ hasText: text });

async function signedIn() {
  const ctx = await newContext(browser, server.baseUrl);
  await signUpViaApi(ctx);
  const page = await ctx.newPage();
  return { ctx, page, errors: trackPageErrors(page) };
}

describe('AI assistant on the customer’s own card', () => {
  it('Design Feedback opens with the latest design filled in, templates by name', async () => {
    const { ctx, page, errors } = await signedIn();
    const sub = await ctx.request.post('/api/cards/submit-for-review', {
      data: {
        templateId: 16,
        cardType: 'luxury_titanium',
        look: { accent: '#7a5a0c' },
        customerProfile: { fullName: 'Grace B. Hopper', jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100', companyName: 'US Navy' },
        shippingAddress: shippingAddressInput(),
      },
    });
    expect(sub.status(), await sub.text()).toBe(201);
    await page.goto('/ai-assistant?tab=feedback');
    const note = page.getByTestId('current-design-source');
    await expect.poll(() => note.getAttribute('data-source'), { timeout: 20_000 }).toBe('design');
    expect(await note.textContent()).toContain('Classic on Luxury Titanium');
    expect(await page.locator('#f-fullName').inputValue()).toBe('Grace B. Hopper');
    expect(await page.locator('#f-jobTitle').inputValue()).toBe('Rear Admiral');
    expect(await page.locator('#f-companyName').inputValue()).toBe('US Navy');
    expect(await page.locator('#f-template').inputValue()).toBe('16');
    expect(await page.locator('#f-cardtype').inputValue()).toBe('luxury_titanium');
    // the template choices are names, never ids
    const options = await page.locator('#f-template option').allTextContents();
    expect(options).toContain('Classic');
    for (const o of options) expect(o).not.toMatch(/\d/);

    await page.getByLabel('Your Question').fill('Is my text readable on titanium?');
    await page.getByRole('button', { name: 'Get Feedback' }).click();
    await toastWith(page, 'Feedback received!').waitFor();
    const answer = (await page.getByTestId('feedback-answer').textContent())!;
    expect(answer).toContain('Luxury Titanium');
    expect(answer).not.toMatch(/template 16|#16/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Color Palette on Color Metal: a colour failing contrast is marked and not applied; a fitting one is, on the same metal', async () => {
    const { ctx, page, errors } = await signedIn();
    await page.goto('/ai-assistant?tab=palette');
    await page.getByLabel('Mood').selectOption('Elegant');
    await page.locator('#p-industry').selectOption('Finance');
    await page.getByRole('button', { name: 'Generate Palette' }).click();
    await toastWith(page, 'Color palette generated!').waitFor();
    const apply = page.getByTestId('apply-palette');
    await apply.getByLabel("Your card's metal").selectOption('color');
    const failing = apply.locator('[data-testid="apply-colour"][data-fits="false"]');
    const fitting = apply.locator('[data-testid="apply-colour"][data-fits="true"]');
    expect(await failing.count(), 'a light text colour fails on light steel').toBeGreaterThan(0);
    await failing.first().click();
    expect(await apply.getByTestId('apply-palette-not-applied').textContent()).toMatch(/Not applied: Only \d\.\d\d:1 against Color Metal/);
    expect(await apply.getByRole('button', { name: 'Apply to my card' }).count()).toBe(0);
    expect(await fitting.count()).toBeGreaterThan(0);
    const hex = (await fitting.first().getAttribute('data-hex'))!.toLowerCase();
    await fitting.first().click();
    await apply.getByRole('button', { name: 'Apply to my card' }).click();
    await page.waitForURL((u) => u.pathname === '/design' && u.searchParams.get('cardType') === 'color' && u.searchParams.get('accent') === hex);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Image Editor: "Use as my logo" makes the cut-out the profile logo through the upload path', async () => {
    const { ctx, page, errors } = await signedIn();
    const made = await ctx.request.post('/api/profile', { data: { fullName: 'Ada Lovelace', jobTitle: 'Engineer', profileTemplate: 'classic' } });
    expect(made.status(), await made.text()).toBe(201);
    await page.goto('/ai-assistant?tab=image');
    await page.getByTestId('ai-image-input').setInputFiles({ name: 'brand.png', mimeType: 'image/png', buffer: await logoImage({ width: 400, height: 300 }) });
    await page.getByRole('button', { name: 'Remove Background' }).click();
    await toastWith(page, 'Background removed!').waitFor();
    await page.getByTestId('use-as-logo').click();
    await toastWith(page, 'Logo updated').waitFor();
    const used = page.getByTestId('logo-used');
    expect(await used.getByRole('link', { name: 'Open the designer' }).getAttribute('href')).toBe('/design');
    const profile = await (await ctx.request.get('/api/profile')).json();
    // stored by the logo upload (its own re-encoded copy), not the assistant's file
    expect(profile.logoUrl).toMatch(/^\/files\/uploads\//);
    const logo = await ctx.request.get(profile.logoUrl);
    expect(logo.status()).toBe(200);
    expect(logo.headers()['content-type']).toBe('image/png');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
