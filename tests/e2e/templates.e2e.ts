import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { cards, orders, templates, users } from '#server/db/schema/index';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';
import sharp from 'sharp';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

async function signedIn(opts: { admin?: boolean } = {}) {
  const ctx = await newContext(browser, server.baseUrl);
  const { input, user } = await signUpViaApi(ctx);
  if (opts.admin) await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  return { ctx, input, user };
}

const toastText = async (page: Page) => (await toastLocator(page).allTextContents()).join(' | ');

/** The text drawn in an inline card preview (wrapped lines joined). */
async function previewText(page: Page, label: RegExp) {
  return page.getByRole('img', { name: label }).first().evaluate((el) => Array.from(el.querySelectorAll('text')).map((t) => t.textContent).join(' '));
}

async function fillDesign(page: Page, v: Partial<Record<'Full Name' | 'Job Title' | 'Email' | 'Phone' | 'Company' | 'Address', string>>) {
  for (const [label, value] of Object.entries(v)) await page.getByLabel(label, { exact: true }).fill(value);
}

describe('template gallery', () => {
  it('shows the four templates with real thumbnails, the back on hover, each on its metal by name, and Sign In to Use when signed out', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/templates');
    await expect.poll(() => page.locator('[data-testid^="template-card-"]').count()).toBe(4);
    for (const id of [15, 16, 17, 18]) {
      const card = page.getByTestId(`template-card-${id}`);
      await expect.poll(() => card.getByRole('link', { name: 'Sign In to Use' }).getAttribute('href')).toBe('/login');
    }
    // thumbnails are real images that loaded
    const front = page.getByTestId('template-thumbnail-17').locator('img').first();
    await expect.poll(() => front.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(700);
    // hover shows the back, leaving shows the front again
    const thumb = page.getByTestId('template-thumbnail-17');
    await thumb.hover();
    await expect.poll(() => thumb.getAttribute('data-side')).toBe('back');
    await page.mouse.move(0, 0);
    await expect.poll(() => thumb.getAttribute('data-side')).toBe('front');
    // issue 37: every template on the metal it is made in (black steel, bright engraving), as the
    // page's text says: never inverted to a white card, and the rendered card itself is dark
    for (const id of [15, 16, 17, 18]) {
      const img = page.getByTestId(`template-thumbnail-${id}`).locator('img').first();
      expect(await img.evaluate((el) => getComputedStyle(el).filter), `template ${id}`).toBe('none');
      const jpeg = await page.request.get((await img.getAttribute('src'))!);
      const { channels } = await sharp(await jpeg.body()).stats();
      expect(channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3, `template ${id} is a dark card`).toBeLessThan(80);
    }
    expect(await page.getByText('black steel, bright engraving').count()).toBe(1);
    // names, never internal ids
    expect(await page.locator('main').innerText()).not.toMatch(/#\s?\d+/);
    for (const name of ['Minimal', 'Classic', 'Simple', 'Modern']) await page.getByRole('heading', { name, exact: true }).waitFor();
    // the category filter: All plus each category
    const filter = page.getByRole('group', { name: 'Filter by category' });
    expect(await filter.getByRole('button').allTextContents()).toEqual(['All', 'Business Card']);
    await filter.getByRole('button', { name: 'Business Card' }).click();
    await expect.poll(() => page.locator('[data-testid^="template-card-"]').count()).toBe(4);
    // the bottom call to action leads to sign-in
    await expect.poll(() => page.getByRole('link', { name: /Get Started/ }).getAttribute('href')).toBe('/login');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('shows the fallback panel with the template name when an image fails', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await ctx.route('**/api/template-thumbnail/16/**', (route) => route.abort());
    const page = await ctx.newPage();
    await page.goto('/templates');
    const fallback = page.getByTestId('template-thumbnail-16').getByTestId('thumbnail-fallback');
    await expect.poll(() => fallback.textContent()).toBe('Classic');
    await ctx.close();
  });

  it('shows the page-level message and fallback templates when the list fails', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await ctx.route('**/api/templates', (route) => route.fulfill({ status: 500, body: '{"message":"down"}', contentType: 'application/json' }));
    const page = await ctx.newPage();
    await page.goto('/templates');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Failed to load templates from database. Showing fallback templates.');
    await expect.poll(() => toastText(page)).toContain('Failed to fetch templates');
    await expect.poll(() => page.locator('[data-testid^="template-card-"]').count()).toBe(4);
    await ctx.close();
  });
});

describe('design flow', () => {
  it('/design signed out shows Authentication Required with Sign In', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/design');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Authentication Required');
    expect(await page.getByRole('main').getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    await ctx.close();
  });

  it('a signed-in user picks a template in the gallery, designs with a live preview, submits and lands on the success page', async () => {
    const { ctx, user } = await signedIn();
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/templates');
    await page.getByTestId('template-card-16').getByRole('link', { name: 'Use This Template' }).click();
    await page.waitForURL('**/design?templateId=16');
    await expect.poll(() => page.getByTestId('pick-template-16').getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByTestId('preview-style').textContent()).toContain('Classic');
    await expect.poll(() => page.getByTestId('card-type-standard').getAttribute('aria-checked')).toBe('true');

    // the preview follows the typing
    await fillDesign(page, { 'Full Name': 'Margaret Hamilton', 'Job Title': 'Director of Software Engineering', Company: 'MIT Instrumentation Lab' });
    await expect.poll(() => previewText(page, /front preview/)).toContain('Margaret Hamilton');
    await expect.poll(() => previewText(page, /front preview/)).toContain('MIT Instrumentation Lab');

    // the spec's validation toasts
    await page.getByLabel('Email', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await expect.poll(() => toastText(page)).toContain('Please fill in all required fields (Name, Email, Phone).');
    await fillDesign(page, { Email: 'margaret@example', Phone: '+1 617 555 0199' });
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await expect.poll(() => toastText(page)).toContain('Please enter a valid email address.');

    await fillDesign(page, { Email: 'margaret@example.com', Address: '75 Cambridge Parkway, Cambridge, MA' });
    await page.getByTestId('card-type-luxury_titanium').click();
    await expect.poll(() => previewText(page, /back preview/)).toContain('margaret@example.com');
    // a new order only through the checkout's summary and confirm (issue 35; pickup: no address)
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Delivery', { exact: true }).selectOption('pickup-nyc');
    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByTestId('checkout-summary').waitFor();
    await page.getByRole('button', { name: 'Confirm order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/);
    await expect.poll(() => toastText(page)).toContain('Card Submitted Successfully!');
    const orderId = Number(new URL(page.url()).searchParams.get('orderId'));
    await expect.poll(() => page.getByTestId('order-id').textContent()).toContain(`#${orderId}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Card Submitted Successfully!');

    const [order] = await server.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect([order.userId, order.cardType, order.templateId, order.source, order.quantity]).toEqual([user.id, 'luxury_titanium', 16, 'design', 100]);
    const [card] = await server.app.ctx.db.select().from(cards).where(eq(cards.id, order.cardId!));
    expect((card.customerProfile as any).fullName).toBe('Margaret Hamilton');
    expect(card.backImageUrl).toMatch(/^\/files\/cards\//);
    // the design saved the profile, so the card's QR opens it
    expect(card.qrCodeUrl).toMatch(new RegExp(`^${server.baseUrl}/p/[a-z0-9]+$`));
    // the stored images are served
    const img = await ctx.request.get(card.frontImageUrl!);
    expect(img.status()).toBe(200);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('/create-card and /card-generator lead to the one designer, /design, with their query (issue 35)', async () => {
    const { ctx } = await signedIn();
    const page = await ctx.newPage();
    await page.goto('/create-card?templateId=18');
    await page.waitForURL('**/design?templateId=18');
    await expect.poll(() => page.getByTestId('pick-template-18').getAttribute('aria-checked')).toBe('true');
    await page.goto('/card-generator');
    await page.waitForURL('**/design');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Design Your Card');
    await ctx.close();
  });
});

describe('SVG template manager', () => {
  it('signed out: Authentication Required; signed in without the admin role: not allowed', async () => {
    const anon = await newContext(browser, server.baseUrl);
    const p1 = await anon.newPage();
    await p1.goto('/svg-templates');
    await expect.poll(() => p1.getByRole('heading', { level: 1 }).textContent()).toBe('Authentication Required');
    await anon.close();
    const { ctx } = await signedIn();
    const p2 = await ctx.newPage();
    await p2.goto('/svg-templates');
    await expect.poll(() => p2.getByRole('heading', { level: 1 }).textContent()).toBe('Administrators only');
    await ctx.close();
  });

  it('an admin replaces a back; the gallery, the designer and generated cards show the new design', async () => {
    const { ctx } = await signedIn({ admin: true });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/svg-templates');
    const modern = page.getByTestId('svg-template-modern');
    await expect.poll(() => modern.getByTestId('svg-preview-modern-back').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // a non-SVG file is refused in the browser
    await modern.getByTestId('file-modern-back').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not an svg') });
    await expect.poll(() => toastText(page)).toContain('Invalid file: Please upload an SVG.');

    const newBack =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1050 600" width="1050" height="600"><rect width="1050" height="600" fill="#000"/>' +
      '<text x="80" y="140" font-family="Inter" font-size="44" fill="#fff">FRESH BACK</text>' +
      '<text data-field="email" x="80" y="220" font-family="Inter" font-size="28" fill="#fff">email</text>' +
      // a replacement must keep every field the live back shows (issue 20)
      ['fullName', 'jobTitle', 'phoneNumber', 'website', 'linkedinUrl', 'address', 'profileUrl', 'companyName']
        .map((f, i) => `<text data-field="${f}" x="80" y="${260 + i * 36}" font-family="Inter" font-size="20" fill="#fff">${f}</text>`)
        .join('') +
      '<g data-slot="qr" data-x="720" data-y="180" data-size="240"></g></svg>';
    await modern.getByTestId('file-modern-back').setInputFiles({ name: 'back.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(newBack) });
    await expect.poll(() => toastText(page)).toContain('Ready to save back.svg');
    await modern.getByTestId('svg-checked-modern-back').waitFor({ timeout: 20_000 });
    await modern.getByLabel('Notes (optional)').fill('New back for spring');
    await modern.getByRole('button', { name: 'Save to Server' }).click();
    await expect.poll(() => toastText(page)).toContain('SVG files written to public/templates');
    const [row] = await server.app.ctx.db.select().from(templates).where(eq(templates.id, 18));
    expect(row.backSvg).toContain('FRESH BACK');
    expect(row.notes).toBe('New back for spring');
    await expect.poll(() => modern.getByTestId('svg-preview-modern-back').getAttribute('src')).toBe(`/api/template-thumbnail/18/back?v=${row.version}`);

    // the gallery's back thumbnail of 18 is the new version
    await page.goto('/templates');
    const backImg = page.getByTestId('template-thumbnail-18').locator('img').nth(1);
    await expect.poll(() => backImg.getAttribute('src')).toBe(`/api/template-thumbnail/18/back?v=${row.version}`);
    // the designer shows it
    await page.goto('/design?templateId=18');
    await expect.poll(() => previewText(page, /back preview/)).toContain('FRESH BACK');
    // and generated cards use it
    const gen = await ctx.request.post('/api/generate-card', { data: { templateId: 18, format: 'svg' } });
    expect(Buffer.from((await gen.json()).back.data, 'base64').toString()).toContain('FRESH BACK');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a template whose file is missing shows Missing SVG file(s)', async () => {
    const [before] = await server.app.ctx.db.select().from(templates).where(eq(templates.id, 16));
    await server.app.ctx.db.update(templates).set({ backSvg: null, version: before.version + 1 }).where(eq(templates.id, 16));
    try {
      const { ctx } = await signedIn({ admin: true });
      const page = await ctx.newPage();
      await page.goto('/svg-templates');
      const classic = page.getByTestId('svg-template-classic');
      await expect.poll(() => classic.getByRole('alert').textContent()).toBe('Missing SVG file(s)');
      expect(await page.getByTestId('svg-template-simple').getByRole('alert').count()).toBe(0);
      await ctx.close();
    } finally {
      await server.app.ctx.db.update(templates).set({ backSvg: before.backSvg, version: before.version + 2 }).where(eq(templates.id, 16));
    }
  });

  it('a script-laden SVG is stored clean: opening the served file runs nothing', async () => {
    const { ctx } = await signedIn({ admin: true });
    const page = await ctx.newPage();
    await page.goto('/svg-templates');
    const minimal = page.getByTestId('svg-template-minimal');
    const dirty =
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1050 600" onload="document.title=\'pwned-onload\'">' +
      '<script>document.title = "pwned-script"; alert(1)</script>' +
      '<rect width="1050" height="600" fill="#000"/>' +
      '<foreignObject width="500" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="document.title=\'pwned-img\'"/></div></foreignObject>' +
      '<a href="javascript:document.title=\'pwned-link\'"><text id="clickme" x="80" y="300" font-size="60" fill="#fff">CLICK ME</text></a>' +
      '<animate attributeName="onmouseover" to="alert(2)"/>' +
      '<image href="https://evil.example/track.png" width="1" height="1"/></svg>';
    // under it, the live front's fields, which a replacement must keep (issue 20)
    const fields = BUILTIN_TEMPLATES.find((x) => x.folder === 'minimal')!.front.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
    const file = dirty.replace(/^(<svg[^>]*>)/, `$1${fields}`);
    await minimal.getByTestId('file-minimal-front').setInputFiles({ name: 'front.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(file) });
    await minimal.getByTestId('svg-checked-minimal-front').waitFor({ timeout: 20_000 });
    await minimal.getByRole('button', { name: 'Save to Server' }).click();
    await expect.poll(() => toastText(page)).toContain('SVG files written to public/templates');

    const viewer = await ctx.newPage();
    const dialogs: string[] = [];
    viewer.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const outside: string[] = [];
    await ctx.route('https://evil.example/**', (route) => {
      outside.push(route.request().url());
      return route.abort();
    });
    const res = await viewer.goto('/templates/svg/minimal/front.svg');
    expect(res?.headers()['content-security-policy']).toContain('sandbox');
    await viewer.locator('#clickme').click();
    await viewer.mouse.move(10, 10);
    const title = await viewer.evaluate(() => document.title);
    expect(title).not.toMatch(/pwned/);
    expect(dialogs).toEqual([]);
    expect(outside).toEqual([]);
    const markup = await viewer.evaluate(() => document.documentElement.outerHTML);
    expect(markup).not.toMatch(/script|onload|onerror|foreignObject|javascript:|evil\.example/i);
    expect(markup).toContain('CLICK ME');
    await ctx.close();
  });
});

describe('order success page', () => {
  it('shows the four next steps, the order id from the query and the two buttons', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/order-success?orderId=4821');
    await expect.poll(() => page.getByTestId('order-id').textContent()).toContain('#4821');
    expect(await page.getByRole('main').getByRole('listitem').count()).toBe(4);
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('link', { name: 'Browse Templates' }).getAttribute('href')).toBe('/templates');
    await page.goto('/order-success');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Card Submitted Successfully!');
    expect(await page.getByTestId('order-id').count()).toBe(0);
    await ctx.close();
  });
});

