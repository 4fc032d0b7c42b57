import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { MOBILE, closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { insertDesignWithOrder } from '#tests/helpers/admin-factories';
import { TEST_SHIPPING_ADDRESS } from '#tests/helpers/order-readiness';
import { orders, outbox, users } from '#server/db/schema/index';

/**
 * Issue 35, deliverables 4 and 5 (decision 35-04), one walk: staff approve the design, the customer
 * (on a phone) sees the proof made from the print file on the order page and approves it, staff (on
 * a desktop) record the payment, move the order to production (confirm dialog), ship it with a
 * carrier and tracking number, and the customer's page shows the shipment.
 */

let server: BrowserServer;
let browser: Browser;
let staff: BrowserContext;

beforeAll(async () => {
  // the print check renders the proof: a busy machine must not make it "too complex"
  ({ server, browser } = await openBrowserSuite({ WORKER_TASK_TIMEOUT_MS: '60000' }));
  staff = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(staff, { firstName: 'Proof', lastName: 'Staff' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

describe('proof and production', () => {
  it('approve the design, the customer approves the proof on a phone, staff take payment, start production and ship', async () => {
    const email = 'proof.walk@example.com';
    const { order, design } = await insertDesignWithOrder(server.app, { order: { email, customerName: 'Grace Proof' } });
    await server.app.ctx.db.update(orders).set({ shippingAddress: TEST_SHIPPING_ADDRESS }).where(eq(orders.id, order.id));
    // staff approve the design (a factory design has no images: the print check is overridden)
    const review = await staff.request.put(`/api/admin/business-cards/${design.id}/review`, { data: { status: 'approved', reviewNotes: '', overrideReason: 'Factory design without images' } });
    expect(review.status(), await review.text()).toBe(200);

    // the customer, on a phone, from the e-mailed link: the proof, then Approve
    const customer = await newContext(browser, server.baseUrl, MOBILE);
    const phone = await customer.newPage();
    const phoneErrors = trackPageErrors(phone);
    await phone.goto(`/order-status/${order.statusToken}`);
    const proof = phone.getByTestId('order-proof');
    await poll(() => proof.getAttribute('data-proof')).toBe('awaiting');
    expect(await phone.getByTestId('order-payment-note').textContent()).toBe('No charge now: we send an invoice once you approve your proof.');
    const back = proof.getByRole('img', { name: 'Proof, back of the card' });
    await back.scrollIntoViewIfNeeded();
    await poll(() => back.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(1000);
    await proof.getByRole('button', { name: 'Approve proof' }).click();
    await poll(() => proof.getAttribute('data-proof')).toBe('approved');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // staff, on a desktop: the order's detail
    const page = await staff.newPage();
    const errors = trackPageErrors(page);
    await page.goto(`/admin?tab=orders&order=${order.id}`);
    const detail = page.getByTestId('order-detail');
    await poll(() => detail.getByTestId('order-proof-state').getAttribute('data-proof')).toBe('approved');
    // production waits for the payment: offered only with an override reason
    expect(await detail.getByTestId('missing-in-production').textContent()).toContain('payment');
    const payment = detail.getByTestId('order-payment');
    await payment.getByLabel('Amount (USD)', { exact: true }).fill((order.totalCents / 100).toFixed(2));
    await payment.getByLabel('Reference', { exact: true }).fill('INV-3501');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await poll(() => payment.locator('[data-payment-status]').getAttribute('data-payment-status')).toBe('paid');
    await poll(() => detail.getByTestId('missing-in-production').count()).toBe(0);

    // a move that e-mails the customer asks first
    await detail.locator('[data-move="in-production"]').click();
    const confirm = page.getByTestId('status-confirm');
    expect(await confirm.textContent()).toContain('Grace Proof gets an e-mail about this step.');
    await confirm.getByRole('button', { name: 'Move and e-mail the customer' }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('is now In production');
    await poll(() => detail.locator('[data-move="shipped"]').count()).toBe(1);

    // shipped: carrier and tracking number in the same dialog (a bad number is refused first)
    await detail.locator('[data-move="shipped"]').click();
    await confirm.getByLabel('Carrier').selectOption('ups');
    await confirm.getByLabel('Tracking number').fill('1Z999AA10123456785');
    await confirm.getByRole('button', { name: 'Move and e-mail the customer' }).click();
    await poll(() => confirm.getByRole('alert').textContent()).toContain('does not check out');
    await confirm.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await confirm.getByRole('button', { name: 'Move and e-mail the customer' }).click();
    await poll(() => detail.getByTestId('order-tracking').textContent()).toBe('UPS 1Z999AA10123456784');
    expect(errors).toEqual([]);
    await page.close();

    // the customer's page shows it; the e-mails were the milestones
    await phone.reload();
    await poll(() => phone.getByTestId('order-status').textContent()).toBe('Shipped');
    expect(await phone.getByTestId('order-fulfilment').getByRole('link').getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(phoneErrors).toEqual([]);
    await customer.close();
    const mails = await server.app.ctx.db.select({ subject: outbox.subject }).from(outbox).where(and(eq(outbox.toAddress, email)));
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([`Your proof is ready (order #${order.id})`, `Your cards are in production (order #${order.id}) - Metal Cards NYC`, `Your cards have shipped (order #${order.id}) - Metal Cards NYC`]),
    );
    expect(mails).toHaveLength(3);
  }, 180_000);
});
