import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { decodeQrSvg } from '#tests/helpers/qr-decode';
import { users } from '#server/db/schema/index';
import { totpCode, totpStep } from '#server/features/auth/totp';

/**
 * Issue 39 in Chromium: an admin (STAFF_TWO_FACTOR=required) signs in, is sent to set up an
 * authenticator app (QR code, first code, recovery codes), and the staff area opens; a user adds a
 * passkey on Chromium's virtual authenticator (DevTools protocol, WebAuthn domain), names it, and
 * signs in with it from the sign-in page, and as the second step after a password.
 */
let server: BrowserServer;
let browser: Browser;
// WebAuthn needs a domain (an IP address is not a valid relying party id): the same server as localhost
let base: string;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite({ STAFF_TWO_FACTOR: 'required' }));
  base = server.baseUrl.replace('127.0.0.1', 'localhost');
});
afterAll(() => closeBrowserSuite({ server, browser }));

async function sessionEmail(ctx: BrowserContext): Promise<string | null> {
  const res = await ctx.request.get('/api/auth/session');
  return ((await res.json()) as { user: { email: string } | null }).user?.email ?? null;
}

/** A virtual platform authenticator (resident keys, user verification that always succeeds) on this page. */
async function addVirtualAuthenticator(ctx: BrowserContext, page: Page) {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.locator('#li-email').fill(email);
  await page.locator('#li-password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

describe('two-factor sign-in in a real browser', () => {
  it('an admin without a factor is sent to set one up: QR code, first code, recovery codes, then the staff area opens', async () => {
    const ctx = await newContext(browser, base);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    const { input, user } = await signUpViaApi(ctx);
    await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    await ctx.clearCookies();

    await signInThroughForm(page, input.email, input.password);
    await page.waitForURL(/\/account/);
    await expect.poll(() => page.getByTestId('staff-setup-required').isVisible()).toBe(true);
    await page.goto('/admin');
    await expect.poll(() => page.getByTestId('staff-two-factor-required').isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Go to sign-in security' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    // the QR code, read by an independent decoder, carries the otpauth URI with this secret
    const src = (await qr.getAttribute('src'))!;
    const decoded = decodeQrSvg(decodeURIComponent(src.slice(src.indexOf(',') + 1)));
    expect(decoded).toMatch(/^otpauth:\/\/totp\/Metal%20Cards:/);
    expect(new URL(decoded!).searchParams.get('secret')).toBe(secret);

    await page.locator('#totp-code').fill('000000' === totpCode(secret, totpStep()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.locator('#totp-code-error, [id="totp-code"][aria-invalid="true"]').count()).toBeGreaterThan(0);
    await page.locator('#totp-code').fill(totpCode(secret, totpStep()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    await expect.poll(() => page.getByTestId('totp-state').textContent()).toBe('On');
    const recovery = (await codes.first().textContent())!.trim();

    await page.goto('/admin');
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('staff-two-factor-required').count()).toBe(0);

    // a new sign-in asks for the code; a recovery code works once
    await ctx.clearCookies();
    await signInThroughForm(page, input.email, input.password);
    await page.locator('#li-code').fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/profile/);
    expect(await sessionEmail(ctx)).toBe(input.email);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('passkeys in a real browser (virtual authenticator)', () => {
  it('adds and names a passkey, signs in with it from the sign-in page, and uses it as the second step', async () => {
    const ctx = await newContext(browser, base);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(ctx, page);
    const { input } = await signUpViaApi(ctx);

    await page.goto('/account');
    await page.locator('#pk-new-name').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const row = page.getByTestId('passkey-row');
    await expect.poll(() => row.count()).toBe(1);
    const nameInput = row.first().locator('input');
    await expect.poll(() => nameInput.inputValue()).toBe('Test laptop');
    // the authenticator holds one discoverable credential for this site
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    await nameInput.fill('Work laptop');
    await row.first().getByRole('button', { name: 'Save name' }).click();
    await expect.poll(async () => (await (await ctx.request.get('/api/account/passkeys')).json()).passkeys[0].name).toBe('Work laptop');

    // signed out: the sign-in page asks for passkeys through the e-mail field's autofill (conditional
    // mediation), which the virtual authenticator, always "present", answers at once
    await ctx.clearCookies();
    await page.goto('/login');
    await page.waitForURL(/\/profile/);
    expect(await sessionEmail(ctx)).toBe(input.email);

    // with no one at the authenticator, the autofill request waits; the button's own request
    // replaces it once someone is there
    const presence = (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
    await ctx.clearCookies();
    await presence(false);
    await page.goto('/login');
    expect(await page.locator('#li-email').getAttribute('autocomplete')).toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    expect(await sessionEmail(ctx)).toBeNull();
    await presence(true);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/profile/);
    expect(await sessionEmail(ctx)).toBe(input.email);

    // with a passkey on the account, a password sign-in asks for it as the second step
    await ctx.clearCookies();
    await presence(false);
    await signInThroughForm(page, input.email, input.password);
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    expect(await sessionEmail(ctx)).toBeNull();
    await presence(true);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/profile/);
    expect(await sessionEmail(ctx)).toBe(input.email);

    // removed: it no longer signs in
    await page.goto('/account');
    await page.getByTestId('passkey-row').first().getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('passkey-row').count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
