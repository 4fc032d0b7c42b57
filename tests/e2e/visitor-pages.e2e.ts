import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { decodeQrSvg } from '#tests/helpers/qr-decode';
import { users } from '#server/db/schema/index';
import { BUSINESS, CARD_TYPES, formatUsd } from '#shared/catalogue';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

/**
 * Decodes a QR <img> with an independent reader (resvg + jsQR): its src is an SVG data: URL or,
 * on the home page (kept free of the QR encoder's JavaScript), the server's GET /api/qrcode.
 */
async function decodeQrImg(page: Page, selector: string): Promise<string | null> {
  const img = page.locator(selector);
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  const src = (await img.getAttribute('src'))!;
  if (src.startsWith('data:')) {
    expect(src).toMatch(/^data:image\/svg\+xml/);
    return decodeQrSvg(decodeURIComponent(src.slice(src.indexOf(',') + 1)));
  }
  expect(src).toMatch(/^\/api\/qrcode\?/);
  const res = await page.request.get(src);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  return decodeQrSvg(await res.text());
}

/** True when the element's top sits near the top of the viewport (scrolled to, below the sticky header). */
async function scrolledTo(page: Page, id: string) {
  return page.evaluate((elId) => {
    const top = document.getElementById(elId)!.getBoundingClientRect().top;
    return top >= -2 && top < 160;
  }, id);
}

async function admin(): Promise<BrowserContext> {
  const ctx = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(ctx);
  await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  return ctx;
}

