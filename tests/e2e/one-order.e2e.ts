import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { cards, orders, outbox, users } from '#server/db/schema/index';
import { INVOICE_NOTE, TAX_NOTE } from '#shared/orders/checkout-terms';

/**
 * Issue 35, deliverable 1: an order is one thing from first click to delivery. On a phone (360 px)
 * a visitor orders 250 Black Anodized, claims the order from the e-mail (giving the delivery
 * address the order lacks), designs the card of that very order and My Orders shows one order with
 * its design in review. On a desktop a customer designs a new card, reaches the checkout's summary
 * (total, tax note, invoice wording) and confirms; then repeats the approved design with Reorder.
 */
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
const db = () => server.app.ctx.db;

/** A shared CI machine: room for a loaded server (each step still has to happen). */
function slowMachine(page: Page) {
  page.setDefaultNavigationTimeout(45_000);
  page.setDefaultTimeout(30_000);
}

async function fillAddress(page: Page) {
  await page.getByLabel('Recipient name').fill('Ada Lovelace');
  await page.getByLabel('Street address').fill('12 Analytical Row');
  await page.getByLabel('City').fill('Brooklyn');
  await page.getByLabel('State', { exact: true }).fill('NY');
  await page.getByLabel('ZIP / postal code').fill('11201');
}

