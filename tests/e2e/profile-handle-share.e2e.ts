import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { MOBILE, newContext, signUpViaApi, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { overflow } from '#tests/helpers/overflow';

/** Issue 37 item 1 (decision 37-04): the handle /@{handle}, Share on the public page and the address as a map link, at 360 px. */

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const PHONE = { ...MOBILE, viewport: { width: 360, height: 740 } };

describe('handle, Share and map link', () => {
  it('the owner picks a handle; /@handle serves the page, with Share (Web Share, else Copy link) and the address on a map; it reads with JavaScript off', async () => {
    const ctx = await newContext(browser, server.baseUrl, PHONE);
    await signUpViaApi(ctx);
    const created = await ctx.request.post('/api/profile', { data: { fullName: 'Rosa Metal', address: '350 5th Ave, New York, NY' } });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    const handle = `rosa-${Date.now().toString(36)}`;

    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/profile?tab=share');
    // a reserved name is refused beside the field before any request
    await page.getByLabel('Your short address').fill('admin');
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => page.getByText('This handle is reserved. Please choose another').isVisible()).toBe(true);
    await page.getByLabel('Your short address').fill(`@${handle.toUpperCase()}`);
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => page.getByRole('link', { name: `${server.baseUrl}/@${handle}` }).isVisible()).toBe(true);
    // the permanent link (QR codes, printed cards) is unchanged
    expect(await page.getByLabel('Your public profile link').inputValue()).toBe(`${server.baseUrl}/p/${id}`);
    expect((await overflow(page)).widest).toEqual([]);

    // Web Share where the browser has it
    const shared = await ctx.newPage();
    await shared.addInitScript(() => {
      (window as any).__shared = [];
      Object.defineProperty(navigator, 'share', { configurable: true, value: async (data: unknown) => void (window as any).__shared.push(data) });
    });
    await shared.goto(`/@${handle}`);
    await expect.poll(() => shared.getByRole('heading', { name: 'Rosa Metal' }).isVisible()).toBe(true);
    await shared.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => shared.evaluate(() => (window as any).__shared)).toEqual([{ title: 'Rosa Metal', url: `${server.baseUrl}/@${handle}` }]);
    const map = shared.getByRole('link', { name: /open in a map/ });
    expect(await map.getAttribute('href')).toBe('https://www.openstreetmap.org/search?query=350%205th%20Ave%2C%20New%20York%2C%20NY');
    expect(await overflow(shared)).toMatchObject({ excess: 0 });

    // Copy link where it has not
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const copied = await ctx.newPage();
    await copied.addInitScript(() => Object.defineProperty(navigator, 'share', { configurable: true, value: undefined }));
    await copied.goto(`/@${handle}`);
    await copied.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => copied.getByRole('button', { name: 'Link copied' }).isVisible()).toBe(true);
    expect(await copied.evaluate(() => navigator.clipboard.readText())).toBe(`${server.baseUrl}/@${handle}`);
    expect(errors).toEqual([]);
    await ctx.close();

    // JavaScript off: no button, the address to copy is there, and the contact can be saved
    const noJs = await newContext(browser, server.baseUrl, { ...PHONE, javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto(`/@${handle}`);
    expect(await plain.getByRole('button', { name: /Share|Copy link/ }).count()).toBe(0);
    expect(await plain.getByRole('link', { name: `${server.baseUrl.replace(/^https?:\/\//, '')}/@${handle}` }).isVisible()).toBe(true);
    expect(await plain.getByRole('link', { name: 'Save Contact' }).isVisible()).toBe(true);
    await noJs.close();
  });

  it('the editor warns when the logo on the chosen style\'s header would be hard to see (canvas tone, WCAG 3:1)', async () => {
    const ctx = await newContext(browser, server.baseUrl, PHONE);
    await signUpViaApi(ctx);
    const png = await sharp({ create: { width: 200, height: 80, channels: 4, background: '#1f2937' } }).png().toBuffer();
    const up = await ctx.request.post('/api/upload/logo', { multipart: { logoImage: { name: 'logo.png', mimeType: 'image/png', buffer: png } } });
    expect(up.status()).toBe(201);
    const logoUrl = (await up.json()).url as string;
    expect((await ctx.request.put('/api/profile', { data: { fullName: 'Dark Logo', logoUrl, profileTemplate: 'corporate' } })).status()).toBe(200);
    const page = await ctx.newPage();
    await page.goto('/profile?tab=media');
    const warning = page.getByTestId('logo-contrast-warning');
    await expect.poll(() => warning.isVisible()).toBe(true);
    expect(await warning.textContent()).toContain('Your company logo is hard to see on the Corporate header');
    await page.goto('/profile');
    await expect.poll(() => warning.isVisible()).toBe(true);
    await page.getByText('Minimal', { exact: true }).click();
    await expect.poll(() => warning.count()).toBe(0);
    await ctx.close();
  });

  it('drags a link by its handle with a pointer (desktop mouse) and saves the new order', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx);
    const links = ['one', 'two', 'three'].map((n) => ({ linkType: 'website', url: `https://${n}.example.com` }));
    expect((await ctx.request.post('/api/profile', { data: { fullName: 'Drag Person', links } })).status()).toBe(201);
    const page = await ctx.newPage();
    await page.goto('/profile');
    const handle = page.getByRole('button', { name: 'Drag link 3 to reorder' });
    const first = page.getByTestId('link-row').first();
    // the three rows in view (mouse positions are the viewport's)
    await first.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
    const from = (await handle.boundingBox())!;
    const to = (await first.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => page.getByLabel('Link 1 URL').inputValue()).toBe('https://three.example.com');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expect
      .poll(async () => (await (await ctx.request.get('/api/profile')).json()).links.map((l: any) => l.url.replace(/^https:\/\/|\.example\.com$/g, '')).join(','))
      .toBe('three,one,two');
    await ctx.close();
  });
});
