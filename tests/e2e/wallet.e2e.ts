import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import type { Browser, BrowserContext } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, startBrowserServer, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { makeWalletCredentials, unzipToDir, verifyPassSignature, type WalletTestCredentials } from '#tests/helpers/wallet-certs';
import { GOOGLE_WALLET_SAVE_URL } from '#shared/schemas/wallet';

/**
 * Wallet passes in a real browser (issue 23): with wallet settings the owner sees both buttons on
 * the dashboard, Apple's downloads a signed .pkpass and Google's opens the save page (intercepted:
 * the test never leaves the machine); without settings there are no buttons.
 */

let creds: WalletTestCredentials;
let server: BrowserServer;
let plain: BrowserServer | undefined;
let browser: Browser;

beforeAll(async () => {
  creds = makeWalletCredentials();
  ({ server, browser } = await openBrowserSuite(creds.env));
});
afterAll(async () => {
  await plain?.close();
  await closeBrowserSuite({ server, browser });
  creds?.remove();
});

async function ownerContext(baseUrl: string, opts: Parameters<typeof newContext>[2] = {}): Promise<{ ctx: BrowserContext; profileId: string }> {
  const ctx = await newContext(browser, baseUrl, { acceptDownloads: true, ...opts });
  await signUpViaApi(ctx);
  const res = await ctx.request.post('/api/profile', {
    data: { fullName: 'Morgan Steel', jobTitle: 'Founder', phoneNumber: '+1 (212) 555-0142', companyName: 'Steel & Sons', email: 'morgan@example.com' },
  });
  expect(res.status()).toBe(201);
  return { ctx, profileId: ((await res.json()) as { id: string }).id };
}

describe('wallet buttons', () => {
  it('the owner adds their card to Apple Wallet (a signed .pkpass) and to Google Wallet (the save link)', async () => {
    const { ctx, profileId } = await ownerContext(server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/dashboard');
    const apple = page.getByRole('link', { name: 'Add to Apple Wallet' });
    const google = page.getByRole('link', { name: 'Save to Google Wallet' });
    await apple.waitFor();
    await google.waitFor();

    // Apple: the link downloads the pass, signed and with the owner's card in it
    const [download] = await Promise.all([page.waitForEvent('download'), apple.click()]);
    expect(download.suggestedFilename()).toBe('Morgan Steel.pkpass');
    const file = await download.path();
    const dir = path.join(creds.dir, 'e2e-pass');
    const names = unzipToDir(fs.readFileSync(file!), dir);
    expect(names).toEqual(expect.arrayContaining(['pass.json', 'manifest.json', 'signature', 'icon.png']));
    expect(verifyPassSignature(dir, creds.caPem)).toBeNull();
    const pass = JSON.parse(fs.readFileSync(path.join(dir, 'pass.json'), 'utf8'));
    expect(pass.generic.primaryFields[0].value).toBe('Morgan Steel');
    expect(pass.barcodes[0].message).toBe(`${server.baseUrl}/p/${profileId}`);

    // Google: the link opens Google's save page in a new tab (answered here, never fetched)
    await ctx.route('https://pay.google.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Google Wallet stand-in</title>' }));
    const [popup] = await Promise.all([ctx.waitForEvent('page'), google.click()]);
    await popup.waitForLoadState();
    const url = popup.url();
    expect(url.startsWith(GOOGLE_WALLET_SAVE_URL)).toBe(true);
    const claims = decodeJwt(url.slice(GOOGLE_WALLET_SAVE_URL.length)) as { iss: string; aud: string; origins: string[]; payload: { genericObjects: any[] } };
    expect(claims).toMatchObject({ iss: creds.serviceAccountEmail, aud: 'google', origins: [server.baseUrl] });
    expect(claims.payload.genericObjects[0].header.defaultValue.value).toBe('Morgan Steel');
    expect(claims.payload.genericObjects[0].barcode.value).toBe(`${server.baseUrl}/p/${profileId}`);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the buttons fit a 360 px phone, and a user without a profile sees none', async () => {
    const { ctx } = await ownerContext(server.baseUrl, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    await page.goto('/dashboard');
    const box = page.getByTestId('wallet-buttons');
    await page.getByRole('link', { name: 'Save to Google Wallet' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const name of ['Add to Apple Wallet', 'Save to Google Wallet']) {
      const b = await box.getByRole('link', { name }).boundingBox();
      expect(b!.x).toBeGreaterThanOrEqual(0);
      expect(b!.x + b!.width).toBeLessThanOrEqual(360);
    }
    await ctx.close();

    const newcomer = await newContext(browser, server.baseUrl);
    await signUpViaApi(newcomer);
    const p2 = await newcomer.newPage();
    await p2.goto('/dashboard');
    await p2.getByRole('link', { name: 'Create Profile' }).waitFor();
    expect(await p2.getByTestId('wallet-buttons').count()).toBe(0);
    await newcomer.close();
  });

  it('without wallet settings the buttons are absent and the pass answers 404', async () => {
    plain = await startBrowserServer();
    const { ctx } = await ownerContext(plain.baseUrl);
    const page = await ctx.newPage();
    const status = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/wallet');
    await page.goto('/dashboard');
    expect(await (await status).json()).toEqual({ apple: false, google: false });
    await page.getByTestId('profile-status').waitFor();
    // the answer has been rendered (a short settle: absence has no event to wait for)
    await page.waitForTimeout(300);
    expect(await page.getByTestId('wallet-buttons').count()).toBe(0);
    expect(await page.getByText('Add to Apple Wallet').count()).toBe(0);
    const pass = await ctx.request.get('/api/wallet/apple.pkpass');
    expect(pass.status()).toBe(404);
    expect(await pass.json()).toEqual({ message: 'Apple Wallet passes are not set up on this server' });
    await ctx.close();
  });
});