describe('one order from first click to delivery', () => {
  it('phone: a visitor orders 250 Black Anodized, claims it, designs the card of that order; My Orders shows one order in review', async () => {
    const email = `one_${crypto.randomBytes(4).toString('hex')}@example.com`;
    const ctx = await newContext(browser, server.baseUrl, PHONE);
    const page = await ctx.newPage();
    slowMachine(page);
    const errors = trackPageErrors(page);
    await page.goto('/order');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('radio', { name: /Black Anodized/ }).check();
    await page.getByLabel('Card style').selectOption('Matte');
    await page.getByLabel('Quantity').fill('250');
    await page.getByRole('radio', { name: /Standard/ }).last().check();
    await fillAddress(page);
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/);
    const orderId = Number(new URL(page.url()).searchParams.get('orderId'));
    // an order from before addresses were asked: the claim asks for it
    await db().update(orders).set({ shippingAddress: null }).where(eq(orders.id, orderId));

    const [mail] = await db().select().from(outbox).where(eq(outbox.dedupeKey, `order-received:${orderId}`));
    const link = /(https?:\/\/\S+\/claim\/[A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
    await page.goto(new URL(link).pathname);
    await page.getByRole('heading', { name: `Claim order #${orderId}` }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('analytical-engine-1843');
    await page.getByLabel('Confirm Password').fill('analytical-engine-1843');
    await page.getByRole('button', { name: 'Create account and claim' }).click();
    await page.getByRole('heading', { name: `Where should we ship order #${orderId}?` }).waitFor({ timeout: 30_000 });
    await fillAddress(page);
    await page.getByRole('button', { name: 'Save address and design the card' }).click();

    // the designer designs this order's card: its card type and quantity, not changeable here
    await page.waitForURL(new RegExp(`/design\\?order=${orderId}$`), { timeout: 30_000 });
    await poll(() => page.getByTestId('design-for-order').textContent()).toBe(`Design the card for order #${orderId}: 250 x Black Anodized`);
    expect(await page.getByTestId('card-type-standard').count()).toBe(0);
    await poll(() => page.getByLabel('Full Name').inputValue()).toBe('Ada Lovelace');
    await page.getByLabel('Phone', { exact: true }).fill('+1 718 555 0142');
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await page.waitForURL(new RegExp(`/order-success\\?orderId=${orderId}$`), { timeout: 45_000 });

    await page.goto('/orders');
    await poll(() => page.getByTestId('my-order').count()).toBe(1);
    expect(await page.getByTestId('my-order').getByRole('heading', { name: `Order #${orderId}` }).count()).toBe(1);
    expect(await page.getByTestId('design-status').textContent()).toBe('In review');
    expect(await page.getByRole('link', { name: 'Design your card' }).count()).toBe(0);
    const [user] = await db().select().from(users).where(eq(users.email, email));
    const mine = await db().select().from(orders).where(eq(orders.userId, user.id));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: orderId, quantity: 250, cardType: 'black_anodized' });
    expect(mine[0].shippingAddress).toMatchObject({ line1: '12 Analytical Row', postalCode: '11201' });
    const [card] = await db().select().from(cards).where(eq(cards.id, mine[0].cardId!));
    expect(card).toMatchObject({ orderId, cardType: 'black_anodized', status: 'pending' });
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);

  it('desktop: a new design reaches the checkout summary and is placed only on confirm; Reorder repeats the approved design in one confirm', async () => {
    const ctx = await newContext(browser, server.baseUrl, { viewport: { width: 1280, height: 900 } });
    const { user } = await signUpViaApi(ctx, { firstName: 'Katherine', lastName: 'Johnson' });
    const page = await ctx.newPage();
    slowMachine(page);
    const errors = trackPageErrors(page);
    // the old builder's address leads to the one designer, with its query
    await page.goto('/create-card?templateId=16');
    await page.waitForURL('**/design?templateId=16');
    await poll(() => page.getByTestId('pick-template-16').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('card-type-color').click();
    for (const [label, value] of Object.entries({ 'Full Name': 'Katherine Johnson', Email: 'katherine@example.com', Phone: '+1 757 555 0123' })) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    const before = (await db().select().from(orders).where(eq(orders.userId, user.id))).length;
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByLabel('Quantity').fill('50');
    await page.getByLabel('Delivery', { exact: true }).selectOption('rush-24h');
    // the address is required for a delivery
    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByText('Enter the street address').waitFor();
    await fillAddress(page);
    await page.getByRole('button', { name: 'Review order' }).click();

    const summary = page.getByTestId('checkout-summary');
    await summary.waitFor();
    expect(await page.getByTestId('checkout-total').textContent()).toBe('$280.00');
    const text = (await summary.textContent()) ?? '';
    for (const part of ['Color Metal', 'Expedited', '12 Analytical Row', TAX_NOTE, INVOICE_NOTE, 'Classic']) expect(text).toContain(part);
    // nothing is ordered before the confirm
    expect((await db().select().from(orders).where(eq(orders.userId, user.id))).length).toBe(before);
    await page.getByRole('button', { name: 'Confirm order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/, { timeout: 45_000 });
    const orderId = Number(new URL(page.url()).searchParams.get('orderId'));
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ userId: user.id, quantity: 50, cardType: 'color', deliveryOption: 'rush-24h', templateId: 16, totalCents: 28000 });
    expect(order.shippingAddress).toMatchObject({ line1: '12 Analytical Row', state: 'NY' });

    // staff approved it (the review itself is tested elsewhere); Reorder shows the summary, one confirm
    await db().update(cards).set({ status: 'approved', reviewedAt: new Date() }).where(eq(cards.id, order.cardId!));
    await page.goto('/orders');
    await poll(() => page.getByTestId('design-status').textContent()).toBe('Approved');
    await page.getByRole('button', { name: 'Reorder' }).click();
    const reorder = page.getByTestId('reorder-summary');
    await reorder.waitFor();
    expect(await page.getByTestId('reorder-total').textContent()).toBe('$280.00');
    expect(await reorder.textContent()).toContain(TAX_NOTE);
    await page.getByRole('button', { name: 'Confirm reorder' }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('Reorder placed');
    await poll(() => page.getByTestId('my-order').count()).toBe(2);
    const mine = await db().select().from(orders).where(eq(orders.userId, user.id));
    expect(mine).toHaveLength(before + 2);
    const repeat = mine.find((o) => o.id !== orderId)!;
    const [copy] = await db().select().from(cards).where(eq(cards.id, repeat.cardId!));
    expect(copy).toMatchObject({ status: 'approved', templateId: 16, orderId: repeat.id });
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);
});
