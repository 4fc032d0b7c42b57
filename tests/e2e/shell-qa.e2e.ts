import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, MOBILE, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { eq } from 'drizzle-orm';
import { users } from '#server/db/schema/index';
import { CARD_TYPES, QUANTITY_DEFAULT, formatUsd } from '#shared/catalogue';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '#web/components/ui/tooltip';

/**
 * Review fixes across the shell and the visitor pages: readable colours in both themes,
 * tooltips, the side menu, error states of the design flow, and the first-load JavaScript.
 */

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

async function themed(theme: 'light' | 'dark', opts: Parameters<typeof newContext>[2] = {}): Promise<BrowserContext> {
  const ctx = await newContext(browser, server.baseUrl, { reducedMotion: 'reduce', ...opts });
  await ctx.addInitScript((t) => localStorage.setItem('ui-theme', t), theme);
  return ctx;
}

/**
 * Visible text whose contrast with its (solid) background is below WCAG AA: 4.5:1, or 3:1 for
 * large text. Text on gradients and images is skipped; so is decorative (aria-hidden) text.
 */
function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ctx2d = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): number[] => {
      ctx2d.clearRect(0, 0, 1, 1);
      ctx2d.fillStyle = '#000';
      ctx2d.fillStyle = css;
      ctx2d.fillRect(0, 0, 1, 1);
      const d = ctx2d.getImageData(0, 0, 1, 1).data;
      return [d[0]!, d[1]!, d[2]!, d[3]! / 255];
    };
    const over = (top: number[], bottom: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + bottom[i]! * (1 - top[3]!)).concat(1);
    const lum = (c: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    const background = (el: Element | null): number[] | null => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        const c = rgba(cs.backgroundColor);
        if (c[3]! > 0) layers.push(c);
        if (c[3]! >= 1) break;
        if (cs.backgroundImage !== 'none' && layers.length === 0) return null;
      }
      let bg = document.documentElement.classList.contains('dark') ? [0, 0, 0, 1] : [255, 255, 255, 1];
      for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i]!, bg);
      return bg;
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent!.trim();
      const el = walker.currentNode.parentElement!;
      if (!text || el.closest('[aria-hidden="true"], .sr-only, svg, [aria-disabled="true"], :disabled')) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden') continue;
      const bg = background(el);
      if (!bg) continue;
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      const fgRaw = rgba(cs.color);
      const fg = over([fgRaw[0]!, fgRaw[1]!, fgRaw[2]!, fgRaw[3]! * opacity], bg);
      const [a, b] = [lum(fg), lum(bg)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
      if (ratio < (large ? 3 : 4.5)) out.push(`${ratio.toFixed(2)}:1 "${text.slice(0, 40)}" (${cs.color})`);
    }
    return out;
  });
}

