import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { startDnsStandin, type DnsStandin } from '#tests/helpers/dns-standin';
import { startOidcStandin, type OidcStandin } from '#tests/helpers/oidc-standin';
import { teamMembers, users } from '#server/db/schema/index';

/**
 * Team single sign-on with OpenID Connect in Chromium (issue 39 item 3, decision 39-03): the owner
 * proves the company domain (a local DNS server answers the TXT record) and connects a real
 * OpenID provider (`oidc-provider` on 127.0.0.1) on the Single sign-on tab; a person of that
 * domain types their address on the sign-in page, presses "Continue with SSO", signs in at the
 * provider and lands in the app as a new member of the team.
 */
let server: BrowserServer;
let browser: Browser;
let dns: DnsStandin;
let idp: OidcStandin;
let owner: BrowserContext;
const domain = `initech-${crypto.randomBytes(3).toString('hex')}.test`;

beforeAll(async () => {
  dns = await startDnsStandin();
  ({ server, browser } = await openBrowserSuite({ SSO_DNS_RESOLVER: dns.address, SSO_ALLOW_PRIVATE_NETWORKS: 'true' }));
  idp = await startOidcStandin([`${server.baseUrl}/api/auth/sso/oidc/callback`]);
  idp.accounts.set('peter', { email: `peter@${domain}`, email_verified: true, name: 'Peter Gibbons', given_name: 'Peter', family_name: 'Gibbons', job_title: 'Programmer' });
  owner = await newContext(browser, server.baseUrl);
  owner.setDefaultTimeout(60_000);
  const o = await signUpViaApi(owner, { firstName: 'Bill', lastName: 'Lumbergh' });
  await server.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, o.user.id));
  expect((await owner.request.post('/api/team', { data: { name: 'Initech', companyName: 'Initech Inc' } })).status()).toBe(201);
}, 180_000);
afterAll(async () => {
  await closeBrowserSuite({ server, browser });
  await idp?.close();
  await dns?.close();
});

describe('single sign-on in a browser', () => {
  it('the owner proves the domain and connects the provider; a person signs in with "Continue with SSO"', async () => {
    const page = await owner.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/team?tab=sso');
    await page.getByLabel('Domain', { exact: true }).fill(domain);
    await page.getByRole('button', { name: 'Add domain', exact: true }).click();
    const txtValue = (await page.getByTestId('sso-txt-value').textContent({ timeout: 60_000 }))!.trim();
    expect(await page.getByTestId('sso-txt-name').textContent()).toBe(`_cards-verification.${domain}`);
    dns.txt.set(`_cards-verification.${domain}`, [txtValue]);
    await page.getByRole('button', { name: `Verify ${domain}`, exact: true }).click();
    await expect.poll(() => page.getByTestId(`sso-domain-${domain}`).textContent(), { timeout: 60_000 }).toContain('Verified');

    expect(await page.getByTestId('sso-redirect-uri').textContent()).toBe(`${server.baseUrl}/api/auth/sso/oidc/callback`);
    await page.getByLabel('Issuer URL', { exact: true }).fill(idp.issuer);
    await page.getByLabel('Client ID', { exact: true }).fill(idp.clientId);
    await page.getByLabel('Client secret', { exact: true }).fill(idp.clientSecret);
    await page.getByRole('button', { name: 'Save OpenID Connect', exact: true }).click();
    await expect.poll(() => page.getByText('Connected with OpenID Connect.', { exact: false }).count(), { timeout: 60_000 }).toBe(1);
    expect(errors).toEqual([]);

    // a person of the domain, in a browser of their own
    const person = await newContext(browser, server.baseUrl);
    person.setDefaultTimeout(60_000);
    const p = await person.newPage();
    const personErrors = trackPageErrors(p);
    await p.goto('/login');
    await p.locator('#li-email').fill(`peter@${domain}`);
    const cont = p.getByTestId('sso-continue');
    await cont.waitFor({ timeout: 60_000 });
    expect(await cont.textContent()).toBe('Continue with SSO');
    await cont.click();
    await p.waitForURL((u) => u.href.startsWith(idp.issuer), { timeout: 60_000 });
    await p.getByLabel('Account', { exact: true }).fill('peter');
    await p.getByRole('button', { name: 'Sign in at the provider', exact: true }).click();
    await p.waitForURL((u) => u.href.startsWith(server.baseUrl) && u.pathname === '/profile', { timeout: 60_000 });
    const me = await person.request.get('/api/auth/user');
    expect(me.status()).toBe(200);
    const user = await me.json();
    expect(user).toMatchObject({ email: `peter@${domain}`, firstName: 'Peter' });
    const [m] = await server.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, user.id));
    expect(m?.role).toBe('member');
    expect(personErrors).toEqual([]);

    // an address of another domain sees no SSO button; a refused SSO sign-in says why on the sign-in page
    const q = await (await newContext(browser, server.baseUrl)).newPage();
    await q.goto('/login?sso_error=wrong-domain');
    expect(await q.getByTestId('sso-error').textContent({ timeout: 60_000 })).toContain('outside your company');
    await q.locator('#li-email').fill('someone@elsewhere.test');
    await q.waitForTimeout(1000);
    expect(await q.getByTestId('sso-continue').count()).toBe(0);
  }, 300_000);
});
