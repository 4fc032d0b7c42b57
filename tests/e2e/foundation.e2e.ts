import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, MOBILE, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { userInput } from '#tests/helpers/factories';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

describe('shell and accounts in a real browser', () => {
  it('signs up, lands on /profile, shows the e-mail, signs out', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/signup');
    await expect.poll(() => page.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
    const u = userInput();
    await page.getByLabel('First name').fill(u.firstName);
    await page.getByLabel('Username').fill(u.username);
    await page.getByLabel('Email', { exact: true }).fill(u.email);
    await page.getByLabel('Password', { exact: true }).fill(u.password);
    await page.getByLabel('Confirm password').fill(u.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/profile');
    await expect.poll(() => page.getByTestId('user-email').first().textContent()).toBe(u.email);
    // signed-in links
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Profile' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    // the sign-out request, then the home page's code (a lazy chunk): at a load of 11 on CI's two
    // cores this took over 20 s once
    await page.waitForURL(server.baseUrl + '/', { timeout: 60_000 }).catch(async (e) => {
      // what the page said instead (a toast, the URL), so a failure names its cause
      throw new Error(`${(e as Error).message}; at ${page.url()}; toasts: ${(await toastLocator(page).allTextContents()).join(' | ')}`);
    });
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Logged out successfully');
    expect(await nav.getByRole('link', { name: 'Profile' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign In' }).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('logs in, and shows the wrong-password message', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { input } = await signUpViaApi(ctx);
    await ctx.clearCookies();
    const page = await ctx.newPage();
    await page.goto('/login');
    await expect.poll(() => page.getByRole('tab', { name: 'Login' }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Email', { exact: true }).fill(input.email);
    await page.getByLabel('Password', { exact: true }).fill('definitely-wrong');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Invalid email or password');
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Login failed');
    await page.getByLabel('Password', { exact: true }).fill(input.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL('**/profile');
    await ctx.close();
  });

  it('shows validation messages before calling the server', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Please fill in all required fields.');
    await page.getByLabel('Username').fill('someone');
    await page.getByLabel('Email', { exact: true }).fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('abcdef');
    await page.getByLabel('Confirm password').fill('abcdeg');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText("Passwords don't match").first().isVisible()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm password').fill('abc');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Password too short');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Please enter your email and password.');
    await ctx.close();
  });

  it('keeps the theme across a reload (dark by default)', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/about');
    expect(await page.evaluate(() => document.documentElement.className)).toContain('dark');
    await page.getByRole('radio', { name: 'Light theme' }).click();
    expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('light');
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('light'))).toBe(true);
    await ctx.close();
  });

  it('opens the side menu on a phone and closes it when a link is chosen', async () => {
    const ctx = await newContext(browser, server.baseUrl, MOBILE);
    const page = await ctx.newPage();
    await page.goto('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await menu.waitFor();
    await menu.getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await menu.waitFor({ state: 'detached' });
    await ctx.close();
  });

  it('answers unknown paths with the 404 page', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const res = await page.goto('/definitely/not/here');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText("The page you're looking for could not be found. It might have been removed, renamed, or doesn't exist.").isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(server.baseUrl + '/');
    await ctx.close();
  });

  it('footer: subscribe stores the address and thanks the visitor; copyright has the year', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/about');
    await page.getByLabel('Email address').fill(`news_${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Thanks for subscribing!');
    expect(await page.locator('footer').textContent()).toContain(`© ${new Date().getFullYear()}`);
    for (const id of ['deuteranopia', 'protanopia', 'tritanopia']) expect(await page.locator(`filter#${id}`).count()).toBe(1);
    await ctx.close();
  });
});
