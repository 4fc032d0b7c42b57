import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { insertProfile } from '#tests/helpers/admin-factories';
import { eq } from 'drizzle-orm';
import { leads, users } from '#server/db/schema/index';
import { OWNER_PROOF_MESSAGES } from '#shared/schemas/auth';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

describe('the API reference and access tokens in a real browser', () => {
  it('renders /api/docs from our own server, under our CSP, with the operations of the document', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    const csp: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) csp.push(m.text());
    });
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.baseUrl) && !r.url().startsWith('data:')) outside.push(r.url());
    });
    await page.goto('/api/docs');
    // Swagger UI lays out 150 operations: seconds of script on a busy two-core machine
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    // Swagger UI draws a list of 150 tags and operations or more virtually (only what is near the
    // screen is in the page): scrolled from top to bottom, every operation of the document shows
    const doc = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = new Set(Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)));
    expect(expected.size).toBeGreaterThan(100);
    const seen = new Set<string>();
    const missing = () => [...expected].filter((o) => !seen.has(o));
    // top to bottom; on a busy machine the list can lag behind a scroll and a few operations pass
    // unseen, so another walk (smaller steps, longer pauses) looks again, at most three in all
    for (let walk = 0; walk < 3 && (walk === 0 || missing().length > 0); walk++) {
      await page.evaluate(() => window.scrollTo(0, 0));
      for (let step = 0; step < 2_000; step++) {
        const shown = await page.evaluate((share) => {
          const ops = [...document.querySelectorAll('.opblock')].map((o) => `${o.querySelector('.opblock-summary-method')?.textContent?.trim()} ${o.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`);
          const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
          window.scrollBy(0, Math.round(window.innerHeight * share));
          return { ops, atEnd };
        }, walk === 0 ? 0.8 : 0.4);
        for (const o of shown.ops) seen.add(o);
        if (shown.atEnd) break;
        await page.waitForTimeout(walk === 0 ? 50 : 250);
      }
    }
    expect(missing()).toEqual([]);
    expect(seen.has('GET /api/leads')).toBe(true);
    expect(await page.locator('body').textContent()).not.toContain('/api/admin/');
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
    expect(outside).toEqual([]);
    await ctx.close();
  });

  it('creates a token on the account page, copies it, reads the leads with it, revokes it', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const { user, input } = await signUpViaApi(ctx);
    const profile = await insertProfile(server.app, user.id);
    await server.app.ctx.db.insert(leads).values({ profileId: profile.id, name: 'Grace Hopper', email: 'grace@example.com', consent: true });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Developer' }).waitFor();
    expect(await page.getByRole('link', { name: 'Read the API reference' }).getAttribute('href')).toBe('/api/docs');
    // an unverified address cannot create one, and is told why (issue 33)
    await page.getByTestId('token-verify-first').waitFor();
    expect(await page.getByTestId('token-verify-first').textContent()).toBe(OWNER_PROOF_MESSAGES.verifyFirst);
    expect(await page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    await server.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    await page.reload();
    await page.getByRole('heading', { name: 'Developer' }).waitFor();
    // a name is required
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => page.getByText('Please give the token a name').count()).toBeGreaterThan(0);
    await page.getByLabel('Token name').fill('CRM sync');
    await page.getByLabel(/stats:read/).click();
    await page.getByLabel('Expires').selectOption('30');
    // the password confirms it is the owner: a wrong one is refused on the field
    await page.getByLabel('Your password, to confirm this token').fill('not-my-password');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => page.getByText(OWNER_PROOF_MESSAGES.wrongPassword).count()).toBeGreaterThan(0);
    await page.getByLabel('Your password, to confirm this token').fill(input.password);
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretBox = page.getByTestId('token-secret');
    await secretBox.waitFor();
    const secret = (await secretBox.textContent())!.trim();
    expect(secret).toMatch(/^mc_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByTestId('new-token').textContent()).toContain('it will not be shown again');
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // the list shows the token without its secret
    const row = page.getByTestId('token-row').filter({ hasText: 'CRM sync' });
    await row.waitFor();
    expect(await row.textContent()).toContain('leads:read');
    expect(await row.textContent()).toContain('stats:read');
    expect(await row.textContent()).toContain(secret.slice(0, 9));
    expect(await page.locator('body').textContent()).toContain('Last used never');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByTestId('token-secret').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain(secret);

    // a script (no cookie, just the token) reads the leads
    const res = await fetch(`${server.baseUrl}/api/leads`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('grace@example.com');
    await page.reload();
    await expect.poll(() => row.textContent()).not.toContain('Last used never');

    // revoke (with a confirmation), then the same call answers 401
    await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await expect.poll(() => toastLocator(page).first().textContent()).toContain('Token revoked');
    await expect.poll(() => page.getByTestId('token-row').count()).toBe(0);
    const after = await fetch(`${server.baseUrl}/api/leads`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { message: string }).message).toBe('Invalid or expired API token');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the Developer section fits a 360 px phone', async () => {
    const ctx = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const { user, input } = await signUpViaApi(ctx);
    await server.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    const page = await ctx.newPage();
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Developer' }).waitFor();
    await page.getByLabel('Token name').fill('Phone');
    await page.getByLabel('Your password, to confirm this token').fill(input.password);
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByTestId('token-secret').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await ctx.close();
  });
});
