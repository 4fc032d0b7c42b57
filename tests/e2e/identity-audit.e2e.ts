import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { users } from '#server/db/schema/index';
import { SCIM_SCHEMAS } from '#shared/schemas/scim';

/**
 * Issue 39 items 4 and 5 in a real browser: a team owner's directory provisions and offboards a
 * person (SCIM, over HTTP); the owner reads the team's audit log, filters it, exports it, changes
 * the provisioning rules on the Provisioning tab and sees that change logged; staff read the
 * whole log and search it by address.
 */
let server: BrowserServer;
let browser: Browser;
let owner: BrowserContext;
let staff: BrowserContext;
let secret = '';
let ownerPassword = '';
const tag = crypto.randomBytes(3).toString('hex');
const person = `pat_${tag}@initrode.test`;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  owner = await newContext(browser, server.baseUrl);
  owner.setDefaultTimeout(60_000);
  const o = await signUpViaApi(owner, { firstName: 'Olga', lastName: 'Owner' });
  ownerPassword = o.input.password;
  await server.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, o.user.id));
  expect((await owner.request.post('/api/team', { data: { name: 'Initrode', companyName: 'Initrode Inc' } })).status()).toBe(201);
  const tok = await owner.request.post('/api/tokens', { data: { name: 'Entra ID', scopes: ['scim'], expiresInDays: null, team: true, password: o.input.password } });
  expect(tok.status()).toBe(201);
  secret = (await tok.json()).secret;
  staff = await newContext(browser, server.baseUrl);
  staff.setDefaultTimeout(60_000);
  const s = await signUpViaApi(staff, { firstName: 'Shop', lastName: 'Staff' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, s.user.id));
});
afterAll(() => closeBrowserSuite({ server, browser }));

// generous: six people share two cores here, and a page's first load can wait behind their tests
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000 });

/** The identity provider's requests, over real HTTP. */
async function scim(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: res.status === 204 ? null : await res.json() };
}

describe('the identity audit log in a browser', () => {
  it('the owner reads, filters and exports the team log and changes the provisioning rules; staff search the whole log', async () => {
    const created = await scim('POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: person, name: { givenName: 'Pat', familyName: 'Park' }, title: 'Analyst', active: true });
    expect(created.status).toBe(201);
    const off = await scim('PATCH', `/Users/${created.json.id}`, { schemas: [SCIM_SCHEMAS.patch], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(off.status).toBe(200);

    const page = await owner.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/team?tab=audit');
    const log = page.getByTestId('audit-log');
    await poll(() => log.locator('tr[data-kind="scim-user-created"]').count()).toBe(1);
    await poll(() => log.locator('tr[data-kind="scim-user-deactivated"]').getByText(person).count()).toBe(1);
    // filter by event
    await page.getByLabel('Event').selectOption('scim-user-deactivated');
    await poll(() => log.locator('tbody tr').count()).toBe(1);
    await poll(() => log.locator('tbody tr').first().getAttribute('data-kind')).toBe('scim-user-deactivated');
    // the CSV export follows the filter and downloads
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^team-audit-log-\d{4}-\d{2}-\d{2}\.csv$/);

    // provisioning: the rule of a field, saved, is in the log
    await page.getByRole('tab', { name: 'Provisioning' }).click();
    await poll(() => page.getByTestId('scim-base-url').textContent()).toBe(`${server.baseUrl}/scim/v2`);
    // a second SCIM token made on the tab: its secret is shown once and works at /scim/v2
    await page.getByLabel('Your password').fill(ownerPassword);
    await page.getByRole('button', { name: 'Create SCIM token' }).click();
    const shown = (await page.getByTestId('scim-token-secret').textContent())!.trim();
    expect(shown).toMatch(/^mc_/);
    await poll(() => page.getByTestId('scim-tokens').locator('li').count()).toBe(2);
    const probe = await fetch(`${server.baseUrl}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${shown}` } });
    expect(probe.status).toBe(200);
    await page.getByLabel('Job title').selectOption('never');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => toastLocator(page).textContent()).toContain('Provisioning settings saved');
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByLabel('Event').selectOption('scim-settings-changed');
    await poll(() => log.locator('tr[data-kind="scim-settings-changed"]').textContent()).toContain('jobTitle: never');
    expect(errors).toEqual([]);

    // staff: the whole log, searched by address
    const admin = await staff.newPage();
    const adminErrors = trackPageErrors(admin);
    await admin.goto('/admin?tab=audit');
    await admin.getByLabel('E-mail address').fill(person);
    await admin.getByRole('button', { name: 'Search' }).click();
    const all = admin.getByTestId('audit-log');
    await poll(() => all.locator('tbody tr').count()).toBe(2);
    await poll(async () => (await all.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')))).sort()).toEqual(['scim-user-created', 'scim-user-deactivated']);
    expect(adminErrors).toEqual([]);
  });
});
