import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, type BrowserServer } from '#tests/helpers/browser';
import { insertDesignWithOrder, insertOrder, insertProfile } from '#tests/helpers/admin-factories';
import { users } from '#server/db/schema/index';
import { expectFits, overflow, walkTabs } from '#tests/helpers/overflow';
import { menuSettled } from '#tests/helpers/phone-walk';

/**
 * Issue 20: no page overflows horizontally on a phone (`scrollWidth <= innerWidth`; a failure names
 * the widest elements). Every route at 360 px as a visitor, a signed-in customer and staff, with
 * the tabs of the pages with tabs, is checked inside the accessibility walk (tests/e2e/a11y-visitor.e2e.ts, a11y-signed-in.e2e.ts),
 * which loads every page at 360 px anyway. Here, with phone emulation (touch, mobile viewport) at
 * 360 and 390 px: the measure itself, the open mobile menu, the staff orders table and the AI
 * assistant after a palette. Every route and tab at 390 px: the phone walk (issue 37).
 */

let server: BrowserServer;
let browser: Browser;
const WIDTHS = [360, 390] as const;
type Who = 'visitor' | 'customer' | 'staff';
const contexts: Partial<Record<`${Who}-${number}`, BrowserContext>> = {};

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  const phone = (width: number) => ({ viewport: { width, height: 780 }, isMobile: true, hasTouch: true });
  const customerEmail = `walk-${Date.now()}@example.com`;
  for (const width of WIDTHS) {
    contexts[`visitor-${width}`] = await newContext(browser, server.baseUrl, phone(width));
    const customer = await newContext(browser, server.baseUrl, phone(width));
    const { user } = await signUpViaApi(customer, width === WIDTHS[0] ? { email: customerEmail } : {});
    if (width === WIDTHS[0]) await insertProfile(server.app, user.id, { fullName: 'Walker Through-Every-Page', email: customerEmail, jobTitle: 'Head of Very Long Job Titles' });
    contexts[`customer-${width}`] = customer;
    const staff = await newContext(browser, server.baseUrl, phone(width));
    const { user: staffUser } = await signUpViaApi(staff, { firstName: 'Staff', lastName: 'Member' });
    await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, staffUser.id));
    // staff also own a team, so /team shows every tab (issue 21)
    await staff.request.post('/api/team', { data: { name: 'The Extraordinarily Long Team Name Incorporated', companyName: 'The Extraordinarily Long Company Name Incorporated' } });
    contexts[`staff-${width}`] = staff;
  }
  // data so staff tables and the order page have rows with long values
  await insertOrder(server.app, {
    customerName: 'Alexandria Montgomery-Featherstonehaugh',
    email: 'alexandria.montgomery-featherstonehaugh@a-very-long-company-domain.example',
    companyName: 'The Extraordinarily Long Company Name Incorporated',
    specialRequests: 'Please engrave the logo exactly as supplied, centred, with generous margins all round.',
  });
  await insertDesignWithOrder(server.app, {});
});
afterAll(async () => {
  for (const c of Object.values(contexts)) await c?.close();
  await closeBrowserSuite({ server, browser });
});

/** Waits for the page's own content (a lazy route shows a spinner first). */
async function settle(page: Page) {
  await page.locator('main h1, main h2, h1').first().waitFor({ timeout: 15_000 }).catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('[role="status"][aria-label="Loading"], .animate-pulse'), undefined, { timeout: 5_000 }).catch(() => undefined);
  await page.waitForTimeout(100);
}

describe('no page overflows a phone screen (360 and 390 px)', () => {
  it('the measure sees a page that is too wide', async () => {
    const page = await contexts['visitor-360']!.newPage();
    await page.goto('/about');
    await settle(page);
    expect((await overflow(page)).excess).toBeLessThanOrEqual(0);
    await page.evaluate(() => {
      const wide = document.createElement('div');
      wide.style.width = '600px';
      wide.style.height = '10px';
      document.querySelector('main')!.appendChild(wide);
    });
    expect((await overflow(page)).excess).toBeGreaterThan(0);
    await page.close();
  });

  // every route at 360 px as a visitor, a customer and staff, with each tab of the pages with tabs,
  // is checked by the accessibility walk (tests/e2e/a11y-*.e2e.ts), which loads every page anyway
  it('the mobile menu open fits, at 360 and 390 px, for a visitor, a customer and staff', async () => {
    const problems: string[] = [];
    for (const who of ['visitor', 'customer', 'staff'] as const) {
      for (const width of WIDTHS) {
        const page = await contexts[`${who}-${width}`]!.newPage();
        await page.goto('/');
        await settle(page);
        await expectFits(page, `${who} ${width}px /`, problems);
        const menu = page.getByRole('button', { name: /menu/i }).first();
        expect(await menu.isVisible(), `${who} ${width}px: the menu button`).toBe(true);
        await menu.click();
        await menuSettled(page);
        await expectFits(page, `${who} ${width}px / with the menu open`, problems);
        await page.close();
      }
    }
    expect(problems).toEqual([]);
  });

  // every route and tab at 360 and 390 px as a visitor, a customer, a team owner and staff: the
  // phone walk (tests/e2e/phone-walk-*.e2e.ts, issue 37), which checks the page's width too
  it('staff orders table: on a phone each order is a stacked block, Status and Actions on screen', async () => {
    for (const width of WIDTHS) {
      const page = await contexts[`staff-${width}`]!.newPage();
      await page.goto('/admin');
      await settle(page);
      await page.getByRole('tab', { name: 'Orders' }).click();
      const row = page.locator('[data-testid^="order-row-"]').first();
      await row.waitFor();
      const inView = async (label: string) => {
        const box = await row.locator(`td[data-label="${label}"]`).boundingBox();
        return !!box && box.x >= 0 && box.x + box.width <= width + 0.5;
      };
      expect(await inView('Status')).toBe(true);
      expect(await inView('Actions')).toBe(true);
      expect(await row.getByRole('button', { name: /View order/ }).isVisible()).toBe(true);
      // the label is shown beside each value
      expect(await row.locator('td[data-label="Status"]').evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Status"');
      await page.close();
    }
  });

  it('/ai-assistant after generating a palette (signed in)', { timeout: 120_000 }, async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const page = await contexts[`customer-${width}`]!.newPage();
      await page.goto('/ai-assistant');
      await settle(page);
      await page.getByRole('tab', { name: 'Color Palette' }).click();
      await page.getByLabel('Mood').selectOption('Elegant');
      await page.locator('#p-industry').selectOption('Finance');
      await page.getByRole('button', { name: 'Generate Palette' }).click();
      await page.getByTestId('palette-result').waitFor({ timeout: 20_000 });
      await page.waitForTimeout(200);
      await expectFits(page, `customer ${width}px /ai-assistant after a palette`, problems);
      await walkTabs(page, `customer ${width}px /ai-assistant`, problems, settle);
      await page.close();
    }
    expect(problems).toEqual([]);
  });
});
