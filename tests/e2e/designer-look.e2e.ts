import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { newContext, signUpViaApi, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { cards } from '#server/db/schema/index';
import { CARD_FINISHES } from '#shared/templates/look';

/** Issue 20: the designer shows what is sold (the metal of each card type), only what is printed, and the choices a metal can make. */
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
const front = (page: Page) => page.getByTestId('card-pair').locator('svg').first();
const frontHtml = (page: Page) => front(page).evaluate((el) => el.outerHTML);

describe('the designer shows the product', () => {
  it('draws each card type as its metal, leaves empty fields off, offers only what the metal can produce, and renders the same', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/design');
    await page.getByRole('heading', { name: 'Design Your Card' }).waitFor();
    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Job Title').fill('Analyst');
    await page.getByLabel('Phone', { exact: true }).fill('+1 212 555 0199');

    // empty fields are not drawn: no sample company or city on the card
    await poll(() => frontHtml(page)).toContain('Ada Lovelace');
    const html = await frontHtml(page);
    for (const sample of ['Your Company', 'YOUR COMPANY', 'New York, NY']) expect(html).not.toContain(sample);
    await page.getByText('Empty fields are left off the card.').waitFor();

    // each card type its own metal
    for (const [id, f] of Object.entries(CARD_FINISHES)) {
      await page.getByTestId(`card-type-${id}`).click();
      await poll(() => frontHtml(page)).toContain(`stop-color="${f.sheen[0][1]}"`);
      expect(await page.getByTestId('finish-summary').textContent()).toContain(f.summary);
    }

    // engraved steel has one colour; titanium offers gold
    await page.getByTestId('card-type-standard').click();
    expect(await page.getByRole('radiogroup', { name: 'Name colour' }).getByRole('radio').count()).toBe(1);
    await page.getByTestId('card-type-luxury_titanium').click();
    const gold = CARD_FINISHES.luxury_titanium.accents[1];
    await page.getByRole('radio', { name: gold }).click();
    await poll(() => page.locator('[data-testid="card-pair"] text.card-accent').first().getAttribute('fill')).toBe(gold);
    await page.getByLabel('Font for name and company').selectOption('Playfair Display');
    await poll(() => page.locator('[data-testid="card-pair"] text.card-accent').first().getAttribute('font-family')).toContain('Playfair Display');

    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Delivery', { exact: true }).selectOption('pickup-nyc');
    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByRole('button', { name: 'Confirm order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/, { timeout: 45_000 });
    const [card] = await server.app.ctx.db.select().from(cards).orderBy(cards.id);
    const stored = (card.customizations as { look: Record<string, unknown> }).look;
    expect(stored).toMatchObject({ cardType: 'luxury_titanium', accent: gold, font: 'Playfair Display' });
    // the rendered file is titanium too (light grey metal, not the black card)
    const img = await ctx.request.get(card.frontImageUrl!);
    const stats = await sharp(Buffer.from(await img.body())).stats();
    expect(stats.channels.slice(0, 3).reduce((s, c) => s + c.mean, 0) / 3).toBeGreaterThan(110);
    expect(errors).toEqual([]);
    await ctx.close();
    expect(await server.app.ctx.db.select().from(cards).where(eq(cards.id, card.id))).toHaveLength(1);
  });
});
