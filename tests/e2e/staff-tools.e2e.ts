import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { insertDesignWithOrder } from '#tests/helpers/admin-factories';
import { orderInput } from '#tests/helpers/orders';
import { overflow } from '#tests/helpers/overflow';
import { users } from '#server/db/schema/index';

/**
 * Issue 37 item 4, staff tools on a 360 px phone: the outbox tab searched by address (stacked
 * blocks that fit the screen), the first admin's to-do of orders placed before any admin existed,
 * and the review card's order (number, metal, finish, quantity).
 */
let server: BrowserServer;
let browser: Browser;
let staff: BrowserContext;
let earlyOrderId: number;

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  // an order placed while the shop has no admin account at all
  const res = await server.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ email: 'early.bird@first-order.example', customerName: 'Early Bird' }), remoteAddress: '10.9.0.1' });
  expect(res.statusCode, res.body).toBe(201);
  earlyOrderId = res.json().orderId;
  staff = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  const { user } = await signUpViaApi(staff, { firstName: 'First', lastName: 'Admin' });
  await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  // a later order, after staff existed
  const later = await server.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ email: 'someone.else@later.example' }), remoteAddress: '10.9.0.2' });
  expect(later.statusCode, later.body).toBe(201);
}, 120_000);
afterAll(() => closeBrowserSuite({ server, browser }));

async function fits(page: Page) {
  const o = await overflow(page);
  expect(o.excess, o.widest.join(' | ')).toBeLessThanOrEqual(0);
}

describe('staff tools at 360 px', () => {
  it('the first admin sees the orders placed before any admin existed and marks them seen', async () => {
    const page = await staff.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/admin');
    const todo = page.getByTestId('staff-todo');
    await poll(() => todo.textContent()).toContain('1 order arrived before any staff account existed');
    const item = todo.getByTestId(`todo-order-${earlyOrderId}`);
    expect(await item.textContent()).toContain('Early Bird');
    await fits(page);
    await item.getByRole('button', { name: `Mark order #${earlyOrderId} seen` }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('Marked as seen');
    await poll(() => todo.count()).toBe(0);
    // it stays gone after a reload
    await page.reload();
    await page.getByRole('tab', { name: 'Overview' }).waitFor();
    await page.getByTestId('tile-total-orders').waitFor();
    expect(await page.getByTestId('staff-todo').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the outbox tab finds e-mails by address and fits the phone as stacked blocks', async () => {
    const page = await staff.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Outbox' }).click();
    const rows = page.locator('[data-testid^="outbox-row-"]');
    await poll(() => rows.count()).toBeGreaterThan(1);
    await page.getByRole('searchbox', { name: 'Search e-mails' }).fill('FIRST-ORDER.example');
    await poll(async () => (await rows.allTextContents()).every((t) => t.includes('early.bird@first-order.example')) && (await rows.count()) > 0).toBe(true);
    const row = rows.first();
    expect(await row.textContent()).toContain(`#${earlyOrderId}`);
    // a stacked block: its cells one under the other, inside the screen
    const box = await row.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    const [to, subject] = await Promise.all([row.locator('td[data-label="To"]').boundingBox(), row.locator('td[data-label="Subject"]').boundingBox()]);
    expect(subject!.y).toBeGreaterThanOrEqual(to!.y + to!.height - 1);
    await fits(page);

    // by order number and status too; the e-mail opens with the one-time link as a label
    await page.getByRole('searchbox', { name: 'Search e-mails' }).fill('');
    await page.getByRole('textbox', { name: 'Order number' }).fill(`#${earlyOrderId}`);
    await page.getByRole('combobox', { name: 'E-mail status' }).selectOption('pending');
    await poll(async () => (await rows.allTextContents()).every((t) => t.includes(`#${earlyOrderId}`) && t.includes('Waiting'))).toBe(true);
    await page.getByRole('button', { name: /^Read the e-mail to early\.bird@first-order\.example: Order #\d+ received/ }).click();
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.textContent()).toContain('[order claim link]');
    expect(await dialog.textContent()).not.toMatch(/\/claim\/[A-Za-z0-9_-]{8,}/);
    await page.keyboard.press('Escape');

    // a bad order number: the server's message
    await page.getByRole('textbox', { name: 'Order number' }).fill('abc');
    await poll(() => page.getByRole('alert').filter({ hasText: 'order number' }).count()).toBeGreaterThan(0);
    await fits(page);
    expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
    await page.close();
  });

  it('a review card shows the order number, metal, finish and quantity', async () => {
    const { order, design } = await insertDesignWithOrder(server.app, { order: { cardType: 'black_anodized', cardStyle: 'Brushed', quantity: 75, customerName: 'Review Me' } });
    const page = await staff.newPage();
    await page.goto('/admin?tab=card-reviews');
    const facts = page.getByTestId(`design-order-${design.id}`);
    await poll(() => facts.textContent()).toBe(`Order #${order.id} · 75 × Black Anodized · Brushed finish`);
    await fits(page);
    await page.close();
  });
});
