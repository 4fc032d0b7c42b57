import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import type { APIResponse, Browser, BrowserContext, Locator } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { shippingAddressInput } from '#tests/helpers/orders';
import { cards, orders, outbox, users } from '#server/db/schema/index';

/**
 * Issue 35, deliverable 10: the team order journey in the new flow (decisions 35-04 and 35-06). A
 * team owner orders the cards of two members in one order (seeded through the API, with its
 * delivery address); staff approve the batch; the owner, on a phone from the order's link, asks
 * for changes to Bob's card only (the other keeps its approval); Bob resubmits and his card alone
 * comes back to review; staff approve it; the owner approves the proof; staff, on a desktop,
 * record the payment, start production and ship; the owner's page shows the shipment.
 */
let server: BrowserServer;
let browser: Browser;
let owner: BrowserContext;
let staff: BrowserContext;
const tag = crypto.randomBytes(3).toString('hex');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  owner = await newContext(browser, server.baseUrl);
  await signUpViaApi(owner, { firstName: 'Olga', lastName: 'Owner' });
  staff = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(staff, { firstName: 'Shop', lastName: 'Floor' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });
/** Calls that render cards or run the print check: room for a loaded machine. */
const RENDERS = { timeout: 60_000 };
const db = () => server.app.ctx.db;

async function ok(res: APIResponse, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

/**
 * A call that renders (team cards, the print check, a resubmitted design): on a loaded machine the
 * render lane may answer 503 "busy" before doing anything; the caller tries again, as a client would.
 */
async function rendered(call: () => Promise<APIResponse>, status = 200) {
  let res!: APIResponse;
  await expect.poll(async () => (res = await call()).status(), { timeout: 90_000, interval: 2000 }).not.toBe(503);
  return ok(res, status);
}

/** Every proof image of the card has been answered (the proofs render on the same lane as the cards). */
async function proofsAnswered(proof: Locator) {
  const images = proof.getByRole('img');
  for (let i = 0; i < (await images.count()); i++) {
    await images.nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete), { timeout: 60_000 }).toBe(true);
  }
}

/** A person the owner invites, who signs up with the invited address and accepts (all through the API). */
async function member(fullName: string) {
  const [first, last] = fullName.split(' ');
  const email = `${first.toLowerCase()}_${tag}@example.com`;
  await ok(await owner.request.post('/api/team/invites', { data: { invites: [{ email, fullName, jobTitle: 'Sales', role: 'member' }] } }), 201);
  const [mail] = await db().select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
  const token = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
  const context = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(context, { email, firstName: first, lastName: last });
  await ok(await context.request.post(`/api/team/invites/${token}/accept`));
  return { context, email, userId: user.id as string };
}

