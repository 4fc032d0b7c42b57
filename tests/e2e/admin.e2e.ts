import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { insertDesignWithOrder, insertOrder, insertProfile, pngDataUrl, renderCardBack } from '#tests/helpers/admin-factories';
import { cards, orders, outbox, reviews, users } from '#server/db/schema/index';

let server: BrowserServer;
let browser: Browser;
let adminCtx: BrowserContext;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  adminCtx = await newContext(browser, server.baseUrl, { acceptDownloads: true });
  const { user } = await signUpViaApi(adminCtx, { firstName: 'Staff', lastName: 'Member' });
  await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
});
afterAll(() => closeBrowserSuite({ server, browser }));

const db = () => server.app.ctx.db;
/** expect.poll with room for a loaded machine (the first paint of a lazy page can take seconds) */
const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) => expect.poll(fn, { timeout: 20_000, ...opts });
const toastText = (page: Page) => toastLocator(page).first().textContent();
async function mailsTo(to: string, kind: string) {
  return db().select().from(outbox).where(and(eq(outbox.toAddress, to), eq(outbox.kind, kind)));
}

describe('admin dashboard in a real browser', () => {
  it('the profile page admin tab shows the spec empty message before any order', async () => {
    const page = await adminCtx.newPage();
    await page.goto('/profile?tab=admin');
    const tab = page.getByTestId('admin-tab');
    await poll(() => tab.textContent()).toContain('No orders found. Orders will appear here once customers start placing orders.');
    expect(await tab.getByTestId('tile-total-revenue').locator('[data-value]').textContent()).toBe('$0.00');
    expect(await tab.getByTestId('tile-completed-orders').locator('[data-value]').textContent()).toBe('0');
    await page.close();
  });

  it('shows real figures, finds an order by part of its e-mail, ships it, notes it and exports the CSV', async () => {
    const target = await insertOrder(server.app, {
      customerName: 'Findable Person',
      email: 'find.me@shipping-test.example',
      companyName: 'Findable, "Quoted" & Co',
      cardType: 'color',
      deliveryOption: 'rush-24h',
      quantity: 250,
      specialRequests: 'Please use the gold foil.',
    });
    await insertOrder(server.app, { status: 'completed', quantity: 100 });
    await insertOrder(server.app, { status: 'cancelled', quantity: 10 });
    const [{ n, revenue }] = (
      // revenue is money received less refunds (issue 35, decision 35-01)
      (await db().execute(
        sql`select (select count(*)::int from orders) as n, coalesce(sum(case when kind = 'refund' then -amount_cents else amount_cents end), 0)::int as revenue from order_payments`,
      )) as any
    ).rows;

    const page = await adminCtx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/admin');
    await poll(() => page.getByTestId('tile-total-orders').locator('[data-value]').textContent()).toBe(String(n));
    const dollars = '$' + (revenue / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(await page.getByTestId('tile-total-revenue').locator('[data-value]').textContent()).toBe(dollars);
    // pending orders' value is shown apart from revenue
    expect(await page.getByTestId('tile-total-revenue').textContent()).toMatch(/\$[\d,]+\.\d{2} pending/);
    // Success Rate: 1 completed of the 2 orders no longer pending
    expect(await page.getByTestId('tile-success-rate').locator('[data-value]').textContent()).toBe('50.0%');

    await page.getByRole('tab', { name: 'Orders' }).click();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill('SHIPPING-test');
    const row = page.getByTestId(`order-row-${target.id}`);
    await poll(() => page.locator('[data-testid^="order-row-"]').count()).toBe(1);
    expect(await row.textContent()).toContain('Findable Person');
    expect(await row.locator('[data-status]').textContent()).toBe('Pending');

    // the dropdown offers only the moves the status machine allows (issue 35): not Shipped from Pending
    const select = row.getByRole('combobox', { name: `Status of order #${target.id}` });
    expect(await select.locator('option').allTextContents()).toEqual(['Pending', 'Processing', 'In production', 'Cancelled']);
    await select.selectOption('processing');
    await poll(() => toastText(page)).toContain(`Order #${target.id} is now Processing`);
    await poll(() => row.locator('[data-status]').getAttribute('data-status')).toBe('processing');
    // not a milestone: no e-mail
    expect(await mailsTo('find.me@shipping-test.example', 'order-status')).toHaveLength(0);

    // the detail panel: everything about the order, notes with history
    await row.getByRole('button', { name: `View order #${target.id}` }).click();
    const detail = page.getByTestId('order-detail');
    await poll(() => detail.getByText('Please use the gold foil.').isVisible()).toBe(true);
    expect(await detail.textContent()).toContain('Color Metal');
    expect(await detail.textContent()).toContain('$1,280.00');
    await detail.getByLabel('Internal notes').fill('Customer asked for delivery before Friday.');
    await detail.getByRole('button', { name: 'Save Notes' }).click();
    await poll(() => toastText(page)).toContain('Notes saved');
    await poll(() => detail.getByRole('list', { name: 'Notes history' }).textContent()).toContain('Staff Member');
    expect(await detail.getByRole('list', { name: 'Status history' }).textContent()).toContain('Pending → Processing');
    const [saved] = await db().select().from(orders).where(eq(orders.id, target.id));
    expect(saved.internalNotes).toBe('Customer asked for delivery before Friday.');

    // issue 35: the payment state and the Record payment form (invoice mode: no store configured)
    const payment = detail.getByTestId('order-payment');
    expect(await payment.locator('[data-payment-status]').getAttribute('data-payment-status')).toBe('unpaid');
    expect(await payment.textContent()).toContain('Invoice mode');
    await payment.getByLabel('Amount (USD)', { exact: true }).fill('0');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await poll(() => payment.getByText('Amount must be more than zero').isVisible()).toBe(true);
    await payment.getByLabel('Amount (USD)', { exact: true }).fill('1,280.00');
    await payment.getByLabel('Reference', { exact: true }).fill('INV-2001');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await poll(() => toastText(page)).toContain('Payment recorded');
    await poll(() => payment.locator('[data-payment-status]').getAttribute('data-payment-status')).toBe('paid');
    expect(await payment.getByRole('list', { name: 'Payments and refunds' }).textContent()).toContain('INV-2001');
    await page.keyboard.press('Escape');

    // Export: a CSV of what is shown (the search is applied)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parse(fs.readFileSync((await download.path())!, 'utf8'), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(csv).toHaveLength(1);
    expect(csv[0]).toMatchObject({ 'Order ID': String(target.id), Customer: 'Findable Person', Company: 'Findable, "Quoted" & Co', Status: 'processing', 'Total (USD)': '1280.00' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the profile page admin tab: four tiles, search, the detail dialog and card download', async () => {
    const order = await insertOrder(server.app, { customerName: 'Tab Person', email: 'tab.person@admin-tab.example', status: 'completed', quantity: 50 });
    const page = await adminCtx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/profile?tab=admin');
    const tab = page.getByTestId('admin-tab');
    const [{ completed }] = ((await db().execute(sql`select count(*) filter (where status = 'completed')::int as completed from orders`)) as any).rows;
    await poll(() => tab.getByTestId('tile-completed-orders').locator('[data-value]').textContent()).toBe(String(completed));
    expect(await tab.getByTestId('tile-total-revenue').locator('[data-value]').textContent()).toMatch(/^\$[\d,]+\.\d{2}$/);
    await tab.getByRole('searchbox', { name: 'Search orders' }).fill('ADMIN-TAB.example');
    await poll(() => tab.locator('[data-testid^="tab-order-"]').count()).toBe(1);
    await tab.getByRole('button', { name: `View order #${order.id}` }).click();
    const dialog = page.getByTestId('order-detail');
    await poll(() => dialog.textContent()).toContain('tab.person@admin-tab.example');
    expect(await dialog.getAttribute('class')).toContain('max-w-2xl');
    await page.keyboard.press('Escape');
    const [download] = await Promise.all([page.waitForEvent('download'), tab.getByRole('button', { name: `Download card for order #${order.id}` }).click()]);
    expect(download.suggestedFilename()).toBe(`business-card-Tab-Person-${order.id}.jpg`);
    await poll(() => toastText(page)).toContain('Card downloaded.');
    expect(await tab.getByTestId('system-status').textContent()).toContain('System health');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('downloads the card of an order with the spec file name', async () => {
    const order = await insertOrder(server.app, { customerName: 'Card Download', email: 'card.dl@example.com', templateId: 17 });
    const page = await adminCtx.newPage();
    await page.goto('/admin?tab=orders');
    await page.getByRole('searchbox', { name: 'Search orders' }).fill('card.dl@');
    await page.getByRole('button', { name: `View order #${order.id}` }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-detail').getByRole('button', { name: 'Download card' }).click()]);
    expect(download.suggestedFilename()).toBe(`business-card-Card-Download-${order.id}.jpg`);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff'); // a JPEG
    await poll(() => toastText(page)).toContain('Card downloaded.');
    await page.close();
  });

  it('approves a pending design after the scan check passes; the customer is e-mailed', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { user } = await signUpViaApi(ctx);
    const profile = await insertProfile(server.app, user.id, { fullName: 'Design Owner', jobTitle: 'Architect' });
    const back = await renderCardBack(`${server.baseUrl}/p/${profile.id}`);
    const { design } = await insertDesignWithOrder(server.app, {
      userId: user.id,
      profileId: profile.id,
      backImageUrl: pngDataUrl(back),
      frontImageUrl: pngDataUrl(back),
      customerProfile: { fullName: 'Design Owner', email: 'owner@design.example', jobTitle: 'Architect' },
      order: { email: 'owner@design.example', customerName: 'Design Owner' },
    });

    const page = await adminCtx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/admin?tab=card-reviews');
    const card = page.getByTestId(`design-${design.id}`);
    await poll(() => card.getByTestId('scan-check').getAttribute('data-status'), { timeout: 20_000 }).toBe('pass');
    expect(await card.textContent()).toContain('Architect');
    expect(await card.getByRole('link', { name: 'QR link' }).getAttribute('href')).toBe(`${server.baseUrl}/p/${profile.id}`);
    await card.getByRole('button', { name: 'Approve' }).click();
    await poll(() => toastText(page)).toContain('Design approved');
    await poll(() => page.getByTestId('no-pending').textContent()).toBe('No pending reviews.All business card designs have been reviewed.');
    const [row] = await db().select().from(cards).where(eq(cards.id, design.id));
    expect(row.status).toBe('approved');
    expect(await mailsTo('owner@design.example', 'design-approved')).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
    await ctx.close();
  });

  it('a failed action shows a destructive toast with the reason', async () => {
    const { design } = await insertDesignWithOrder(server.app, { order: { email: 'race@design.example' } });
    const page = await adminCtx.newPage();
    await page.goto('/admin?tab=card-reviews');
    const card = page.getByTestId(`design-${design.id}`);
    await card.getByRole('button', { name: 'Reject' }).click();
    // another admin approves it meanwhile
    // (this design has no code URL, so its print check fails: approving needs an override reason, issue 22)
    const other = await adminCtx.request.put(`/api/admin/business-cards/${design.id}/review`, { data: { status: 'approved', reviewNotes: '', overrideReason: 'Race test' } });
    expect(other.status()).toBe(200);
    await page.getByLabel('Reason (optional)').fill('Too late');
    await page.getByRole('button', { name: 'Reject design' }).click();
    const t = toastLocator(page).first();
    await poll(() => t.getAttribute('data-type')).toBe('error');
    expect(await t.textContent()).toMatch(/Review failed.*already been reviewed/);
    await page.close();
  });

  it('verifies a customer review', async () => {
    const [review] = await db()
      .insert(reviews)
      .values({ customerName: 'Happy Buyer', email: 'happy@example.com', rating: 5, title: 'Superb cards', comment: 'Heavy, crisp, perfect.' })
      .returning();
    const page = await adminCtx.newPage();
    await page.goto('/admin?tab=reviews');
    const item = page.getByTestId(`review-${review.id}`);
    expect(await item.textContent()).toContain('Superb cards');
    await item.getByRole('button', { name: 'Verify' }).click();
    await poll(() => toastText(page)).toContain('Review verified');
    const [after] = await db().select().from(reviews).where(eq(reviews.id, review.id));
    expect(after.verified).toBe(true);
    await page.close();
  });

  it('shows customers with mail and call links, the testing summary and the outbox', async () => {
    await insertOrder(server.app, { customerName: 'Callable Customer', email: 'callable@example.com', phone: '+1 (917) 555-0100' });
    const page = await adminCtx.newPage();
    await page.goto('/admin?tab=customers');
    await page.getByRole('searchbox', { name: 'Search customers' }).fill('callable');
    await poll(() => page.getByTestId('customer').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Email Callable Customer' }).getAttribute('href')).toBe('mailto:callable@example.com');
    expect(await page.getByRole('link', { name: 'Call Callable Customer' }).getAttribute('href')).toBe('tel:+19175550100');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await poll(() => page.locator('[data-check="database"]').getAttribute('data-status')).toBe('pass');
    expect(await page.locator('[data-check="storage"]').getAttribute('data-status')).toBe('pass');
    expect(await page.locator('[data-check="email"]').getAttribute('data-status')).toBe('off');
    expect(await page.getByTestId('system-status').textContent()).toContain('last updated Unknown');
    await page.getByRole('button', { name: 'Run link check' }).click();
    await poll(() => toastText(page), { timeout: 30_000 }).toContain('Link check finished');
    await poll(() => page.getByTestId('system-status').textContent()).not.toContain('last updated Unknown');
    expect(await page.getByRole('link', { name: /Store setup/ }).getAttribute('target')).toBe('_blank');
    expect(await page.getByRole('link', { name: /Store setup/ }).getAttribute('href')).toBe('/shopify-admin');
    expect(await page.getByRole('link', { name: /User dashboard/ }).getAttribute('href')).toBe('/dashboard');

    // the e-mails the earlier walks sent (milestones only: the proof-ready e-mail of the approved design)
    // the outbox is a tab of its own (issue 37)
    await page.getByRole('tab', { name: 'Outbox' }).click();
    const first = page.getByRole('button', { name: /^Read the e-mail to / }).first();
    await first.waitFor();
    const to = /[\w.+-]+@[\w.-]+\.\w+/.exec((await first.getAttribute('aria-label')) ?? '')?.[0];
    expect(to, 'an e-mail in the outbox list').toBeTruthy();
    await first.click();
    await poll(() => page.getByRole('dialog').textContent()).toContain(`To ${to}`);
    expect(await page.getByTitle('E-mail as the customer sees it').getAttribute('sandbox')).toBe('');
    await page.close();
  });

  it('polls the stats every 60 s, pending reviews every 60 s and the testing summary every 300 s', async () => {
    const page = await adminCtx.newPage();
    await page.clock.install();
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    const count = (p: string) => calls.filter((c) => c === p).length;
    // TanStack Query restarts a query's interval when its answer arrives: move the clock only after
    // the answer is on screen
    const shown = (selector: string) => page.locator(selector).first().waitFor();
    await page.goto('/admin');
    await page.clock.resume();
    await poll(() => count('/api/admin/stats')).toBe(1);
    await shown('[data-testid="tile-total-orders"] [data-value]');
    await page.clock.fastForward(61_000);
    await poll(() => count('/api/admin/stats')).toBe(2);

    await page.getByRole('tab', { name: 'Card Reviews' }).click();
    await poll(() => count('/api/admin/business-cards/pending')).toBe(1);
    await shown('[data-testid^="design-"], [data-testid="no-pending"]');
    await page.clock.fastForward(61_000);
    await poll(() => count('/api/admin/business-cards/pending')).toBe(2);

    await page.getByRole('tab', { name: 'Settings' }).click();
    await poll(() => count('/api/admin/testing-summary')).toBe(1);
    await shown('[data-check="database"]');
    await page.clock.fastForward(120_000);
    await page.clock.fastForward(120_000);
    expect(count('/api/admin/testing-summary')).toBe(1);
    await page.clock.fastForward(61_000);
    await poll(() => count('/api/admin/testing-summary')).toBe(2);
    await page.close();
  });

  it('refuses a normal user and a visitor, on the page and at the API', async () => {
    const userCtx = await newContext(browser, server.baseUrl);
    await signUpViaApi(userCtx);
    const page = await userCtx.newPage();
    await page.goto('/admin');
    await poll(() => page.getByTestId('admin-refused').textContent()).toContain('Admins only');
    expect((await userCtx.request.get('/api/admin/stats')).status()).toBe(403);
    expect((await userCtx.request.get('/api/admin/orders.csv')).status()).toBe(403);

    const visitor = await newContext(browser, server.baseUrl);
    const vpage = await visitor.newPage();
    await vpage.goto('/admin');
    await poll(() => vpage.getByTestId('admin-refused').textContent()).toContain('Authentication Required');
    expect(await vpage.getByTestId('admin-refused').getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    expect((await visitor.request.get('/api/admin/stats')).status()).toBe(401);
    expect((await visitor.request.patch('/api/admin/orders/1', { data: { status: 'shipped' } })).status()).toBe(401);
    await userCtx.close();
    await visitor.close();
  });
});
