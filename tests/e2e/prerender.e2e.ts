// The home page is prerendered at build time (scripts/build-web.mjs) and hydrated in the browser
// (src/web/main.tsx, boot.tsx). These tests fail if the HTML stops carrying the page, if hydration
// finds a mismatch (React then throws the HTML away and paints again), or if the hydrated page does
// not behave like the client-rendered one: signed-in state, stored theme, navigation, absolute QR URLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MOBILE, newContext, signUpViaApi, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { BUSINESS } from '#shared/catalogue';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

/** Console errors and uncaught errors of a page, but the expected 401 of a signed-out visitor's /api/auth/user. */
function trackProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/status of 401/.test(m.text()) && /\/api\/auth\/user/.test(m.location().url ?? '')) return;
    problems.push(`console: ${m.text()}`);
  });
  return problems;
}

/** Hydrated: the primary call to action is a real link once React has taken over and the session is known. */
async function waitHydrated(page: Page) {
  await page.locator('main [data-testid="primary-cta"]').first().waitFor();
}

describe('prerendered home page', () => {
  it('sends the whole page in the HTML for "/", and the empty shell for other pages', async () => {
    const home = await fetch(`${server.baseUrl}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('<div id="root" data-prerendered="/">');
    expect(html).toMatch(new RegExp(`<h1 id="hero-heading"[^>]*>${BUSINESS.name}</h1>`));
    expect(html).toContain('id="how-it-works"');
    expect(html).toMatch(/<link rel="preload" as="font" type="font\/woff2" crossorigin href="\/assets\/inter-latin-wght-normal-[\w-]+\.woff2">/);
    // no inline script: the CSP forbids them, so the HTML must be complete without one
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const faq = await fetch(`${server.baseUrl}/faq`);
    const shell = await faq.text();
    expect(shell).toContain('<div id="root"></div>');
    // every other page's shell preloads the application chunk beside the entry
    expect(shell).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/boot-[\w-]+\.js">/);
    // the prerendered file itself is not served as a static asset
    expect((await fetch(`${server.baseUrl}/prerender/home.html`)).status).toBe(404);
  });

  it('is readable with JavaScript off', async () => {
    const context = await newContext(browser, server.baseUrl, { ...MOBILE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: BUSINESS.name }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'How It Works' }).count()).toBe(1);
    await context.close();
  });

  it('hydrates without a mismatch for a signed-out visitor, then navigates client-side', async () => {
    const context = await newContext(browser, server.baseUrl, MOBILE);
    const page = await context.newPage();
    const problems = trackProblems(page);
    await page.goto('/');
    await waitHydrated(page);
    expect(await page.locator('main [data-testid="primary-cta"]').first().textContent()).toContain('Order Metal Cards');
    // absolute QR URLs appear once the origin is known (the build cannot know it)
    await expect.poll(() => page.getByTestId('create-profile-qr').locator('img').getAttribute('data-qr-value')).toBe(`${server.baseUrl}/login`);
    // the page is React's now: a marker set on the DOM survives a client-side navigation
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(/FAQ|Frequently Asked Questions/i);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('hydrates a signed-in visitor and shows their links and call to action', async () => {
    const context = await newContext(browser, server.baseUrl);
    await signUpViaApi(context);
    const page = await context.newPage();
    const problems = trackProblems(page);
    await page.goto('/');
    await waitHydrated(page);
    await expect.poll(() => page.locator('main [data-testid="primary-cta"]').first().textContent()).toContain('Go to profile');
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the stored theme, not the prerendered default, and the switcher still works', async () => {
    const context = await newContext(browser, server.baseUrl);
    await context.addInitScript(() => localStorage.setItem('ui-theme', 'light'));
    const page = await context.newPage();
    const problems = trackProblems(page);
    await page.goto('/');
    await waitHydrated(page);
    expect(await page.evaluate(() => document.documentElement.className)).toContain('light');
    const header = page.locator('header');
    await expect.poll(() => header.getByRole('radio', { name: 'Light theme' }).getAttribute('aria-checked')).toBe('true');
    expect(await header.getByRole('radio', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('false');
    await header.getByRole('radio', { name: 'Dark theme' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('dark');
    expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('dark');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a tap on the menu button before the JavaScript arrives opens the menu once it has', async () => {
    const context = await newContext(browser, server.baseUrl, MOBILE);
    const page = await context.newPage();
    const problems = trackProblems(page);
    // hold the application chunk back until the tap has happened
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/boot-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await page.getByRole('navigation', { name: 'Mobile' }).count()).toBe(0);
    release();
    await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the hero still while the page hydrates (no layout shift on a phone)', async () => {
    const context = await newContext(browser, server.baseUrl, MOBILE);
    await context.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.__cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    await page.goto('/');
    await waitHydrated(page);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThan(0.02);
    await context.close();
  });
});
