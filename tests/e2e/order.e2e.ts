import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { newContext, signUpViaApi, startBrowserServer, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { pngImage } from '#tests/helpers/orders';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { startShopifyStandin } from '#tests/helpers/shopify-standin';
import { orders, outbox, users } from '#server/db/schema/index';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const toastText = (page: Page) => toastLocator(page).first().textContent();
const uniqueEmail = () => `buyer_${crypto.randomBytes(4).toString('hex')}@example.com`;

async function fillOrder(page: Page, email: string, opts: { quantity?: string; cardType?: string; delivery?: string } = {}) {
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Phone (optional)').fill('+1 212 555 0100');
  await page.getByLabel('Company (optional)').fill('Navy Labs');
  await page.getByLabel('Position (optional)').fill('Rear Admiral');
  await page.getByRole('radio', { name: new RegExp(opts.cardType ?? 'Color Metal') }).check();
  await page.getByLabel('Card style').selectOption('Brushed');
  await page.getByLabel('Quantity').fill(opts.quantity ?? '250');
  await page.getByRole('radio', { name: new RegExp(opts.delivery ?? 'Expedited 24h') }).check();
  // every delivery but pickup asks where the cards go (issue 35)
  if (opts.delivery !== 'Pickup NYC') await fillAddress(page);
}

async function fillAddress(page: Page, a: { line1?: string; postalCode?: string } = {}) {
  await page.getByLabel('Recipient name').fill('Grace Hopper');
  await page.getByLabel('Street address').fill(a.line1 ?? '1 Navy Yard Way');
  await page.getByLabel('Apartment, suite, etc. (optional)').fill('Suite 4');
  await page.getByLabel('City').fill('Brooklyn');
  await page.getByLabel('State', { exact: true }).fill('NY');
  await page.getByLabel('ZIP / postal code').fill(a.postalCode ?? '11205');
  await page.getByLabel('Country').selectOption('US');
}

async function ordersFor(email: string) {
  return server.app.ctx.db.select().from(orders).where(eq(orders.email, email));
}

describe('ordering in a real browser', () => {
  it('orders 250 Color Metal with rush delivery and artwork: $1,280, the e-mail link opens the order page', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/order');
    await page.getByRole('heading', { name: 'Place Your Order' }).waitFor();
    // the quantity starts at 100
    expect(await page.getByLabel('Quantity').inputValue()).toBe('100');

    const email = uniqueEmail();
    await fillOrder(page, email);
    await expect.poll(() => page.getByTestId('order-total').textContent()).toBe('$1,280.00');
    expect(await page.getByTestId('volume-note').isVisible()).toBe(true);
    await page.getByLabel('Quantity').fill('99');
    await expect.poll(() => page.getByTestId('volume-note').count()).toBe(0);
    expect(await page.getByTestId('order-total').textContent()).toBe('$525.00');
    await page.getByLabel('Quantity').fill('250');

    // artwork: one file, uploaded with progress
    await page.locator('#order-artwork').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await pngImage(400, 200) });
    await page.getByText('Uploaded', { exact: true }).waitFor();
    expect(await page.getByTestId('artwork-file').textContent()).toContain('logo.png');

    // hold the order call to see the in-flight label
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/order', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Submitting...' }).isDisabled()).toBe(true);
    release();
    await page.waitForURL(/\/order-success\?orderId=\d+$/);
    await expect.poll(() => toastText(page)).toContain('Order submitted');
    expect(await toastText(page)).toContain('$1,280.00');
    const orderId = Number(new URL(page.url()).searchParams.get('orderId'));
    // a plain order's confirmation: its own heading, the total and the way to the order page
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 20_000 }).toBe('Order Placed Successfully!');
    expect(await page.getByTestId('order-total').textContent()).toContain('$1,280.00');
    expect(await page.getByText('Design review').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'View your order' }).getAttribute('href')).toMatch(/^\/order-status\/[^/]+$/);

    const stored = await ordersFor(email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: orderId, quantity: 250, cardType: 'color', deliveryOption: 'rush-24h', totalCents: 128000 });
    // the delivery address and the one delivery promise (issue 35): the same words on the form, the confirmation, the e-mail and the order page
    expect(stored[0].shippingAddress).toEqual({ name: 'Grace Hopper', line1: '1 Navy Yard Way', line2: 'Suite 4', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' });
    const promise = deliveryPromise(stored[0].createdAt, 'rush-24h').label;
    expect(await page.getByTestId('order-promise').textContent()).toBe(promise);
    expect((await page.getByTestId('order-ship-to').innerText()).replace(/\s+/g, ' ')).toBe('Grace Hopper 1 Navy Yard Way Suite 4 Brooklyn, NY 11205');
    expect(stored[0].artworkUrl).toMatch(/^\/files\/artwork\//);

    // the e-mail in the outbox carries the link to the order's own page
    const [mail] = await server.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, email));
    const link = /(http:\/\/127\.0\.0\.1:\d+\/order-status\/[A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
    expect(mail.textBody).toContain(promise);
    expect(mail.textBody).toContain('Grace Hopper, 1 Navy Yard Way, Suite 4, Brooklyn, NY 11205');
    await page.goto(link);
    await page.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
    expect(await page.getByTestId('order-status-promise').textContent()).toBe(promise);
    expect(await page.getByTestId('order-status-address').innerText()).toContain('1 Navy Yard Way');
    // the customer corrects the address until the order ships
    await page.getByRole('button', { name: 'Change address' }).click();
    await fillAddress(page, { line1: '2 Main St', postalCode: '1120' });
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('Enter a 5-digit ZIP code (or ZIP+4, 12345-6789)').waitFor();
    await page.getByLabel('ZIP / postal code').fill('11201');
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => page.getByTestId('order-status-address').innerText()).toContain('2 Main St');
    expect((await ordersFor(email))[0].shippingAddress).toMatchObject({ line1: '2 Main St', postalCode: '11201' });
    expect(await page.getByTestId('order-status-total').textContent()).toBe('$1,280.00');
    expect(await page.getByTestId('order-status').textContent()).toBe('Pending');
    expect(await page.getByText('250 × Color Metal').isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Order timeline' }).textContent()).toContain('Order placed');
    // a visitor's order: the e-mail carries the claim link, the page the cards' own short link
    expect(mail.textBody).toMatch(/\/claim\/[A-Za-z0-9_-]{20,}/);
    expect(await page.getByTestId('order-card-link').textContent()).toContain('waiting for your profile');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a submit whose answer is lost, pressed again, makes one order', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/order');
    const email = uniqueEmail();
    await fillOrder(page, email, { quantity: '120', cardType: 'Black Anodized', delivery: 'Pickup NYC' });
    // pickup: no address asked (issue 35)
    expect(await page.getByLabel('Street address').count()).toBe(0);
    expect(await page.getByTestId('delivery-promise-pickup-nyc').textContent()).toMatch(/^Ready for pickup by \w{3}, \w{3} \d{1,2}$/);
    let first = true;
    await page.route('**/api/order', async (route) => {
      if (first) {
        first = false;
        await route.fetch(); // the server stores the order ...
        await route.abort('connectionreset'); // ... but the answer never arrives
        return;
      }
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await expect.poll(() => toastText(page)).toContain('Could not submit order');
    expect(await ordersFor(email)).toHaveLength(1);
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/);
    const stored = await ordersFor(email);
    expect(stored).toHaveLength(1);
    expect(Number(new URL(page.url()).searchParams.get('orderId'))).toBe(stored[0].id);
    expect(stored[0].totalCents).toBe(120 * 700);
    expect(stored[0].shippingAddress).toBeNull();
    expect(await page.getByTestId('order-promise').textContent()).toBe(deliveryPromise(stored[0].createdAt, 'pickup-nyc').label);
    expect(await page.getByTestId('order-ship-to').count()).toBe(0);
    // the order page of a pickup order shows the studio with its map link
    const [pickupMail] = await server.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, email));
    await page.goto(/(http:\/\/127\.0\.0\.1:\d+\/order-status\/[A-Za-z0-9_-]+)/.exec(pickupMail.textBody)![1]);
    await page.getByRole('heading', { name: 'Pickup at our studio' }).waitFor();
    expect(await page.getByTestId('studio-map-link').getAttribute('href')).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/);
    expect(await page.getByRole('button', { name: 'Change address' }).count()).toBe(0);
    const mails = await server.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, email));
    expect(mails).toHaveLength(1);
    await ctx.close();
  });

  it('shows the spec messages before calling the server', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/order')) calls++;
    });
    await page.goto('/order');
    await page.getByRole('button', { name: 'Submit Order' }).click();
    for (const msg of ['Your name is required', 'Enter a valid email', 'Select a card type', 'Select a card style', 'Select a delivery option']) {
      await page.getByText(msg).first().waitFor();
    }
    await page.getByLabel('Quantity').fill('0');
    await page.getByText('At least 1').waitFor();
    await page.getByLabel('Quantity').fill('5001');
    await page.getByText('Too many').waitFor();
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    expect(await page.getByText('Enter a valid email').isVisible()).toBe(true);
    expect(calls).toBe(0);
    await ctx.close();
  });

  it("shows the server's message when it refuses the order, and refuses a fake image", async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/order');

    // an executable named .png: the server looks at the bytes
    await page.locator('#order-artwork').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.concat([Buffer.from('MZ'), crypto.randomBytes(4000)]) });
    await expect.poll(() => toastText(page)).toContain('Upload failed');
    expect(await toastText(page)).toContain('Artwork must be a PNG, JPG, WEBP, SVG or PDF file');
    const files = Number(((await server.app.ctx.db.execute(sql`select count(*)::int n from files where kind = 'artwork'`)) as any).rows[0].n);

    const email = uniqueEmail();
    await fillOrder(page, email);
    // a client that skips the form's checks: the real server still refuses (quantity over 5000)
    await page.route('**/api/order', async (route) => {
      const body = JSON.parse(route.request().postData()!);
      body.items[0].quantity = 9999;
      await route.continue({ postData: JSON.stringify(body) });
    });
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await expect.poll(() => toastText(page)).toContain('Could not submit order');
    expect(await toastText(page)).toContain('Too many');
    expect(await ordersFor(email)).toHaveLength(0);
    expect(Number(((await server.app.ctx.db.execute(sql`select count(*)::int n from files where kind = 'artwork'`)) as any).rows[0].n)).toBe(files);
    await ctx.close();
  });

  it('an unknown order link shows Order not found', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto(`/order-status/${'x'.repeat(43)}`);
    await page.getByRole('heading', { name: 'Order not found' }).waitFor();
    await ctx.close();
  });
});

