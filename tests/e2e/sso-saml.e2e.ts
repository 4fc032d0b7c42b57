import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, trackPageErrors, type BrowserServer } from '#tests/helpers/browser';
import { startSamlIdpServer, type SamlIdpServer } from '#tests/helpers/saml-idp';
import { ssoDomains, teamMembers, users } from '#server/db/schema/index';

/**
 * Team single sign-on with SAML 2.0 in Chromium (issue 39 item 3, decision 39-04): the owner pastes
 * the identity provider's metadata on the Single sign-on tab and sees our SP addresses; a person of
 * the company's (verified) domain types their address on the sign-in page, presses "Continue with
 * SSO", goes through the test IdP on 127.0.0.1 (whose page posts the signed response back by
 * itself, as Entra ID's and Okta's do) and lands in the app as a new member of the team.
 */
let server: BrowserServer;
let browser: Browser;
let idp: SamlIdpServer;
let owner: BrowserContext;
let teamId = '';
const domain = `globex-${crypto.randomBytes(3).toString('hex')}.test`;
const WS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite({ SSO_ALLOW_PRIVATE_NETWORKS: 'true' }));
  idp = await startSamlIdpServer({ nameId: () => `hank@${domain}`, attributes: { [`${WS}givenname`]: 'Hank', [`${WS}surname`]: 'Scorpio', 'http://schemas.microsoft.com/identity/claims/jobtitle': 'Chief Executive' } });
  owner = await newContext(browser, server.baseUrl);
  owner.setDefaultTimeout(60_000);
  const o = await signUpViaApi(owner, { firstName: 'Olga', lastName: 'Owner' });
  await server.app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, o.user.id));
  const created = await owner.request.post('/api/team', { data: { name: 'Globex', companyName: 'Globex Corporation' } });
  expect(created.status()).toBe(201);
  teamId = (await created.json()).team.id;
  // the DNS proof of the domain is sso-oidc.e2e.ts's subject; here it is simply proven
  await server.app.ctx.db.insert(ssoDomains).values({ teamId, domain, token: 'proven', verifiedAt: new Date() });
}, 180_000);
afterAll(async () => {
  await closeBrowserSuite({ server, browser });
  await idp?.close();
});

describe('SAML single sign-on in a browser', () => {
  it('the owner pastes the IdP metadata; a person signs in with "Continue with SSO" through the IdP', async () => {
    const page = await owner.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/team?tab=sso');
    await page.getByLabel('SAML 2.0', { exact: true }).check();
    expect(await page.getByTestId('saml-sp-acs-url').textContent({ timeout: 60_000 })).toBe(`${server.baseUrl}/api/sso/saml/${teamId}/acs`);
    expect(await page.getByTestId('saml-sp-entity-id').textContent()).toBe(`${server.baseUrl}/api/sso/saml/${teamId}/metadata`);
    // a paste that is not metadata: the field says why
    await page.getByLabel('Identity provider metadata (XML)', { exact: true }).fill('<html><body>login page</body></html>');
    await page.getByRole('button', { name: 'Save SAML connection', exact: true }).click();
    await expect.poll(() => page.getByText('This is not SAML 2.0 metadata (no EntityDescriptor)', { exact: true }).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await page.getByLabel('Identity provider metadata (XML)', { exact: true }).fill(idp.idp.metadataXml());
    await page.getByRole('button', { name: 'Save SAML connection', exact: true }).click();
    await expect.poll(() => page.getByTestId('saml-idp').textContent(), { timeout: 60_000 }).toContain(idp.idp.entityId);
    await expect.poll(() => page.getByText('Connected with SAML 2.0.', { exact: false }).count(), { timeout: 60_000 }).toBe(1);
    expect(errors).toEqual([]);

    const person = await newContext(browser, server.baseUrl);
    person.setDefaultTimeout(60_000);
    const p = await person.newPage();
    const personErrors = trackPageErrors(p);
    await p.goto('/login');
    await p.locator('#li-email').fill(`hank@${domain}`);
    const cont = p.getByTestId('sso-continue');
    await cont.waitFor({ timeout: 60_000 });
    await cont.click();
    // the IdP's page posts the signed response back to our ACS by itself
    await p.waitForURL((u) => u.href.startsWith(server.baseUrl) && u.pathname === '/profile', { timeout: 60_000 });
    const me = await person.request.get('/api/auth/user');
    expect(me.status()).toBe(200);
    const user = await me.json();
    expect(user).toMatchObject({ email: `hank@${domain}`, firstName: 'Hank', lastName: 'Scorpio' });
    const [m] = await server.app.ctx.db.select().from(teamMembers).where(eq(teamMembers.userId, user.id));
    expect(m?.role).toBe('member');
    expect(personErrors).toEqual([]);
  }, 300_000);
});