describe('a team order in the new flow', () => {
  it('team order, batch approval, changes for one card on a phone, that card alone back, proof approved, paid, in production, shipped', async () => {
    await ok(await owner.request.post('/api/team', { data: { name: 'Initech', companyName: 'Initech LLC', companyPhone: '+1 212 555 0170', address: '1 Initech Way, New York, NY', website: 'https://initech.test' } }), 201);
    const ann = await member('Ann Archer');
    const bob = await member('Bob Baker');
    const clientToken = `team-order-${tag}`;
    const placed = await rendered(
      () => owner.request.post('/api/team/orders', {
        data: {
          members: [
            { userId: ann.userId, quantity: 100 },
            { userId: bob.userId, quantity: 50 },
          ],
          cardType: 'standard',
          cardStyle: 'Matte',
          deliveryOption: 'standard',
          address: '1 Initech Way, New York, NY',
          shippingAddress: shippingAddressInput({ name: 'Initech Front Desk' }),
          clientToken,
        },
        ...RENDERS,
      }),
      201,
    );
    const orderId = placed.orderId as number;
    const cardOf = (userId: string) => (placed.cards as Array<{ userId: string; cardId: number }>).find((c) => c.userId === userId)!.cardId;
    const annCard = cardOf(ann.userId);
    const bobCard = cardOf(bob.userId);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    const cardRows = async () => (await db().select({ id: cards.id, status: cards.status, reviewedAt: cards.reviewedAt }).from(cards).where(eq(cards.orderId, orderId))).sort((a, b) => a.id - b.id);

    // staff approve the team's designs as one batch
    const approveBatch = () => rendered(() => staff.request.post(`/api/admin/business-cards/batches/${orderId}/approve`, { data: { overrideReason: 'Checked by hand' }, ...RENDERS }));
    expect(await approveBatch()).toEqual({ orderId, approved: 2 });
    const annApproved = (await cardRows()).find((c) => c.id === annCard)!;

    // the owner, on a phone from the order's link: both cards' proofs; changes for Bob's card only
    const phoneCtx = await newContext(browser, server.baseUrl, PHONE);
    phoneCtx.setDefaultTimeout(30_000);
    phoneCtx.setDefaultNavigationTimeout(45_000);
    const phone = await phoneCtx.newPage();
    const phoneErrors = trackPageErrors(phone);
    await phone.goto(`/order-status/${order.statusToken}`);
    const proof = phone.getByTestId('order-proof');
    await poll(() => proof.getAttribute('data-proof')).toBe('awaiting');
    expect(await proof.getByRole('img', { name: "Proof, front of Bob Baker's card" }).count()).toBe(1);
    expect(await proof.getByRole('img', { name: "Proof, front of Ann Archer's card" }).count()).toBe(1);
    await proofsAnswered(proof);
    await proof.getByRole('button', { name: 'Request changes' }).click();
    const send = proof.getByRole('button', { name: 'Send my changes' });
    await proof.getByLabel('What should we change?').fill('Bob is Head of Sales now.');
    // a card must be chosen on an order of several cards
    expect(await send.isDisabled()).toBe(true);
    await proof.getByRole('checkbox', { name: 'Bob Baker' }).check();
    expect(await proof.getByRole('checkbox', { name: 'Ann Archer' }).isChecked()).toBe(false);
    await send.click();
    await poll(() => proof.getAttribute('data-proof')).toBe('changes');
    expect(await proof.getByTestId('proof-cards').textContent()).toBe('Ann Archer: ApprovedBob Baker: Needs changes');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const afterChanges = await cardRows();
    expect(afterChanges.find((c) => c.id === bobCard)!.status).toBe('rejected');
    // Ann's card keeps its approval, untouched
    expect(afterChanges.find((c) => c.id === annCard)).toEqual(annApproved);

    // Bob edits and resubmits: his card alone comes back to review, and staff approve it alone
    const [bobRow] = await db().select({ templateId: cards.templateId }).from(cards).where(eq(cards.id, bobCard));
    await rendered(
      () => bob.context.request.post(`/api/cards/${bobCard}/resubmit`, {
        data: { templateId: bobRow.templateId, customerProfile: { fullName: 'Bob Baker', jobTitle: 'Head of Sales', email: bob.email, phoneNumber: '+1 212 555 0102' } },
        ...RENDERS,
      }),
    );
    const pending = (await ok(await staff.request.get('/api/admin/business-cards/pending'))) as Array<{ id: number; orderId: number | null }>;
    expect(pending.filter((d) => d.orderId === orderId).map((d) => d.id)).toEqual([bobCard]);
    expect(await approveBatch()).toEqual({ orderId, approved: 1 });
    expect((await cardRows()).find((c) => c.id === annCard)).toEqual(annApproved);

    // the owner approves the new proof
    await phone.reload();
    await poll(() => proof.getAttribute('data-proof')).toBe('awaiting');
    await proof.getByRole('button', { name: 'Approve proof' }).click();
    await poll(() => proof.getAttribute('data-proof')).toBe('approved');

    // staff, on a desktop: record the payment, start production, ship
    staff.setDefaultTimeout(30_000);
    staff.setDefaultNavigationTimeout(45_000);
    const page = await staff.newPage();
    const errors = trackPageErrors(page);
    await page.goto(`/admin?tab=orders&order=${orderId}`);
    const detail = page.getByTestId('order-detail');
    await poll(() => detail.getByTestId('order-proof-state').getAttribute('data-proof')).toBe('approved');
    const payment = detail.getByTestId('order-payment');
    await payment.getByLabel('Amount (USD)', { exact: true }).fill((order.totalCents / 100).toFixed(2));
    await payment.getByLabel('Reference', { exact: true }).fill('INV-TEAM-1');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await poll(() => payment.locator('[data-payment-status]').getAttribute('data-payment-status')).toBe('paid');
    await poll(() => detail.getByTestId('missing-in-production').count()).toBe(0);
    await detail.locator('[data-move="in-production"]').click();
    const confirm = page.getByTestId('status-confirm');
    await confirm.getByRole('button', { name: 'Move and e-mail the customer' }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('is now In production');
    await poll(() => detail.locator('[data-move="shipped"]').count()).toBe(1);
    await detail.locator('[data-move="shipped"]').click();
    await confirm.getByLabel('Carrier').selectOption('ups');
    await confirm.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await confirm.getByRole('button', { name: 'Move and e-mail the customer' }).click();
    await poll(() => detail.getByTestId('order-tracking').textContent()).toBe('UPS 1Z999AA10123456784');
    expect(errors).toEqual([]);

    // the owner's page shows the shipment
    await phone.reload();
    await poll(() => phone.getByTestId('order-status').textContent()).toBe('Shipped');
    expect(await phone.getByTestId('order-fulfilment').getByRole('link').getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(phoneErrors).toEqual([]);
  }, 120_000);
});
