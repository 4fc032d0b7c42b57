import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { cardCodes, outbox, users } from '#server/db/schema/index';
import { LOCKED_FIELD_MESSAGE } from '#shared/team/brand';
import { TEAM_LEADS_CSV_HEADERS } from '#shared/schemas/team';

/**
 * A company owner in one sitting (issue 21): creates the team, brands it, imports 20 people from a
 * CSV; one of them accepts from the e-mail with a new account and finds the locked fields; the
 * owner orders the team's cards in one order, staff approve the batch, the owner sees analytics and
 * exports the leads; removing the person turns their card into the company's page.
 */
let server: BrowserServer;
let browser: Browser;
let owner: BrowserContext;
let staff: BrowserContext;
const tag = crypto.randomBytes(3).toString('hex');
const people = Array.from({ length: 20 }, (_, i) => ({ name: `Person ${i} Smith`, email: `p${i}_${tag}@example.com` }));

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  owner = await newContext(browser, server.baseUrl);
  await signUpViaApi(owner, { firstName: 'Olga', lastName: 'Owner' });
  staff = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(staff, { firstName: 'Shop', lastName: 'Floor' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
const db = () => server.app.ctx.db;

async function inviteLink(email: string): Promise<string> {
  let body = '';
  await poll(async () => {
    const [m] = await db().select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
    body = m?.textBody ?? '';
    return body.length > 0;
  }).toBe(true);
  return new URL(/(https?:\/\/\S+\/team\/join\/[A-Za-z0-9_-]+)/.exec(body)![1]).pathname;
}

async function tab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
}

describe('teams in a real browser', () => {
  it('create, brand, import 20 people, one accepts and sees the locked fields, one order, batch approval, analytics, leads, offboarding', async () => {
    const page = await owner.newPage();
    const errors = trackPageErrors(page);
    page.on('dialog', (d) => void d.accept());
    await page.goto('/team');
    await page.locator('#team-name').fill('Globex');
    await page.locator('#team-companyName').fill('Globex Corporation');
    await page.locator('#team-companyPhone').fill('+1 212 555 0142');
    await page.locator('#team-address').fill('1 Globex Plaza, New York, NY');
    await page.locator('#team-website').fill('https://globex.test');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Globex' }).count()).toBe(1);

    // brand: a colour and a locked company name
    await tab(page, 'Brand');
    await page.locator('#brand-primary').fill('#0b3d2e');
    await page.getByRole('checkbox', { name: 'Company name' }).check();
    await page.getByRole('button', { name: 'Save brand' }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('Brand saved');

    // import 20 people from a CSV
    await tab(page, 'Members');
    const csv = ['Name,Email,Job Title,Phone', ...people.map((p, i) => `${p.name},${p.email},Engineer,+1 212 555 01${String(i).padStart(2, '0')}`)].join('\n');
    await page.getByTestId('team-import').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await poll(() => page.getByTestId('import-report').textContent()).toContain('20 invited, 0 refused, of 20 rows');
    await poll(() => page.getByTestId('team-invite').count()).toBe(20);

    // Person 0 accepts from the e-mail with a new account
    const joiner = await newContext(browser, server.baseUrl);
    const jp = await joiner.newPage();
    await jp.goto(await inviteLink(people[0].email));
    // the invitation knows the address and the name: only a password is asked (issue 37, decision 37-09)
    await jp.getByText(people[0].email, { exact: true }).waitFor();
    expect(await jp.locator('#su-username, #su-email, #join-name').count()).toBe(0);
    await jp.locator('#join-password').fill('violet-harbor-93');
    await jp.getByRole('button', { name: 'Create account and join Globex' }).click();
    await jp.waitForURL(/\/team$/);
    // the link proved the address: nothing asks to verify it
    await jp.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await jp.getByTestId('verify-email-banner').count()).toBe(0);
    await jp.goto('/profile');
    await poll(() => jp.getByTestId('locked-field').first().textContent()).toContain(LOCKED_FIELD_MESSAGE);
    await expect.poll(() => jp.locator('#companyName').inputValue()).toBe('Globex Corporation');

    // one order for the team: the member with a profile, 100 cards
    await page.reload();
    await tab(page, 'Cards');
    await page.getByRole('button', { name: 'Everyone, 100 each' }).click();
    // the one delivery's address (issue 35): left empty, the server names each missing part beside it
    await page.getByRole('button', { name: /Order 100 cards for 1 person/ }).click();
    await poll(() => page.getByRole('alert').filter({ hasText: 'Enter the street address' }).count()).toBe(1);
    await page.getByLabel('Recipient name', { exact: true }).fill('Globex Front Desk');
    await page.getByLabel('Street address', { exact: true }).fill('1 Globex Plaza');
    await page.getByLabel('City', { exact: true }).fill('New York');
    await page.getByLabel('State', { exact: true }).fill('NY');
    await page.getByLabel('ZIP / postal code', { exact: true }).fill('10001');
    await page.getByRole('button', { name: /Order 100 cards for 1 person/ }).click();
    await poll(() => page.getByTestId('team-card').count()).toBe(1);
    await expect.poll(() => page.getByTestId('team-card').first().textContent()).toContain('In review');

    // staff approve the batch
    const sp = await staff.newPage();
    await sp.goto('/admin?tab=card-reviews');
    await sp.getByRole('button', { name: 'Approve all 1' }).click();
    await poll(() => toastLocator(sp).first().textContent()).toContain('1 design approved');
    await page.reload();
    await tab(page, 'Cards');
    await poll(() => page.getByTestId('team-card').first().textContent()).toContain('Approved');

    // a visitor scans Person 0's card and leaves a lead; the owner sees it and exports it
    const [teamCode] = await db().select().from(cardCodes).where(like(cardCodes.label, 'Team order #%'));
    const codeText = teamCode.code;
    expect(await page.getByTestId('team-card').first().textContent()).toContain(`/c/${codeText}`);
    const visitor = await newContext(browser, server.baseUrl);
    const vp = await visitor.newPage();
    await vp.goto(`/c/${codeText}`);
    await vp.waitForURL(/\/p\/[a-z0-9]+/);
    await vp.locator('summary', { hasText: 'Share your contact' }).click();
    await vp.locator('.ce-form input[name=name]').fill('Carla Client');
    await vp.locator('.ce-form input[name=email]').fill('carla@client.test');
    await vp.getByRole('checkbox').check();
    await vp.getByRole('button', { name: 'Send my details' }).click();
    await vp.waitForURL(/thanks/);
    await tab(page, 'Leads');
    await poll(() => page.getByTestId('team-leads').textContent()).toContain('Carla Client');
    const exported = await owner.request.get('/api/team/leads.csv');
    expect(exported.status()).toBe(200);
    expect((await exported.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(TEAM_LEADS_CSV_HEADERS.map((h) => `"${h}"`).join(','));
    await tab(page, 'Analytics');
    await poll(() => page.getByTestId('team-ranking').textContent()).toContain('Person 0 Smith');

    // removing Person 0 turns their card into the company's page
    await tab(page, 'Members');
    await page.getByTestId('team-member').filter({ hasText: people[0].email }).getByRole('button', { name: 'Remove' }).click();
    await poll(() => page.getByTestId('team-member').count()).toBe(1);
    const [row] = await db().select().from(cardCodes).where(eq(cardCodes.code, codeText));
    expect(row.active).toBe(false);
    const res = await vp.goto(`/c/${codeText}`);
    expect(res?.status()).toBe(410);
    expect(await vp.locator('h1').textContent()).toBe('Globex Corporation');
    expect(await vp.content()).not.toContain('Person 0 Smith');
    expect(errors).toEqual([]);
  });
});
