import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, Locator, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { overflow } from '#tests/helpers/overflow';
import { cards } from '#server/db/schema/index';

/**
 * Issue 37, the designer (decision 37-06): the card as its metal makes it beside the colour preview,
 * warnings about the logo before submission, the logo upload with background removal, the Terms line
 * at the checkout, and the live preview sticky on a 360 px phone.
 */
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

/** The customer's walk's logo: blue, on an opaque white box. */
async function blueLogoOnWhite(): Promise<Buffer> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160"><rect width="240" height="160" fill="#ffffff"/><circle cx="120" cy="80" r="60" fill="#1e40af"/><rect x="70" y="70" width="100" height="20" fill="#2563eb"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Pixels of an element's screenshot that are clearly coloured (channels further apart than 40). */
async function colouredPixels(el: Locator): Promise<number> {
  const { data, info } = await sharp(await el.screenshot()).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < info.width * info.height; i++) {
    const r = data[i * 3];
    const g = data[i * 3 + 1];
    const b = data[i * 3 + 2];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 40) n++;
  }
  return n;
}

const findings = (page: Page, testId: string) => page.getByTestId(testId).locator('[data-finding]').evaluateAll((els) => els.map((e) => e.getAttribute('data-finding')));

async function startDesign(page: Page) {
  await page.goto('/design');
  await page.getByRole('heading', { name: 'Design Your Card' }).waitFor();
  await page.getByLabel('Full Name').fill('Ada Lovelace');
  await page.getByLabel('Job Title').fill('Analyst');
  await page.getByLabel('Phone', { exact: true }).fill('+1 212 555 0199');
}

