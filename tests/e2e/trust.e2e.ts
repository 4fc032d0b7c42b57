import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { userInput } from '#tests/helpers/factories';
import { outbox } from '#server/db/schema/index';
import { PASSWORD_TOO_COMMON, VERIFY_MESSAGES } from '#shared/auth-rules';

/** Issue 19 in a real browser: the verification banner with its Resend action, and the password strength hint. */
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

async function verifyTokenFor(to: string, count: number) {
  let rows: Array<{ textBody: string }> = [];
  await expect
    .poll(async () => {
      rows = await server.app.ctx.db
        .select({ textBody: outbox.textBody })
        .from(outbox)
        .where(and(sql`lower(${outbox.toAddress}) = ${to.toLowerCase()}`, eq(outbox.kind, 'verify-email')))
        .orderBy(sql`${outbox.id} desc`);
      return rows.length;
    })
    .toBe(count);
  return rows[0].textBody.match(/\/confirm-email\?verify=([A-Za-z0-9_-]+)/)![1];
}

describe('e-mail verification and password strength (issue 19)', () => {
  it('sign-up: strength hint, common password refused, then /profile with the banner; Resend is throttled; the link verifies', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/signup');
    await expect.poll(() => page.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
    const u = userInput({ password: 'password1' });
    await page.getByLabel('First name').fill(u.firstName);
    await page.getByLabel('Username').fill(u.username);
    await page.getByLabel('Email', { exact: true }).fill(u.email);
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await expect.poll(() => page.getByTestId('password-strength').getAttribute('data-score')).toBe('0');
    expect(await page.getByTestId('password-strength').textContent()).toContain('Very weak');
    await page.getByLabel('Confirm password').fill('password1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText(PASSWORD_TOO_COMMON).first().isVisible()).toBe(true);

    const strong = 'violet-harbor-quarry-42';
    await page.getByLabel('Password', { exact: true }).fill(strong);
    await expect.poll(async () => Number(await page.getByTestId('password-strength').getAttribute('data-score'))).toBeGreaterThanOrEqual(3);
    await page.getByLabel('Confirm password').fill(strong);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/profile');

    const banner = page.getByTestId('verify-email-banner');
    await expect.poll(() => banner.textContent()).toContain(VERIFY_MESSAGES.banner);
    await verifyTokenFor(u.email, 1);
    await banner.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain(VERIFY_MESSAGES.sent);
    // throttled: the button waits, and a second e-mail is not sent
    await expect.poll(() => banner.getByRole('button').isDisabled()).toBe(true);
    expect(await banner.getByRole('button').textContent()).toMatch(/Resend \(\d+s\)/);
    const token = await verifyTokenFor(u.email, 2);

    await page.goto(`/confirm-email?verify=${token}`);
    await page.getByRole('button', { name: 'Verify email address' }).click();
    await expect.poll(() => page.getByTestId('verify-done').textContent()).toContain(VERIFY_MESSAGES.verified);
    await page.goto('/profile');
    await expect.poll(() => page.getByTestId('user-email').first().textContent()).toBe(u.email);
    expect(await page.getByTestId('verify-email-banner').count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a link used twice says it is invalid', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { input } = await signUpViaApi(ctx);
    const token = await verifyTokenFor(input.email, 1);
    const page = await ctx.newPage();
    await page.goto(`/confirm-email?verify=${token}`);
    await page.getByRole('button', { name: 'Verify email address' }).click();
    await page.getByTestId('verify-done').waitFor();
    await page.goto(`/confirm-email?verify=${token}`);
    await page.getByRole('button', { name: 'Verify email address' }).click();
    await expect.poll(() => page.getByTestId('verify-invalid').textContent()).toContain(VERIFY_MESSAGES.invalid);
    await ctx.close();
  });

  it('change password shows the hint; the estimator is not part of the home page load', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await signUpViaApi(ctx);
    const page = await ctx.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => /estimator|zxcvbn/i.test(s))).toBe(false);

    await page.goto('/account');
    await page.getByLabel('New password', { exact: true }).fill('qwerty123');
    await expect.poll(() => page.getByTestId('password-strength').getAttribute('data-score')).toBe('0');
    await page.getByLabel('New password', { exact: true }).fill('copper-lantern-river-88');
    await expect.poll(async () => Number(await page.getByTestId('password-strength').getAttribute('data-score'))).toBeGreaterThanOrEqual(3);
    expect(scripts.some((s) => /estimator/i.test(s))).toBe(true);
    await ctx.close();
  });
});