describe('home page', () => {
  it('signed out: hero, sections, templates from the database, real QR codes, scrolling links', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: BUSINESS.name }).waitFor();
    expect(await page.getByText('Premium Business Cards', { exact: true }).isVisible()).toBe(true);
    expect(await page.title()).toBe('Metal Cards NYC · Premium Business Cards');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/metal business cards/i);

    const primary = page.getByRole('link', { name: 'Order Metal Cards' });
    expect(await primary.getAttribute('href')).toBe('/login');
    expect(await page.getByRole('link', { name: 'Go to profile' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create Your Profile', exact: true }).getAttribute('href')).toBe('/login');

    for (const h of ['How It Works', 'Business Card Templates', 'Complete Solution', 'QR Technology', 'Features']) {
      expect(await page.getByRole('heading', { level: 2, name: h, exact: true }).count(), h).toBe(1);
    }
    expect(await page.locator('#how-it-works ol > li').count()).toBe(3);
    for (const claim of ['Mobile-Responsive', 'Customizable', 'Always Up to Date', 'View Tracking']) {
      expect(await page.locator('#features').getByRole('heading', { name: claim }).count(), claim).toBe(1);
    }

    // the templates are the active ones from the database, in its order
    const api = (await (await ctx.request.get('/api/templates')).json()) as Array<{ id: number; name: string; isActive: boolean }>;
    const active = api.filter((t) => t.isActive);
    expect(active.length).toBeGreaterThan(0);
    await page.getByTestId('home-template').first().waitFor();
    const cards = page.getByTestId('home-template');
    expect(await cards.count()).toBe(active.length);
    for (let i = 0; i < active.length; i++) {
      const text = await cards.nth(i).textContent();
      expect(text).toContain(active[i]!.name);
      // issue 37: names, never internal ids ("Template #15")
      expect(text).not.toContain(`#${active[i]!.id}`);
      expect(await cards.nth(i).getAttribute('href')).toBe('/templates');
    }
    expect(await page.getByRole('link', { name: 'Browse Templates' }).getAttribute('href')).toBe('/templates');
    expect(await page.getByRole('link', { name: 'Order Cards', exact: true }).last().getAttribute('href')).toBe('/order');

    // sample profile card: at most 320 px wide, three links
    const sample = page.locator('figure', { hasText: 'Alex Morgan' });
    expect((await sample.boundingBox())!.width).toBeLessThanOrEqual(320);
    expect(await sample.getByRole('list', { name: 'Sample profile links' }).locator('li').count()).toBe(3);

    // both QR images decode, and the first one leads to /login
    expect(await decodeQrImg(page, '[data-testid="create-profile-qr"] img')).toBe(`${server.baseUrl}/login`);
    expect(await decodeQrImg(page, '[data-testid="example-qr"] img')).toBe(`${server.baseUrl}/`);
    expect(await page.getByText('Example QR code for digital profile').isVisible()).toBe(true);
    expect(await page.getByText('Scan to create your profile').isVisible()).toBe(true);

    // Learn more scrolls to How It Works
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    expect(await scrolledTo(page, 'how-it-works')).toBe(false);
    await page.getByRole('link', { name: 'Learn more' }).click();
    await expect.poll(() => scrolledTo(page, 'how-it-works')).toBe(true);

    // the footer's Features link scrolls to the features section
    expect(await scrolledTo(page, 'features')).toBe(false);
    await page.locator('footer').getByRole('link', { name: 'Features' }).click();
    await expect.poll(() => scrolledTo(page, 'features')).toBe(true);

    await page.getByTestId('create-profile-qr').click();
    await page.waitForURL('**/login');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('signed in: the buttons lead to the profile and templates open the design flow', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx);
    const page = await ctx.newPage();
    await page.goto('/');
    const primary = page.getByRole('link', { name: 'Go to profile' });
    await primary.waitFor();
    expect(await primary.getAttribute('href')).toBe('/profile');
    expect(await page.getByRole('link', { name: 'Order Metal Cards' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Manage Your Digital Profile' }).getAttribute('href')).toBe('/profile');
    expect(await page.getByRole('link', { name: 'Create Your Profile', exact: true }).count()).toBe(0);
    await page.getByTestId('home-template').first().waitFor();
    expect(await page.getByTestId('home-template').first().getAttribute('href')).toMatch(/^\/design\?templateId=\d+$/);
    await primary.click();
    await page.waitForURL('**/profile');
    await ctx.close();
  });
});

describe('FAQ, Help Center and About', () => {
  it('FAQ: twelve questions that open and close by mouse and keyboard', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/faq');
    await page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }).waitFor();
    expect(await page.title()).toBe('Frequently Asked Questions · Metal Cards NYC');
    const triggers = page.locator('main').locator('button[aria-expanded]');
    expect(await triggers.count()).toBe(12);

    const first = triggers.first();
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    const panel = page.locator(`#${await first.getAttribute('aria-controls')}`);
    await expect.poll(() => panel.textContent()).toContain(`${formatUsd(CARD_TYPES[3].priceCents)} per card`);
    for (const c of CARD_TYPES) expect(await panel.textContent()).toContain(c.label);
    await first.click();
    await expect.poll(() => first.getAttribute('aria-expanded')).toBe('false');

    // keyboard: Enter opens, arrow keys move between questions, Space closes
    await first.focus();
    await page.keyboard.press('Enter');
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const second = triggers.nth(1);
    expect(await second.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await second.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Space');
    expect(await second.getAttribute('aria-expanded')).toBe('false');

    // specific facts from the spec are in the answers
    const answers: Record<string, RegExp> = {
      'How long does production take?': /5-7 business days/,
      'What file formats do you accept for logos?': /JPG, PNG or PDF at 300 DPI/,
      'Do you offer discounts for large orders?': /100 cards or more/,
      'What can I put on my profile?': /up to 3 custom links/,
      "What if someone's phone cannot scan the QR code?": /\/p\/your-id/,
      'Where do you ship?': /mainly within the United States/,
    };
    for (const [q, re] of Object.entries(answers)) {
      const t = page.getByRole('button', { name: q });
      await t.click();
      const p = page.locator(`#${await t.getAttribute('aria-controls')}`);
      await expect.poll(() => p.textContent(), { message: q }).toMatch(re);
    }
    expect(await page.getByRole('link', { name: BUSINESS.email }).first().getAttribute('href')).toBe(`mailto:${BUSINESS.email}`);
    expect(await page.getByRole('link', { name: BUSINESS.phone }).getAttribute('href')).toBe(BUSINESS.phoneHref);
    await ctx.close();
  });

  it('Help Center: four topics, contacts, the exact hours and three tips', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/help');
    await page.getByRole('heading', { level: 1, name: 'Help Center' }).waitFor();
    for (const h of ['Orders & Pricing', 'Digital Profiles', 'Design & Files', 'General Support']) {
      expect(await page.getByRole('heading', { level: 2, name: h }).count(), h).toBe(1);
    }
    const hours = (await page.getByTestId('business-hours').innerText()).replace(/\s+/g, ' ');
    expect(hours).toContain('Mon-Fri 9:00-6:00 EST');
    expect(hours).toContain('Sat 10:00-4:00 EST');
    expect(hours).toContain('Sun Closed');
    expect(await page.getByText('Response within 24 hours.').isVisible()).toBe(true);
    expect(await page.locator('a[href^="mailto:"]', { hasText: BUSINESS.email }).count()).toBeGreaterThan(0);
    expect(await page.locator(`a[href="${BUSINESS.phoneHref}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator('section[aria-labelledby="tips-heading"] ol > li').count()).toBe(3);
    await ctx.close();
  });

  it('About: story, mission, four values, a call to action to /login and the e-mail', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/about');
    await page.getByRole('heading', { level: 1 }).waitFor();
    for (const h of ['Our Story', 'Our Mission', 'What We Value']) expect(await page.getByRole('heading', { level: 2, name: h }).count(), h).toBe(1);
    expect(await page.locator('section[aria-labelledby="values-heading"] li').count()).toBe(4);
    expect(await page.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/login');
    expect(await page.locator('main a[href^="mailto:"]').first().getAttribute('href')).toBe(`mailto:${BUSINESS.email}`);
    await ctx.close();
  });

  it('every visitor page fits a 360 px screen and has its own title and description', async () => {
    const ctx = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    // layout shift inside the page content (<main>) as the browser measures it, i.e. when data arrives;
    // the shell's own loading fallback is measured by the shell's tests
    await ctx.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Shift[]) {
          const inMain = (e.sources ?? []).some((src) => !!src.node && !!document.querySelector('main')?.contains(src.node));
          if (!e.hadRecentInput && inMain) w.__cls += e.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await ctx.newPage();
    const titles = new Set<string>();
    for (const path of ['/', '/faq', '/help', '/about', '/reviews']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      expect(cls, `${path} layout shift`).toBeLessThan(0.1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} overflows horizontally`).toBeLessThanOrEqual(0);
      expect(await page.getByRole('heading', { level: 1 }).count(), path).toBe(1);
      titles.add(await page.title());
      expect(await page.locator('meta[name="description"]').getAttribute('content'), path).toBeTruthy();
      // every image has a text alternative
      expect(await page.locator('img:not([alt])').count(), path).toBe(0);
    }
    expect(titles.size).toBe(5);
    await ctx.close();
  });
});