describe('readable in both themes', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: every text of the shell and the visitor pages meets AA contrast`, async () => {
      const ctx = await themed(theme, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
      const page = await ctx.newPage();
      for (const p of ['/', '/templates', '/login', '/signup', '/faq', '/help', '/about', '/reviews', '/order-success?orderId=42', '/card-generator', '/design', '/no-such-page']) {
        await page.goto(p);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        expect(await lowContrast(page), `${theme} ${p}`).toEqual([]);
      }
      // a field error (red text) on a card
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByRole('alert').first().waitFor();
      // the error toast slides in (its background fades in): judge it once it has arrived; a real
      // contrast fault stays and still fails
      await expect.poll(() => lowContrast(page), { message: `${theme} /login error`, timeout: 5_000 }).toEqual([]);
      await ctx.close();
      // twelve pages in one test: room for a loaded machine
    }, 40_000);
  }

  it('/svg-templates (admin): readable in the light theme with an unsaved file, and fits 360 px', async () => {
    const ctx = await themed('light', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const { user } = await signUpViaApi(ctx);
    await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    const page = await ctx.newPage();
    await page.goto('/svg-templates');
    await page.getByTestId('svg-template-simple').waitFor();
    // a file that lacks the template's fields: the check's message must be readable too
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1050 600"><rect width="1050" height="600" fill="#000"/><text x="60" y="300" fill="#fff">{{fullName}}</text></svg>';
    await page.getByTestId('file-simple-back').setInputFiles({ name: 'new-back.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await page.getByText('unsaved: new-back.svg').waitFor();
    await page.getByTestId('svg-error-simple-back').waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    expect(await lowContrast(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await ctx.close();
  });

  it('a destructive notification is readable: its description is as light as its title', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const ctx = await themed(theme);
      const page = await ctx.newPage();
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      const t = toastLocator(page).first();
      await expect.poll(() => t.textContent()).toContain('Please enter your email and password.');
      expect(await t.getAttribute('data-type')).toBe('error');
      const colors = await t.evaluate((el) => ({
        title: getComputedStyle(el.querySelector('[data-title]')!).color,
        description: getComputedStyle(el.querySelector('[data-description]')!).color,
      }));
      expect(colors.description, theme).toBe(colors.title);
      expect(await lowContrast(page), theme).toEqual([]);
      await ctx.close();
    }
  });
});

describe('shell behaviour', () => {
  it('tooltips open after 700 ms, and at once when moving to the next within 300 ms', async () => {
    expect([TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS]).toEqual([700, 300]);
    const ctx = await themed('dark');
    const page = await ctx.newPage();
    await page.goto('/about');
    const light = page.getByRole('radio', { name: 'Light theme' });
    const dark = page.getByRole('radio', { name: 'Dark theme' });
    await light.waitFor();
    // time from entering the button to the tooltip appearing, measured inside the page
    const timeToTooltip = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const t0 = performance.now();
            const check = () => (document.querySelector('[role="tooltip"]') ? resolve(performance.now() - t0) : requestAnimationFrame(check));
            check();
          }),
      );
    await light.hover();
    const first = await timeToTooltip();
    expect(first).toBeGreaterThan(TOOLTIP_DELAY_MS - 150);
    expect(await page.getByRole('tooltip').textContent()).toBe('Light theme');
    expect(await light.getAttribute('aria-describedby')).toBe(await page.getByRole('tooltip').getAttribute('id'));
    await dark.hover();
    const next = await timeToTooltip();
    expect(next).toBeLessThan(TOOLTIP_DELAY_MS / 2);
    expect(await page.getByRole('tooltip').textContent()).toBe('Dark theme');
    // inside the screen at the right edge
    const box = (await page.getByRole('tooltip').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    await ctx.close();
  });

  it('side menu: slides in, closes on Escape and gives focus back to its button', async () => {
    const ctx = await newContext(browser, server.baseUrl, MOBILE);
    const page = await ctx.newPage();
    await page.goto('/help');
    // by CSS: while the menu is open, the rest of the page is hidden from assistive technology
    const open = page.locator('header button[aria-label="Open menu"]');
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await dialog.waitFor();
    expect(await open.getAttribute('aria-expanded')).toBe('true');
    expect(await dialog.evaluate((el) => getComputedStyle(el).animationName)).toBe('sheet-in');
    expect(await dialog.getByRole('link', { name: 'Help' }).getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => open.evaluate((el) => el === document.activeElement)).toBe(true);
    // opens again (the menu stays loaded)
    await open.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close menu' }).click();
    await dialog.waitFor({ state: 'detached' });
    await ctx.close();
  });
});

describe('design flow states', () => {
  async function signedIn() {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx);
    return ctx;
  }
  const failTemplates = (page: Page) => page.route('**/api/svg-templates', (r) => r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }));

  it('/design: a failed template list shows the message with Try again, which recovers', async () => {
    const ctx = await signedIn();
    const page = await ctx.newPage();
    await failTemplates(page);
    await page.goto('/design');
    const alert = page.getByTestId('templates-error');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Failed to fetch templates');
    await page.unroute('**/api/svg-templates');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('pick-template-17').waitFor();
    expect(await page.getByTestId('pick-template-17').getAttribute('aria-checked')).toBe('true');
    // the price line uses the catalogue's default quantity
    const lux = CARD_TYPES.find((c) => c.id === 'luxury_titanium')!;
    await page.getByTestId('card-type-luxury_titanium').click();
    expect(await page.getByTestId('design-quote').textContent()).toBe(`${QUANTITY_DEFAULT} cards: ${formatUsd(lux.priceCents * QUANTITY_DEFAULT)}`);
    await ctx.close();
  });

  it('/reviews: a failed rating summary says so instead of "No ratings yet"', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.route('**/api/reviews/summary', (r) => r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }));
    await page.goto('/reviews');
    await page.getByText('Rating unavailable right now').waitFor();
    expect(await page.getByText('No ratings yet').count()).toBe(0);
    await ctx.close();
  });
});

describe('first-load JavaScript (built client)', () => {
  const dir = path.resolve(__dirname, '../../dist/web');
  type Chunk = { file: string; imports?: string[]; isEntry?: boolean };
  const manifest = () => JSON.parse(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  /** The chunks a route loads: the entry's static imports plus the route chunk's. */
  function routeChunks(route: string): string[] {
    const m = manifest();
    const seen = new Set<string>();
    const walk = (k: string) => {
      if (seen.has(k)) return;
      seen.add(k);
      for (const i of m[k]!.imports ?? []) walk(i);
    };
    walk(Object.keys(m).find((k) => m[k]!.isEntry)!);
    walk(`routes/${route}.tsx`);
    return [...seen].map((k) => m[k]!.file);
  }
  const code = (files: string[]) => files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
  const gzipKb = (files: string[]) => files.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dir, f))).length, 0) / 1024;

  it('the home page loads well under 200 KB of gzipped JavaScript, without zod, the QR encoder or dialogs', () => {
    const files = routeChunks('home');
    expect(gzipKb(files)).toBeLessThan(165);
    const js = code(files);
    expect(js).not.toContain('ZodError');
    expect(js).not.toContain('Kanji'); // the qrcode encoder
    expect(js).not.toContain('DialogContent');
    expect(js).not.toContain('PopperContent'); // floating-ui tooltips
  });

  it('pages that only need a message or a limit do not load zod', () => {
    for (const route of ['auth', 'design', 'create-card', 'card-generator', 'svg-templates', 'templates', 'order-success', 'faq', 'help', 'about', 'not-found']) {
      expect(code(routeChunks(route)), route).not.toContain('ZodError');
    }
  });
});
