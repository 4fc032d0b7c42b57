import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { sessions, users } from '#server/db/schema/index';

/**
 * Issue 39, decision 39-05: a sensitive staff action after the 15-minute window opens "Confirm it
 * is you"; after confirming (the password of an account without a second factor, or a passkey on
 * Chromium's virtual authenticator) the action goes ahead without being started again.
 */
let server: BrowserServer;
let browser: Browser;
// WebAuthn needs a domain (an IP address is not a valid relying party id)
let base: string;

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  base = server.baseUrl.replace('127.0.0.1', 'localhost');
}, 120_000);
afterAll(() => closeBrowserSuite({ server, browser }));

async function staffContext(): Promise<{ ctx: BrowserContext; userId: string; password: string }> {
  const ctx = await newContext(browser, base, { acceptDownloads: true });
  const { input, user } = await signUpViaApi(ctx, { firstName: 'Sam', lastName: 'Staff' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
  return { ctx, userId: user.id, password: input.password };
}

/** The sessions of the account last proved who they are 20 minutes ago: past the 15-minute window. */
async function ageSessions(userId: string) {
  await server.app.ctx.db
    .update(sessions)
    .set({ authenticatedAt: new Date(Date.now() - 20 * 60_000) })
    .where(eq(sessions.userId, userId));
}

async function openOrdersAndExport(page: Page) {
  await page.goto('/admin?tab=orders');
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  await exportButton.waitFor();
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await exportButton.click();
  return download;
}

describe('confirm it is you on a sensitive staff action', () => {
  it('the orders export after the window asks for the password, then downloads', async () => {
    const { ctx, userId, password } = await staffContext();
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    // inside the window the export needs nothing more
    const first = await openOrdersAndExport(page);
    expect((await first).suggestedFilename()).toMatch(/\.csv$/);
    expect(await page.getByRole('dialog', { name: 'Confirm it is you' }).count()).toBe(0);

    await ageSessions(userId);
    const download = openOrdersAndExport(page);
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    // a wrong password is said beside the field; the dialog stays
    await dialog.getByLabel('Your password', { exact: true }).fill('not-my-password-1');
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await poll(() => dialog.getByText('Your password is incorrect.', { exact: true }).count()).toBe(1);
    await dialog.getByLabel('Your password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    await poll(() => dialog.count()).toBe(0);
    await poll(() => toastLocator(page).first().textContent()).toContain('Export ready');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('closing the dialog leaves the action refused; a passkey of the account confirms it', async () => {
    const { ctx, userId } = await staffContext();
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto('/account');
    await page.locator('#pk-new-name').fill('Desk key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await poll(() => page.getByTestId('passkey-row').count()).toBe(1);

    await ageSessions(userId);
    void openOrdersAndExport(page).catch(() => undefined);
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    // with a passkey and no authenticator app the dialog offers the passkey
    await dialog.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await poll(() => dialog.count()).toBe(0);
    await poll(() => toastLocator(page).first().textContent()).toContain('Export failed');

    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Use a passkey' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    await poll(() => dialog.count()).toBe(0);
    // the session is inside the window again: the next export asks nothing
    const again = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    expect((await again).suggestedFilename()).toMatch(/\.csv$/);
    expect(await dialog.count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});
