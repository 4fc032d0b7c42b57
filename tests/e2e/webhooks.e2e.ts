import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { passwordResets, users } from '#server/db/schema/index';
import { sha256Hex } from '#server/infra/crypto';
import { OWNER_PROOF_MESSAGES } from '#shared/schemas/auth';

/** A receiver on loopback (reached through WEBHOOK_ALLOW_PRIVATE_NETWORKS, as in local development). */
const got: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    got.push({ headers: req.headers, body });
    res.end('ok');
  });
});

/** Standard Webhooks signature, checked with node:crypto (not the signing library). */
function signedWith(secret: string, r: { headers: http.IncomingHttpHeaders; body: string }) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

let server: BrowserServer;
let browser: Browser;
let hookUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  ({ server, browser } = await openBrowserSuite({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }));
});
/** creating an endpoint needs a verified address (issue 33) */
const verify = (userId: string) => server.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId));

afterAll(async () => {
  await closeBrowserSuite({ server, browser });
  await new Promise<void>((r) => receiver.close(() => r()));
});

describe('webhooks on the account page', () => {
  it('adds an endpoint, shows the secret once, sends a test, shows the log, redelivers, gets a lead, edits and deletes — on a 360 px phone', async () => {
    const ctx = await newContext(browser, server.baseUrl, { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const { user, input } = await signUpViaApi(ctx);
    const made = await ctx.request.post('/api/profile', { data: { fullName: 'Grace Hopper', jobTitle: 'Engineer', email: 'grace@example.com' } });
    expect(made.status()).toBe(201);
    const profile = (await made.json()) as { id: string };
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/account');
    const section = page.getByTestId('webhooks-section');
    await section.getByRole('heading', { name: 'Webhooks' }).waitFor();
    // an unverified address is told why it cannot add one (issue 33)
    await section.getByTestId('webhook-verify-first').waitFor();
    expect(await section.getByTestId('webhook-verify-first').textContent()).toBe(OWNER_PROOF_MESSAGES.verifyFirst);
    await verify(user.id);
    await page.reload();
    await section.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Your password, to confirm this endpoint').fill(input.password);

    // refused address: the field says why
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => section.getByText('Enter an http:// or https:// address').count()).toBeGreaterThan(0);

    await page.getByLabel('Endpoint URL').fill(hookUrl);
    await page.getByLabel('Description').fill('My CRM');
    await page.getByLabel(/order\.created/).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretBox = page.getByTestId('webhook-secret-value');
    await secretBox.waitFor();
    const secret = (await secretBox.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect.poll(() => page.getByTestId('webhook-secret').count()).toBe(0);

    const item = page.getByTestId('webhook-endpoint');
    await expect.poll(() => item.textContent()).toContain('Enabled');
    expect(await item.textContent()).toContain('lead.created, order.created');

    // test event: received, signed; the log shows it delivered with the answer code
    await item.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => got.length).toBe(1);
    expect(signedWith(secret, got[0])).toBe(true);
    expect(JSON.parse(got[0].body).type).toBe('webhook.test');
    const log = page.getByTestId('delivery-log');
    await log.waitFor();
    await expect.poll(() => log.getByTestId('delivery').first().textContent(), { timeout: 20_000 }).toContain('Delivered');
    expect(await log.getByTestId('delivery-code').first().textContent()).toBe('200');

    // redeliver: the same message again
    await log.getByRole('button', { name: 'Redeliver' }).first().click();
    await expect.poll(() => got.length).toBe(2);
    expect(got[1].headers['webhook-id']).toBe(got[0].headers['webhook-id']);

    // a visitor leaves their details: a signed lead.created arrives
    const lead = await ctx.request.post(`/api/p/${profile.id}/leads`, { data: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0018', company: 'Analytical Engines', note: 'Hello', consent: true } });
    expect(lead.status(), await lead.text()).toBe(201);
    await expect.poll(() => got.length).toBe(3);
    expect(signedWith(secret, got[2])).toBe(true);
    expect(JSON.parse(got[2].body)).toMatchObject({ type: 'lead.created', data: { lead: { name: 'Ada Lovelace' } } });

    // fits the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // edit events
    await item.getByRole('button', { name: 'Edit events' }).click();
    await item.getByLabel(/order\.created/).uncheck();
    await item.getByLabel(/card\.approved/).check();
    await item.getByRole('button', { name: 'Save events' }).click();
    await expect.poll(() => item.textContent()).toContain('lead.created, card.approved');

    // disable, enable
    await item.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => item.textContent()).toContain('Disabled');
    await item.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => item.textContent()).toContain('Enabled');

    // delete with a confirmation
    page.once('dialog', (d) => void d.accept());
    await item.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('webhook-endpoint').count()).toBe(0);
    await section.getByText('No endpoints yet.').waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("lets a team's owner add an endpoint for the team", async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { user, input } = await signUpViaApi(ctx);
    await verify(user.id);
    expect((await ctx.request.post('/api/team', { data: { name: 'Hopper Labs' } })).status()).toBe(201);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/account');
    await page.getByLabel('Events of').selectOption('team');
    await page.getByLabel('Endpoint URL').fill(hookUrl);
    await page.getByLabel('Your password, to confirm this endpoint').fill(input.password);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByTestId('webhook-secret-value').waitFor();
    const item = page.getByTestId('webhook-endpoint');
    await expect.poll(() => item.textContent()).toContain('Team');
    const list = await ctx.request.get('/api/webhooks');
    expect((await list.json()).endpoints[0].teamId).toBeTruthy();

    // a password reset turns it off; signed in again, the owner sees why and re-enables it (issue 33)
    const token = crypto.randomBytes(32).toString('base64url');
    await server.app.ctx.db.insert(passwordResets).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + 3600_000) });
    const reset = await ctx.request.post('/api/auth/reset-password', { data: { token, password: 'new-owner-pass-1', confirmPassword: 'new-owner-pass-1' } });
    expect(reset.status()).toBe(200);
    await page.reload();
    await expect.poll(() => item.getByTestId('webhook-disabled-reason').textContent()).toContain('Disabled after a password reset');
    await item.getByRole('button', { name: 'Re-enable' }).click();
    await expect.poll(() => item.textContent()).toContain('Enabled');
    expect(await item.getByTestId('webhook-disabled-reason').count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