describe('the designer shows the card as its metal makes it (issue 37)', () => {
  it('engraved preview, logo warnings, upload and background removal, knowing confirmation and the Terms line', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await startDesign(page);

    // an "as engraved" preview beside the colour one, for the engraved metal chosen (Standard Metal)
    await poll(() => page.getByTestId('engraved-preview').textContent()).toContain('As engraved on Standard Metal:');
    expect(await page.getByRole('img', { name: /front as engraved$/ }).count()).toBe(1);
    expect(await page.getByTestId('engraved-card').first().evaluate((el) => getComputedStyle(el).filter)).toMatch(/^url\(/);

    // the walk's logo, uploaded in the designer: it shows on the card and the warnings come at once
    await page.getByTestId('design-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await blueLogoOnWhite() });
    await poll(() => page.getByTestId('design-logo').getAttribute('src')).toMatch(/^\/files\//);
    const uploaded = await page.getByTestId('design-logo').getAttribute('src');
    await poll(() => findings(page, 'logo-warnings')).toEqual(['opaque-background', 'colours-on-engraving']);
    expect(await page.getByTestId('logo-warnings').textContent()).toContain('will be engraved as a solid block');
    // the colour preview shows the blue logo; "as engraved" shows it in the metal's one tone
    const colourFront = page.getByRole('img', { name: /front preview$/ }).first();
    const engravedFront = page.getByRole('img', { name: /front as engraved$/ });
    await poll(() => colourFront.evaluate((el) => el.querySelector('image')?.getAttribute('href') ?? '')).toContain(uploaded!);
    await page.waitForTimeout(1000);
    if (process.env.DESIGNER_DEBUG) {
      await colourFront.screenshot({ path: '/tmp/dbg/front.png' });
      await engravedFront.screenshot({ path: '/tmp/dbg/engraved.png' });
      await page.screenshot({ path: '/tmp/dbg/page.png', fullPage: true });
      console.log(await colourFront.evaluate((el) => el.outerHTML.slice(0, 300) + ' ... ' + (el.querySelector('image')?.outerHTML ?? 'no image')));
    }
    await poll(() => colouredPixels(colourFront)).toBeGreaterThan(200);
    expect(await colouredPixels(engravedFront)).toBeLessThan(20);

    // the submit step asks: fix it or send it knowingly
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.getByText('Fix the logo (see Logo above), or tick the box to send it as it is.').waitFor();
    expect(await findings(page, 'logo-warnings-submit')).toEqual(['opaque-background', 'colours-on-engraving']);
    expect(await page.getByRole('heading', { name: 'Checkout' }).count()).toBe(0);

    // fixed from the designer: the background removed by the AI image tools' endpoint replaces the logo
    await page.getByRole('button', { name: 'Remove background' }).click();
    await poll(() => page.getByTestId('design-logo').getAttribute('src')).toMatch(/^\/files\/ai\//);
    const cut = await page.getByTestId('design-logo').getAttribute('src');
    expect(cut).not.toBe(uploaded);
    await poll(() => findings(page, 'logo-warnings')).toEqual(['colours-on-engraving']);
    await poll(() => colourFront.evaluate((el) => el.querySelector('image')?.getAttribute('href') ?? '')).toContain(cut!);

    // the colours stay: confirmed knowingly, then the checkout repeats the warning and carries the Terms line
    await page.getByLabel('I have seen how my logo comes out on this metal: send it as it is.').check();
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor({ timeout: 30_000 });
    expect(await findings(page, 'logo-warnings-checkout')).toEqual(['colours-on-engraving']);
    await page.getByLabel('Delivery', { exact: true }).selectOption('pickup-nyc');
    await page.getByRole('button', { name: 'Review order' }).click();
    const legal = page.getByTestId('checkout-legal');
    expect(await legal.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(await legal.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    await page.getByRole('button', { name: 'Confirm order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/, { timeout: 45_000 });
    const [card] = await server.app.ctx.db.select().from(cards).orderBy(desc(cards.id)).limit(1);
    expect((card.customerProfile as { logoUrl?: string }).logoUrl).toBe(cut);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Color Metal: "As printed", and the white of a logo is said not to print', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx, { firstName: 'Grace', lastName: 'Hopper' });
    const page = await ctx.newPage();
    await startDesign(page);
    await page.getByTestId('card-type-color').click();
    await poll(() => page.getByTestId('engraved-preview').textContent()).toContain('As printed on Color Metal:');
    await page.getByTestId('design-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await blueLogoOnWhite() });
    await poll(() => findings(page, 'logo-warnings')).toEqual(['opaque-background', 'white-on-color-metal']);
    await ctx.close();
  });
});

describe('the live preview on a phone (issue 37)', () => {
  it('at 360 px the preview sits on top, stays in view down to the last field, and nothing is cut or covered', async () => {
    const ctx = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await signUpViaApi(ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await startDesign(page);
    const sticky = page.getByTestId('sticky-preview');
    await sticky.waitFor();
    const headerBottom = await page.locator('header').first().evaluate((el) => el.getBoundingClientRect().bottom);

    // the last field of the form, scrolled to and filled
    const last = page.getByLabel('LinkedIn');
    await last.scrollIntoViewIfNeeded();
    await last.fill('https://www.linkedin.com/in/ada');
    // the field scrolled to is not under the preview (its scroll margin keeps it below)
    const covered = await last.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !(hit === el || el.contains(hit));
    });
    expect(covered).toBe(false);
    await page.evaluate(() => window.scrollBy(0, 120));
    if (process.env.DESIGNER_DEBUG) await page.screenshot({ path: '/tmp/dbg/phone.png' });
    const box = (await sticky.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(headerBottom - 1);
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    // compact: the fields keep most of the screen
    expect(box.height).toBeLessThan(740 * 0.4);
    // both cards (colour and as engraved) whole inside the preview and the screen
    for (const name of [/front preview$/, /front as engraved$/]) {
      const c = (await sticky.getByRole('img', { name }).boundingBox())!;
      expect(c.x).toBeGreaterThanOrEqual(0);
      expect(c.x + c.width).toBeLessThanOrEqual(360);
      expect(c.y).toBeGreaterThanOrEqual(box.y);
      expect(c.y + c.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
      expect(c.width).toBeGreaterThan(120);
    }
    // it is live: the name typed above is on the card in view
    await poll(() => sticky.getByRole('img', { name: /front preview$/ }).evaluate((el) => el.textContent ?? '')).toContain('Ada Lovelace');
    // the other side is one tap away, and the page is no wider than the phone
    await sticky.getByRole('radio', { name: 'back' }).click();
    await sticky.getByRole('img', { name: /back preview$/ }).waitFor();
    expect((await overflow(page)).excess).toBeLessThanOrEqual(0);
    // the submit part sits after the fields, its button whole on the screen once scrolled to
    const submit = page.getByRole('button', { name: 'Continue to checkout' });
    await submit.scrollIntoViewIfNeeded();
    const s = (await submit.boundingBox())!;
    expect(s.x).toBeGreaterThanOrEqual(0);
    expect(s.x + s.width).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
