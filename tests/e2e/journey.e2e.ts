import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { decodeQrImage } from '#tests/helpers/qr-decode';
import { cards, orders, outbox, profiles, users } from '#server/db/schema/index';

/**
 * The customer's whole journey (issue 20): a visitor orders on /order, claims the order from the
 * e-mail, and the card staff download carries a QR that opens the new profile; the same customer's
 * design is rejected, edited, resubmitted and approved on the same order; My Orders shows both.
 */
let server: BrowserServer;
let browser: Browser;
let staff: BrowserContext;
let buyer: BrowserContext;
const email = `journey_${crypto.randomBytes(4).toString('hex')}@example.com`;
let plainOrderId = 0;
let profileId = '';

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  staff = await newContext(browser, server.baseUrl, { acceptDownloads: true });
  const { user } = await signUpViaApi(staff, { firstName: 'Shop', lastName: 'Floor' });
  await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  buyer = await newContext(browser, server.baseUrl);
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) => expect.poll(fn, { timeout: 20_000, ...opts });
const toastText = (page: Page) => toastLocator(page).first().textContent();
const db = () => server.app.ctx.db;

/** The proof sheet staff download for an order, and the QR text decoded from its back half. */
async function downloadCardQr(orderId: number): Promise<string | null> {
  const page = await staff.newPage();
  await page.goto('/admin?tab=orders');
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(email);
  await page.getByRole('button', { name: `View order #${orderId}` }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-detail').getByRole('button', { name: 'Download card' }).click()]);
  const bytes = fs.readFileSync((await download.path())!);
  await page.close();
  const meta = await sharp(bytes).metadata();
  // the back is the right half of the sheet (or the lower half of a tall one)
  const half =
    meta.width! >= meta.height!
      ? await sharp(bytes).extract({ left: Math.floor(meta.width! / 2), top: 0, width: Math.floor(meta.width! / 2), height: meta.height! }).png().toBuffer()
      : await sharp(bytes).extract({ left: 0, top: Math.floor(meta.height! / 2), width: meta.width!, height: Math.floor(meta.height! / 2) }).png().toBuffer();
  return (await decodeQrImage(half)) ?? (await decodeQrImage(bytes));
}

describe('the customer journey in a real browser', () => {
  it('a visitor orders on /order, staff see it wait for a profile, the buyer claims it from the e-mail, and the production QR opens the new profile', async () => {
    const visitor = await newContext(browser, server.baseUrl);
    const page = await visitor.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/order');
    await page.getByLabel('Full name').fill('Margaret Hamilton');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Company (optional)').fill('Apollo Software');
    await page.getByLabel('Position (optional)').fill('Director');
    await page.getByRole('radio', { name: /Standard Metal/ }).check();
    await page.getByLabel('Card style').selectOption('Matte');
    await page.getByLabel('Quantity').fill('100');
    await page.getByRole('radio', { name: /Standard/ }).last().check();
    // where the cards go (issue 35): asked for every delivery but pickup
    await page.getByLabel('Recipient name').fill('Margaret Hamilton');
    await page.getByLabel('Street address').fill('1 Apollo Way');
    await page.getByLabel('City').fill('Cambridge');
    await page.getByLabel('State', { exact: true }).fill('MA');
    await page.getByLabel('ZIP / postal code').fill('02139');
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/);
    plainOrderId = Number(new URL(page.url()).searchParams.get('orderId'));
    await visitor.close();

    // the card code exists at once; staff see that it waits for the buyer's profile
    const adminPage = await staff.newPage();
    await adminPage.goto('/admin?tab=orders');
    await adminPage.getByRole('searchbox', { name: 'Search orders' }).fill(email);
    await poll(() => adminPage.getByText('Waits for profile').count()).toBe(1);
    await adminPage.close();
    // and the production file already carries a real QR (the card's own short link), never a placeholder
    const before = await downloadCardQr(plainOrderId);
    expect(before).toMatch(/^HTTPS?:\/\/[^/]+\/C\/[A-Z0-9]+$/);

    // the claim link from the order e-mail, opened on the buyer's phone
    const [mail] = await db().select().from(outbox).where(eq(outbox.dedupeKey, `order-received:${plainOrderId}`));
    const link = /(https?:\/\/\S+\/claim\/[A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
    const claim = await buyer.newPage();
    const claimErrors = trackPageErrors(claim);
    await claim.goto(new URL(link).pathname);
    await claim.getByRole('heading', { name: `Claim order #${plainOrderId}` }).waitFor();
    await claim.getByLabel('Password', { exact: true }).fill('orbit-lunar-1969');
    await claim.getByLabel('Confirm Password').fill('orbit-lunar-1969');
    await claim.getByRole('button', { name: 'Create account and claim' }).click();
    // the order has its address: the claim goes on to design the card of this order (issue 35)
    await claim.waitForURL(new RegExp(`/design\\?order=${plainOrderId}$`), { timeout: 30_000 });
    await poll(() => toastText(claim)).toContain('Order claimed');
    const [user] = await db().select().from(users).where(eq(users.email, email));
    expect(user.emailVerifiedAt).not.toBeNull();
    const [profile] = await db().select().from(profiles).where(eq(profiles.userId, user.id));
    expect(profile).toMatchObject({ fullName: 'Margaret Hamilton', companyName: 'Apollo Software', jobTitle: 'Director' });
    profileId = profile.id;

    // the QR on the card staff download now opens that profile
    const qr = await downloadCardQr(plainOrderId);
    expect(qr).toBe(before);
    const res = await buyer.request.get(new URL(qr!).pathname, { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toContain(`/p/${profileId}`);
    await claim.goto(new URL(qr!).pathname.toLowerCase());
    await poll(() => claim.getByRole('heading', { level: 1 }).textContent()).toContain('Margaret Hamilton');

    // the link is spent
    await claim.goto(new URL(link).pathname);
    await claim.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    expect(errors).toEqual([]);
    expect(claimErrors).toEqual([]);
    await claim.close();
  });

  it('a rejected design is edited and resubmitted on the same order, then approved; My Orders shows both orders', async () => {
    const page = await buyer.newPage();
    const errors = trackPageErrors(page);
    // the signed-in buyer designs a card
    await page.goto('/design');
    await page.getByRole('heading', { name: 'Design Your Card' }).waitFor();
    await poll(() => page.getByLabel('Full Name').inputValue()).toBe('Margaret Hamilton');
    await page.getByLabel('Phone', { exact: true }).fill('+1 617 555 0101');
    // a second order: only through the checkout's summary and confirm (issue 35)
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Delivery', { exact: true }).selectOption('pickup-nyc');
    await page.getByRole('button', { name: 'Review order' }).click();
    await page.getByRole('button', { name: 'Confirm order' }).click();
    await page.waitForURL(/\/order-success\?orderId=\d+$/, { timeout: 45_000 });
    const designOrderId = Number(new URL(page.url()).searchParams.get('orderId'));
    const [order] = await db().select().from(orders).where(eq(orders.id, designOrderId));
    const cardId = order.cardId!;

    // staff send it back with a reason
    const review = await staff.newPage();
    await review.goto('/admin?tab=card-reviews');
    const card = review.getByTestId(`design-${cardId}`);
    await card.getByRole('button', { name: 'Reject' }).click();
    await review.getByLabel('Reason (optional)').fill('Please add your job title on the front.');
    await review.getByRole('button', { name: 'Reject design' }).click();
    await poll(() => db().select({ s: cards.status }).from(cards).where(eq(cards.id, cardId)).then((r) => r[0].s)).toBe('rejected');

    // the e-mailed order page tells the truth and leads back to the designer
    await page.goto(`/order-status/${order.statusToken}`);
    await poll(() => page.getByTestId('design-status').textContent()).toBe('Needs changes');
    expect(await page.getByRole('note').first().textContent()).toContain('Please add your job title on the front.');
    expect(await page.getByLabel('Order timeline').textContent()).toContain('Needs changes');
    await page.getByRole('link', { name: 'Edit and resubmit' }).click();
    await page.waitForURL(/\/design\?card=\d+$/);
    await page.getByTestId('editing-design').waitFor();
    expect(await page.getByTestId('editing-design').textContent()).toContain('Please add your job title on the front.');
    await poll(() => page.getByLabel('Job Title').inputValue()).toBe('Director');
    await page.getByLabel('Job Title').fill('Director of Software Engineering');
    await page.getByRole('button', { name: 'Resubmit for Review' }).click();
    // the resubmission renders the card again (worker pool): room for a loaded machine, and a
    // refusal fails here with its own message
    await Promise.race([
      page.waitForURL(/\/order-status\//, { timeout: 45_000 }),
      toastLocator(page)
        .filter({ hasText: 'Could not resubmit' })
        .waitFor({ timeout: 45_000 })
        .then(
          async () => {
            throw new Error(`resubmit refused: ${await toastText(page)}`);
          },
          () => new Promise<void>(() => undefined), // no refusal: the navigation decides
        ),
    ]);
    await poll(() => page.getByTestId('design-status').textContent()).toBe('In review');
    expect(await page.getByLabel('Order timeline').textContent()).toContain('Design resubmitted');
    // one order only, still the same card
    expect(await db().select().from(orders).where(eq(orders.cardId, cardId))).toHaveLength(1);
    expect(await db().select().from(outbox).where(and(eq(outbox.kind, 'staff-design-waiting')))).not.toHaveLength(0);

    // staff approve the resubmitted design
    await review.goto('/admin?tab=card-reviews');
    await review.getByTestId(`design-${cardId}`).getByRole('button', { name: 'Approve' }).click();
    await poll(() => db().select({ s: cards.status }).from(cards).where(eq(cards.id, cardId)).then((r) => r[0].s)).toBe('approved');
    await review.close();

    // My Orders: both orders, the design approved, the claimed order's QR open
    await page.goto('/orders');
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();
    await poll(() => page.getByTestId('my-order').count()).toBe(2);
    const items = page.getByTestId('my-order');
    expect(await items.nth(0).textContent()).toContain(`Order #${designOrderId}`);
    expect(await items.nth(0).getByTestId('design-status').textContent()).toBe('Approved');
    expect(await items.nth(1).textContent()).toContain(`Order #${plainOrderId}`);
    expect(await items.nth(1).getByTestId('order-card-link').textContent()).toContain('opens your digital profile');
    // reorder fills the order form with the earlier choices
    await items.nth(1).getByRole('button', { name: 'Reorder' }).click();
    await page.waitForURL(/\/order$/);
    await poll(() => page.getByLabel('Full name').inputValue()).toBe('Margaret Hamilton');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    expect(await page.getByLabel('Card style').inputValue()).toBe('Matte');
    expect(errors).toEqual([]);
    await page.close();
  });
});
