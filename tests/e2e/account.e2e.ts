import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { loginViaApi, newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { outbox, passwordResets, teamMembers, users } from '#server/db/schema/index';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

/** The token of the latest e-mail of this kind to this address (read from the outbox, as a mailbox would). */
async function tokenFromMail(to: string, kind: string, page: string) {
  let row: { textBody: string } | undefined;
  await expect
    .poll(async () => {
      [row] = await server.app.ctx.db
        .select({ textBody: outbox.textBody })
        .from(outbox)
        .where(and(sql`lower(${outbox.toAddress}) = ${to.toLowerCase()}`, eq(outbox.kind, kind)))
        .orderBy(sql`${outbox.id} desc`)
        .limit(1);
      return !!row;
    })
    .toBe(true);
  const m = row!.textBody.match(new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`));
  expect(m, `a ${page} link in the e-mail`).not.toBeNull();
  return m![1];
}

async function apiUser(ctx: BrowserContext) {
  const res = await ctx.request.get('/api/auth/user');
  return res.status() === 200 ? ((await res.json()) as { email: string }) : null;
}

describe('forgot and reset password in a real browser', () => {
  it('asks for a link from the login tab, sets a new password, and refuses the link a second time', async () => {
    const other = await newContext(browser, server.baseUrl);
    const { input } = await signUpViaApi(other);

    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Please enter a valid email address');
    await page.getByLabel('Email', { exact: true }).fill(input.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByTestId('forgot-sent').textContent()).toContain('If an account exists for that email');

    const token = await tokenFromMail(input.email, 'password-reset', 'reset-password');
    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel('New password', { exact: true }).fill('fresh-password-1');
    await page.getByLabel('Confirm new password').fill('fresh-password-2');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByText("Passwords don't match").first().isVisible()).toBe(true);
    await page.getByLabel('Confirm new password').fill('fresh-password-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/profile');
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Password reset');
    await expect.poll(() => page.getByTestId('user-email').first().textContent()).toBe(input.email);

    // the session of the other browser ended; the new password works, the old one not
    expect(await apiUser(other)).toBeNull();
    await expect(loginViaApi(other, input.email, input.password)).rejects.toThrow(/401/);
    await loginViaApi(other, input.email, 'fresh-password-1');

    // the same link a second time
    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel('New password', { exact: true }).fill('another-pass-1');
    await page.getByLabel('Confirm new password').fill('another-pass-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByTestId('reset-invalid').textContent()).toContain('invalid or has expired');
    await page.getByRole('link', { name: 'Send me a new link' }).click();
    await page.waitForURL('**/forgot-password');
    expect(errors).toEqual([]);
    await ctx.close();
    await other.close();
  });

  it('shows an expired link as invalid', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { input, user } = await signUpViaApi(ctx);
    await ctx.request.post('/api/auth/forgot-password', { data: { email: input.email } });
    const token = await tokenFromMail(input.email, 'password-reset', 'reset-password');
    await server.app.ctx.db.update(passwordResets).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(passwordResets.userId, user.id));
    const page = await ctx.newPage();
    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel('New password', { exact: true }).fill('late-password-1');
    await page.getByLabel('Confirm new password').fill('late-password-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByTestId('reset-invalid').isVisible()).toBe(true);
    // a link without a token says so at once
    await page.goto('/reset-password');
    await expect.poll(() => page.getByTestId('reset-invalid').isVisible()).toBe(true);
    await ctx.close();
  });
});

describe('account settings in a real browser', () => {
  it('changes the password (wrong current password first) and lists and ends the other sessions', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { input } = await signUpViaApi(ctx);
    const phone = await newContext(browser, server.baseUrl, { userAgent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36' });
    await loginViaApi(phone, input.email, input.password);

    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(input.email);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
    expect(await page.getByText('Chrome on Android').isVisible()).toBe(true);
    expect(await page.getByText('This device', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Signed out elsewhere');
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
    expect(await apiUser(phone)).toBeNull();
    expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);

    await loginViaApi(phone, input.email, input.password);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password', { exact: true }).fill('changed-pass-1');
    await form.getByLabel('Confirm new password').fill('changed-pass-1');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => form.getByRole('alert').first().textContent()).toBe('Your current password is incorrect.');
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Password not changed');
    expect(await apiUser(phone)).not.toBeNull();

    // ending the account's tokens and webhooks is offered, and on by default (issue 33)
    expect(await form.getByLabel(/Also revoke every API token and disable every webhook endpoint/).isChecked()).toBe(true);
    await form.getByLabel('Current password').fill(input.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Password changed');
    expect(await apiUser(phone)).toBeNull();
    expect(await apiUser(ctx)).not.toBeNull();
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    expect(errors).toEqual([]);
    await ctx.close();
    await phone.close();
  });

  it('changes the e-mail after the confirmation link is opened', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { input } = await signUpViaApi(ctx);
    const newEmail = `renamed_${Date.now()}@example.com`;
    const page = await ctx.newPage();
    await page.goto('/account');
    const form = page.getByRole('form', { name: 'Change email' });
    await form.getByLabel('New email').fill(newEmail);
    await form.getByLabel('Current password').fill(input.password);
    await form.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect.poll(() => page.getByTestId('pending-email').textContent()).toContain(newEmail);
    expect((await apiUser(ctx))!.email).toBe(input.email);

    const token = await tokenFromMail(newEmail, 'email-change', 'confirm-email');
    await page.goto(`/confirm-email?token=${token}`);
    await page.getByRole('button', { name: 'Confirm new email' }).click();
    await expect.poll(() => page.getByTestId('confirm-done').textContent()).toContain(newEmail);
    await expect.poll(() => page.getByTestId('user-email').first().textContent()).toBe(newEmail);
    await page.getByRole('link', { name: 'Back to account settings' }).click();
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(newEmail);
    expect(await page.getByTestId('pending-email').count()).toBe(0);

    // the same link again
    await page.goto(`/confirm-email?token=${token}`);
    await page.getByRole('button', { name: 'Confirm new email' }).click();
    await expect.poll(() => page.getByTestId('confirm-invalid').textContent()).toContain('invalid or has expired');
    await ctx.close();
  });

  it('sends a signed-out visitor to the login page', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/account');
    await page.waitForURL('**/login');
    await ctx.close();
  });
});

describe('your data in a real browser', () => {
  it('downloads the data, then deletes the account after the password is re-entered', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { input, user } = await signUpViaApi(ctx);
    const created = await ctx.request.post('/api/profile', { data: { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral' } });
    expect(created.status()).toBe(201);
    const profileId = (await created.json()).id as string;
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    expect((await page.goto(`/p/${profileId}`))?.status()).toBe(200);
    await page.goto('/account');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^metal-cards-account-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(data.user).toMatchObject({ id: user.id, email: input.email });
    expect(data.profile).toMatchObject({ id: profileId, fullName: 'Grace Hopper', jobTitle: 'Rear Admiral' });
    expect(data.apiTokens).toEqual([]);
    expect(data.webhookEndpoints).toEqual([]);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete your account?' }).waitFor();
    await dialog.getByLabel('Enter your password to confirm').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete account permanently' }).click();
    await expect.poll(() => dialog.getByRole('alert').first().textContent()).toBe('Your current password is incorrect.');
    expect(await apiUser(ctx)).not.toBeNull();

    // the owner of a team with another member is asked to transfer it first (issue 33)
    expect((await ctx.request.post('/api/team', { data: { name: 'Hopper Fleet' } })).status()).toBe(201);
    const [{ teamId }] = await server.app.ctx.db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, user.id));
    const mate = await signUpViaApi(await newContext(browser, server.baseUrl));
    await server.app.ctx.db.insert(teamMembers).values({ teamId, userId: mate.user.id, role: 'member' });
    await dialog.getByLabel('Enter your password to confirm').fill(input.password);
    await dialog.getByRole('button', { name: 'Delete account permanently' }).click();
    await expect.poll(() => dialog.getByTestId('delete-blocked').textContent()).toBe('Transfer ownership of Hopper Fleet before deleting your account');
    expect(await apiUser(ctx)).not.toBeNull();
    // alone in the team again: the team goes with the account
    await server.app.ctx.db.delete(teamMembers).where(eq(teamMembers.userId, mate.user.id));

    await dialog.getByRole('button', { name: 'Delete account permanently' }).click();
    // a neutral page that says so, not the sign-in page's "Welcome back" (issue 37)
    await page.waitForURL(server.baseUrl + '/account-deleted');
    await page.getByRole('heading', { level: 1, name: 'Your account was deleted' }).waitFor();
    expect(await page.getByText('Welcome back').count()).toBe(0);
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Account deleted');
    expect(await page.getByRole('link', { name: 'Sign In' }).count()).toBeGreaterThan(0);
    expect(await apiUser(ctx)).toBeNull();
    expect(await server.app.ctx.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);

    // the printed card's page now says the profile is gone
    const gone = await page.goto(`/p/${profileId}`);
    expect(gone?.status()).toBe(404);
    await expect.poll(() => page.getByText('Profile Not Found').first().isVisible()).toBe(true);

    // the address can sign up again
    await page.goto('/signup');
    await page.getByLabel('Username').fill(input.username);
    await page.getByLabel('Email', { exact: true }).fill(input.email);
    await page.getByLabel('Password', { exact: true }).fill(input.password);
    await page.getByLabel('Confirm password').fill(input.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/profile');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