describe('the studio as shop settings (issue 35)', () => {
  it('staff set the studio in Admin > Settings; Help and About show it with the map link', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    const { user } = await signUpViaApi(ctx);
    await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    await page.goto('/admin?tab=settings');
    const form = page.getByRole('form', { name: 'Studio details' });
    await form.waitFor();
    // the spec names no street: the placeholder is flagged until staff fill it in
    await page.getByTestId('studio-placeholder').waitFor();
    await form.getByLabel('Address', { exact: true }).fill('123 Mercer St\nNew York, NY 10012');
    await form.getByLabel('Opening hours').fill('Mon-Fri 10:00-7:00 EST\nSat 11:00-3:00 EST\nSun Closed');
    await form.getByLabel('Pickup instructions').fill('Ring the bell marked Metal Cards.');
    await page.getByRole('button', { name: 'Save studio details' }).click();
    await expect.poll(() => toastText(page)).toContain('Studio details saved');
    expect(await page.getByTestId('studio-placeholder').count()).toBe(0);

    await page.goto('/help');
    await expect.poll(() => page.getByTestId('business-hours').innerText()).toContain('Mon-Fri 10:00-7:00 EST');
    expect(await page.getByTestId('studio-address').innerText()).toContain('123 Mercer St');
    expect(await page.getByTestId('studio-map-link').getAttribute('href')).toBe(
      'https://www.google.com/maps/search/?api=1&query=123%20Mercer%20St%2C%20New%20York%2C%20NY%2010012',
    );
    expect(await page.getByText('Ring the bell marked Metal Cards.').isVisible()).toBe(true);
    await page.goto('/about');
    await expect.poll(() => page.getByTestId('studio-address').innerText()).toContain('123 Mercer St');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('store pages', () => {
  it('are for staff; the checklist shows the reference prices and the test says the client is not initialized', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/shopify-test');
    await page.getByText('Authentication Required').waitFor();

    const { user } = await signUpViaApi(ctx);
    await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    await page.goto('/shopify-admin');
    await page.getByRole('heading', { name: 'Store Setup' }).waitFor();
    await expect.poll(() => page.getByTestId('store-configured').textContent()).toBe('Not configured');
    expect(await page.getByTestId('reference-price').allTextContents()).toEqual(['89.99', '119.99', '149.99']);
    expect(await page.getByRole('list', { name: 'Store setup steps' }).textContent()).toContain('SHOPIFY_STOREFRONT_TOKEN');

    await page.goto('/shopify-test');
    await page.getByText('Ready to test. Nothing has been sent yet.').waitFor();
    expect(await page.getByTestId('connection-test').getAttribute('data-state')).toBe('idle');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await page.getByTestId('connection-result').waitFor();
    expect(await page.getByTestId('connection-result').textContent()).toContain('Shopify client not initialized');
    expect(await page.getByTestId('connection-result').getAttribute('data-ok')).toBe('false');
    await ctx.close();
  });

  it('with the store configured: the test connects, and an order carries the checkout link', async () => {
    const shop = await startShopifyStandin();
    const storeServer = await startBrowserServer({ SHOPIFY_STORE_DOMAIN: shop.storeDomain, SHOPIFY_STOREFRONT_TOKEN: shop.token, SHOPIFY_API_URL: shop.url });
    try {
      const ctx = await newContext(browser, storeServer.baseUrl);
      const { user } = await signUpViaApi(ctx);
      await storeServer.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
      const page = await ctx.newPage();
      await page.goto('/shopify-test');
      // hold the call to see the testing state
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/shopify/test-connection', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Test Connection' }).click();
      await page.getByText('Testing connection...').waitFor();
      expect(await page.getByTestId('connection-test').getAttribute('data-state')).toBe('testing');
      release();
      await page.getByTestId('connection-result').waitFor();
      expect(await page.getByTestId('connection-result').getAttribute('data-ok')).toBe('true');
      expect(await page.getByTestId('product-count').textContent()).toBe('3');
      expect(await page.getByTestId('connection-result').textContent()).toContain('Standard Metal Cards - $89.99');

      await page.goto('/order');
      const email = uniqueEmail();
      await fillOrder(page, email);
      await page.getByRole('button', { name: 'Submit Order' }).click();
      await page.waitForURL(/\/order-success/);
      await expect.poll(() => toastText(page)).toContain('checkout link');
      const [order] = await storeServer.app.ctx.db.select().from(orders).where(eq(orders.email, email));
      expect(order.checkoutUrl).toMatch(new RegExp(`^https://${shop.storeDomain.replace(/\./g, '\\.')}/cart/c/`));
      await page.goto(`/order-status/${order.statusToken}`);
      const checkout = page.getByRole('link', { name: 'Complete checkout' });
      await checkout.waitFor();
      expect(await checkout.getAttribute('href')).toBe(order.checkoutUrl);
      await ctx.close();
    } finally {
      await storeServer.close();
      await shop.close();
    }
  });
});
