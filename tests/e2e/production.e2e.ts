import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { orders, outbox, users } from '#server/db/schema/index';
import { shippingAddressInput } from '#tests/helpers/orders';

let server: BrowserServer;
let browser: Browser;
let staff: BrowserContext;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-production-e2e-'));

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  staff = await newContext(browser, server.baseUrl, { acceptDownloads: true });
  const { user } = await signUpViaApi(staff, { firstName: 'Floor', lastName: 'Staff' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
});
afterAll(async () => {
  await closeBrowserSuite({ server, browser });
  fs.rmSync(tmp, { recursive: true, force: true });
});

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });

describe('the shop floor in a real browser', () => {
  it('approve, download the day\'s ZIP, mark shipped with a tracking number; the customer sees the timeline and gets the e-mail', async () => {
    // a customer designs a card and orders it (the real design flow: a card with its QR code)
    const buyer = await newContext(browser, server.baseUrl);
    const { input } = await signUpViaApi(buyer, { firstName: 'Grace', lastName: 'Floor' });
    const email = input.email;
    expect((await buyer.request.post('/api/profile', { data: { fullName: 'Grace Floor', jobTitle: 'Engineer', email, profileTemplate: 'modern', links: [] } })).status()).toBe(201);
    const submitted = await buyer.request.post('/api/cards/submit-for-review', {
      data: { templateId: 17, cardType: 'color', customerProfile: { fullName: 'Grace Floor', jobTitle: 'Engineer', companyName: 'Floor Co', email, phoneNumber: '+1 212 555 0100' }, shippingAddress: shippingAddressInput() },
    });
    expect(submitted.status(), await submitted.text()).toBe(201);
    const { orderId, cardId } = (await submitted.json()) as { orderId: number; cardId: number };
    const order = { id: orderId };
    await buyer.close();
    // staff approve the design after its print check (the review API; the check gates "Approve")
    const check = await staff.request.get(`/api/admin/cards/${cardId}/print-check`);
    const approved = await staff.request.put(`/api/admin/business-cards/${cardId}/review`, { data: { status: 'approved', reviewNotes: '' } });
    expect(approved.status(), `print check: ${await check.text()}`).toBe(200);
    // production needs the customer's proof approval, an address and payment (issue 35, decision 35-04)
    const [{ token: statusToken, total }] = await server.app.ctx.db.select({ token: orders.statusToken, total: orders.totalCents }).from(orders).where(eq(orders.id, order.id));
    expect((await staff.request.post(`/api/order-status/${statusToken}/proof`, { data: { decision: 'approve' } })).status()).toBe(200);
    const shippingAddress = { name: 'Grace Floor', line1: '1 Broadway', city: 'New York', state: 'NY', postalCode: '10004', country: 'US' };
    expect((await staff.request.patch(`/api/order-status/${statusToken}/address`, { data: { shippingAddress } })).status()).toBe(200);
    expect((await staff.request.post(`/api/admin/orders/${order.id}/payments`, { data: { amountCents: total, method: 'bank_transfer', reference: 'INV-77' } })).status()).toBe(201);

    const page = await staff.newPage();
    const errors = trackPageErrors(page);
    // moves that e-mail the customer ask first
    page.on('dialog', (d) => void d.accept());
    await page.goto('/admin?tab=production');
    const item = page.locator(`[data-testid="production-order"][data-order-id="${order.id}"]`);
    await poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain('Grace Floor');
    expect(await item.textContent()).toContain('Color Metal');
    expect(await item.textContent()).toMatch(/Due \w{3}, \w{3} \d+/);

    // the day's ZIP: select the order, download
    await item.getByRole('checkbox', { name: `Select order #${order.id}` }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download ZIP' }).click()]);
    const zip = path.join(tmp, 'day.zip');
    await download.saveAs(zip);
    const names = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    expect(names).toContain(`order-${order.id}/job-ticket-order-${order.id}.pdf`);
    expect(names).toContain(`order-${order.id}/nfc-order-${order.id}.csv`);
    expect(names.filter((n) => /\.pdf$/.test(n) && !n.includes('job-ticket'))).toHaveLength(1);
    execFileSync('unzip', ['-o', '-q', zip, `order-${order.id}/job-ticket-order-${order.id}.pdf`, '-d', tmp]);
    expect(execFileSync('pdfinfo', [path.join(tmp, `order-${order.id}/job-ticket-order-${order.id}.pdf`)]).toString()).toMatch(/Pages:\s+1\b/);

    // the floor's steps, then Shipped with a tracking number (a wrong one is refused first)
    await item.getByRole('button', { name: 'In production' }).click();
    await poll(() => item.locator('[data-status]').getAttribute('data-status')).toBe('in-production');
    await item.getByRole('button', { name: 'Quality check' }).click();
    await poll(() => item.locator('[data-status]').getAttribute('data-status')).toBe('quality-check');
    await item.getByRole('button', { name: 'Shipped...' }).click();
    await item.getByLabel('Carrier').selectOption('ups');
    await item.getByLabel('Tracking number').fill('1Z999AA10123456785');
    await item.getByRole('button', { name: 'Mark shipped' }).click();
    await poll(() => item.getByRole('alert').textContent()).toContain('does not check out');
    await item.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await item.getByRole('button', { name: 'Mark shipped' }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('UPS 1Z999AA10123456784');
    await poll(() => item.locator('[data-status]').getAttribute('data-status')).toBe('shipped');
    expect(await item.getByRole('link', { name: '1Z999AA10123456784' }).getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');

    // the e-mail went through the outbox
    const mails = await server.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), eq(outbox.kind, 'order-status')));
    const shippedMail = mails.find((m) => m.subject.includes('shipped'));
    expect(shippedMail?.textBody).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784');

    // the customer's status page: the timeline with the tracking link
    const [{ token }] = await server.app.ctx.db.select({ token: orders.statusToken }).from(orders).where(eq(orders.id, order.id));
    const customer = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
    const status = await customer.newPage();
    await status.goto(`/order-status/${token}`);
    await poll(() => status.getByTestId('order-status').textContent()).toBe('Shipped');
    const steps = status.getByTestId('timeline-step');
    expect(await steps.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Shipped'), expect.stringContaining('Quality check'), expect.stringContaining('In production'), expect.stringContaining('Design approved')]),
    );
    expect(await status.getByTestId('timeline-detail').first().textContent()).toBe('UPS 1Z999AA10123456784');
    expect(await status.getByTestId('order-fulfilment').getByRole('link').getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(await status.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await customer.close();
    // the job ticket's QR code opens the order in /admin
    await page.goto(`/admin?tab=production&order=${order.id}`);
    await poll(() => page.getByRole('dialog').getByRole('heading', { name: `Order #${order.id}` }).count()).toBe(1);
    // the order's detail shows how it left: the carrier's tracking link
    const tracking = page.getByRole('dialog').getByTestId('order-tracking');
    await poll(() => tracking.textContent()).toBe('UPS 1Z999AA10123456784');
    expect(await tracking.getByRole('link').getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the Production tab fits a 360 px phone with an order on it', async () => {
    const phone = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
    const { user } = await signUpViaApi(phone, { firstName: 'Phone', lastName: 'Staff' });
    await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    const page = await phone.newPage();
    await page.goto('/admin?tab=production');
    await poll(() => page.locator('[data-testid="production-order"]').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Shipped...' }).first().click();
    await page.getByRole('checkbox', { name: 'Add a sheet layout' }).click();
    await poll(() => page.getByLabel('Gap (mm)').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