describe('reviews page', () => {
  it('validates the form in the browser with the spec messages', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    let posted = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/reviews')) posted++;
    });
    await page.goto('/reviews');
    await page.getByRole('button', { name: 'Submit Review' }).click();
    for (const m of ['Name must be at least 2 characters', 'Please enter a valid email address', 'Title must be at least 5 characters', 'Review must be at least 10 characters']) {
      await page.getByText(m).waitFor();
    }
    await page.getByLabel('Order Number (optional)').fill('ABC');
    await page.getByRole('button', { name: 'Submit Review' }).click();
    await page.getByText('Order number should look like #123').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBe(0);
    await ctx.close();
  });

  it('shows the failure toast when the server refuses', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.route('**/api/reviews', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }) : route.continue(),
    );
    await page.goto('/reviews');
    await page.getByLabel('Name', { exact: true }).fill('Pat Doe');
    await page.getByLabel('Email', { exact: true }).fill('pat@example.com');
    await page.getByLabel('Review Title').fill('Solid cards');
    await page.getByLabel('Your Review').fill('Great weight and finish.');
    await page.getByRole('button', { name: 'Submit Review' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Submission Failed');
    expect(await toastLocator(page).first().textContent()).toContain('Please try again or contact us directly.');
    // the form keeps what was typed
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Pat Doe');
    await ctx.close();
  });

  it('a review goes from submitted to hidden to verified to visible', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/reviews');
    await page.getByRole('heading', { level: 1, name: 'Customer Reviews' }).waitFor();
    expect(await page.title()).toBe('Customer Reviews · Metal Cards NYC');
    await page.getByText('No reviews yet. Be the first to leave a review!').waitFor();
    expect(await page.getByText('98%').isVisible()).toBe(true);
    expect(await page.getByText('24-48 hour').isVisible()).toBe(true);

    const title = `Stunning brushed cards ${Date.now()}`;
    const comment = '<b>Bold</b> <img src="x" onerror="window.__xss=1"> The cards feel heavy and the QR scans first time.';
    await page.getByLabel('Name', { exact: true }).fill('Zoe Quinn');
    await page.getByLabel('Email', { exact: true }).fill(`zoe_${Date.now()}@example.com`);
    // the stars are a radio group: 5 by default, arrow keys change it
    const five = page.getByRole('radio', { name: '5 stars' });
    expect(await five.isChecked()).toBe(true);
    await five.focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await page.getByLabel('Review Title').fill(title);
    await page.getByLabel('Your Review').fill(comment);
    await page.getByRole('button', { name: 'Submit Review' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Thank you for your review!');
    expect(await toastLocator(page).first().textContent()).toContain('will appear once it has been verified');

    // the form is reset, the rating back to 5, and the review is not published
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Review Title').inputValue()).toBe('');
    expect(await page.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);
    expect(await page.getByText(title).count()).toBe(0);
    expect(await page.getByText('No reviews yet. Be the first to leave a review!').isVisible()).toBe(true);

    const staff = await admin();
    const list = (await (await staff.request.get('/api/admin/reviews?status=pending')).json()) as Array<{ id: number; title: string }>;
    const id = list.find((r) => r.title === title)!.id;
    const patch = (data: object) => staff.request.patch(`/api/admin/reviews/${id}`, { data });

    expect((await patch({ hidden: true })).status()).toBe(200);
    await page.reload();
    await page.getByText('No reviews yet. Be the first to leave a review!').waitFor();

    expect((await patch({ verified: true })).status()).toBe(200);
    await page.reload();
    await page.getByText('No reviews yet. Be the first to leave a review!').waitFor();
    expect(await page.getByText(title).count()).toBe(0);

    expect((await patch({ hidden: false })).status()).toBe(200);
    await page.reload();
    const item = page.getByTestId('review-item').filter({ hasText: title });
    await item.waitFor();
    // verified by staff, not by a purchase: its own badge
    expect(await item.getByText('Approved by staff').isVisible()).toBe(true);
    expect(await item.getByText('Verified purchase').count()).toBe(0);
    expect(await item.getByText('ZO', { exact: true }).isVisible()).toBe(true);
    expect(await item.getByRole('img', { name: 'Rated 4 out of 5' }).count()).toBe(1);
    expect(await item.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // HTML in the comment is shown as text, never run
    expect(await item.textContent()).toContain(comment);
    expect(await item.locator('img, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await expect.poll(() => page.getByTestId('average-rating').textContent()).toBe('4.0');
    expect(await page.getByText('Based on 1 verified review').isVisible()).toBe(true);
    // the reviewer's e-mail is nowhere on the page
    expect(await page.content()).not.toContain('zoe_');
    expect(errors).toEqual([]);
    await staff.close();
    await ctx.close();
  });
});
