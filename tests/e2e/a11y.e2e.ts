import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, type BrowserServer } from '#tests/helpers/browser';
import { insertOrder, insertProfile } from '#tests/helpers/admin-factories';
import { htmlProblems } from '#tests/helpers/html-validator';
import { expectFits, walkTabs } from '#tests/helpers/overflow';
import { orders, profiles, users } from '#server/db/schema/index';
import { PAGE_ROUTES, claimOrderPath, orderStatusPath, publicProfilePath } from '#shared/routes';
import { PROFILE_LAYOUTS } from '#shared/schemas/profile';
import { sha256Hex } from '#server/infra/crypto';

/**
 * Issue 36: every page passes axe-core (an independent checker) for WCAG 2.2 A and AA, at 1280 px
 * and 360 px, as a visitor, a signed-in customer and staff (who also run a team), plus the public
 * profile in all five layouts and the API reference. One browser; a context per role; each page is
 * loaded once and checked at both widths (the viewport is resized). The anonymous pages log no
 * console error.
 *
 * The same walk validates each page's rendered HTML (`page.content()` once it has settled) with
 * html-validate, the preset and documented exceptions of tests/helpers/html-validator.ts (issue 36,
 * decision 36-04), and the prerendered home page as the server sends it; and at 360 px it checks
 * that the page fits the screen (issue 20: no horizontal overflow), with every tab of the pages
 * with tabs: one walk for the three checks keeps the browser suite short. Walks run two at a time
 * (their own pages; the browser has the machine to itself in this phase).
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const WIDTHS = [1280, 360] as const;
type Who = 'visitor' | 'customer' | 'staff';

let server: BrowserServer;
let browser: Browser;
const contexts: Partial<Record<Who, BrowserContext>> = {};
const layoutProfiles: Array<{ layout: string; id: string }> = [];
let profileId = '';
let statusToken = '';
const claimToken = crypto.randomBytes(32).toString('base64url');

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
  contexts.visitor = await newContext(browser, server.baseUrl);
  const customer = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(customer);
  const own = await insertProfile(server.app, user.id, { fullName: 'Zoë Łukasz-Müller', email: 'zoe@example.com' });
  profileId = own.id.toLowerCase().replace(/[^a-z0-9]/g, 'x');
  await server.app.ctx.db.update(profiles).set({ id: profileId }).where(eq(profiles.id, own.id));
  contexts.customer = customer;
  const staff = await newContext(browser, server.baseUrl);
  const { user: staffUser } = await signUpViaApi(staff, { firstName: 'Staff', lastName: 'Member' });
  await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, staffUser.id));
  await staff.request.post('/api/team', { data: { name: 'Acme Team', companyName: 'Acme Inc.' } });
  contexts.staff = staff;
  for (const layout of PROFILE_LAYOUTS) {
    const other = await newContext(browser, server.baseUrl);
    const { user: owner } = await signUpViaApi(other);
    await other.close();
    const p = await insertProfile(server.app, owner.id, { fullName: `Layout ${layout}`, email: `${layout}@example.com`, jobTitle: 'Engineer' });
    // a lower-case id, as the server makes them (the page route takes only [a-z0-9])
    const id = `${layout}${p.id.toLowerCase()}`.replace(/[^a-z0-9]/g, '');
    await server.app.ctx.db.update(profiles).set({ id, profileTemplate: layout, phoneNumber: '+1 212 555 0100', companyName: 'Acme Inc.', address: '1 Main St, New York' }).where(eq(profiles.id, p.id));
    layoutProfiles.push({ layout, id });
  }
  const order = await insertOrder(server.app, { customerName: 'Ada Lovelace', email: 'ada@example.com' });
  statusToken = order.statusToken;
  const unclaimed = await insertOrder(server.app, { customerName: 'Bart Claimant', email: 'bart@example.com' });
  await server.app.ctx.db.update(orders).set({ claimTokenHash: sha256Hex(claimToken), userId: null }).where(eq(orders.id, unclaimed.id));
});
afterAll(async () => {
  for (const c of Object.values(contexts)) await c?.close();
  await closeBrowserSuite({ server, browser });
});

function pathFor(route: (typeof PAGE_ROUTES)[number]): string {
  if (route === '/p/:id') return publicProfilePath(profileId);
  if (route === '/order-status/:token') return orderStatusPath(statusToken);
  if (route === '/claim/:token') return claimOrderPath(claimToken);
  if (route === '/team/join/:token') return '/team/join/not-a-real-invite-token';
  return route;
}

/** Waits for the page's own content (a lazy route shows a spinner first). */
async function settle(page: Page) {
  await page.locator('main h1, main h2, h1').first().waitFor({ timeout: 15_000 }).catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('[role="status"][aria-label="Loading"], .animate-pulse'), undefined, { timeout: 5_000 }).catch(() => undefined);
  // transitions (fade-ins) finished, so colour contrast is measured on the final colours
  await page.waitForTimeout(350);
}

/**
 * Rules axe files under best practice (or experimental) that the findings need, run beside
 * the WCAG 2.2 A/AA rules: label in name (WCAG 2.5.3, experimental in axe), skipped heading levels,
 * one top-level main. `region` (all content in landmarks) on the server-rendered profile page.
 */
const EXTRA_RULES = ['label-content-name-mismatch', 'heading-order', 'landmark-main-is-top-level', 'landmark-no-duplicate-main'];

/** axe-core's violations on the page as it is now, one line each, plus inputs with a multi-line autofill token. */
async function violations(page: Page, where: string, extra: string[] = []): Promise<string[]> {
  const rules = Object.fromEntries([...EXTRA_RULES, ...extra].map((id) => [id, { enabled: true }]));
  const result = await new AxeBuilder({ page }).options({ rules }).withTags(WCAG_TAGS).analyze();
  const found = result.violations.map((v) => `${where}: ${v.id} (${v.impact}) ×${v.nodes.length} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  // street-address is a multi-line autofill field: only on a textarea (HTML, autofill field names)
  const multiLine = await page.locator('input[autocomplete~="street-address"]').count();
  if (multiLine) found.push(`${where}: ${multiLine} single-line input(s) with autocomplete="street-address"`);
  return found;
}

/** Checks the loaded page at both widths. */
async function checkBothWidths(page: Page, where: string, problems: string[], extra: string[] = []) {
  for (const width of WIDTHS) {
    if (page.viewportSize()?.width !== width) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.waitForTimeout(150);
    }
    problems.push(...(await violations(page, `${where} @${width}`, extra)));
  }
}

/** Pages a visitor is sent away from (to sign in): the signed-in walks check these and the home page. */
const signedInPages = new Set<string>(['/']);

/** Walks `routes` in one page of the role's context; returns axe's problems, and html-validate's in `html`. */
async function walk(who: Who, routes: readonly (typeof PAGE_ROUTES)[number][], consoleErrors: string[], html: string[]): Promise<string[]> {
  const problems: string[] = [];
  const page = await contexts[who]!.newPage();
  page.setDefaultNavigationTimeout(45_000);
  page.on('console', (m) => {
    // an invitation link that is not valid answers 4xx on purpose (the page says so)
    if (m.type() === 'error' && !page.url().includes('/team/join/')) consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  const seen = new Set<string>();
  for (const route of routes) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(pathFor(route));
    await settle(page);
    // a page that redirects (a signed-out visitor to /login) is checked once
    const landed = new URL(page.url()).pathname;
    if (who === 'visitor' && landed !== new URL(pathFor(route), 'http://x').pathname) signedInPages.add(route);
    if (seen.has(landed)) continue;
    seen.add(landed);
    html.push(...(await htmlProblems(await page.content(), `${who} ${pathFor(route)}`)));
    await checkBothWidths(page, `${who} ${pathFor(route)}`, problems);
    // checkBothWidths ends at 360 px: the page and, where it has tabs, each tab's panel fit the screen
    await expectFits(page, `${who} ${pathFor(route)} @360`, problems);
    if (TAB_PAGES.includes(route) && landed === route) await walkTabs(page, `${who} ${route} @360`, problems, settle);
  }
  await page.close();
  return problems;
}

/** Pages whose states are tabs: each tab's panel is checked for overflow at 360 px. */
const TAB_PAGES: readonly string[] = ['/admin', '/dashboard', '/profile', '/team'];

/** Two halves of `routes` walked side by side (two pages of the role's context). */
async function walkInTwo(who: Who, routes: readonly (typeof PAGE_ROUTES)[number][], consoleErrors: string[], html: string[]): Promise<string[]> {
  const half = Math.ceil(routes.length / 2);
  const parts = await Promise.all([walk(who, routes.slice(0, half), consoleErrors, html), walk(who, routes.slice(half), consoleErrors, html)]);
  return parts.flat();
}

describe('accessibility: axe-core WCAG 2.2 A/AA on every page', () => {
  it('the checker sees violations (an unlabelled input, a link named unlike its text, a skipped heading level)', async () => {
    const page = await contexts.visitor!.newPage();
    await page.goto('/about');
    await settle(page);
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      main.appendChild(document.createElement('input'));
      const a = document.createElement('a');
      a.href = '/';
      a.textContent = 'Template #17 Minimal';
      a.setAttribute('aria-label', 'Minimal template');
      main.appendChild(a);
      main.insertAdjacentHTML('beforeend', '<h5>Deep</h5><input autocomplete="street-address" aria-label="Address">');
    });
    const found = (await violations(page, 'probe')).join('\n');
    expect(found).toContain('label');
    expect(found).toContain('label-content-name-mismatch');
    expect(found).toContain('heading-order');
    expect(found).toContain('street-address');
    await page.close();
  });

  it('html-validate sees a problem in a rendered page (a button without a type, a duplicate id)', async () => {
    const page = await contexts.visitor!.newPage();
    await page.goto('/about');
    await settle(page);
    await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<form><button>Go</button></form><p id="x"></p><p id="x"></p>'));
    const found = (await htmlProblems(await page.content(), 'probe')).join('\n');
    expect(found).toMatch(/no-implicit-button-type/);
    expect(found).toMatch(/no-dup-id/);
    await page.close();
  });

  it('the prerendered home page as the server sends it: valid HTML', async () => {
    const res = await fetch(`${server.baseUrl}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-prerendered="/"');
    expect(await htmlProblems(html, 'prerendered /')).toEqual([]);
  });

  it('every page as a visitor at 1280 and 360 px, and its rendered HTML; fits a 360 px screen; no console error', { timeout: 300_000 }, async () => {
    const consoleErrors: string[] = [];
    const html: string[] = [];
    const problems = await walkInTwo('visitor', PAGE_ROUTES, consoleErrors, html);
    expect(problems).toEqual([]);
    expect(html).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('the signed-in pages as a signed-in customer and as staff running a team, at 1280 and 360 px, and their rendered HTML; each fits a 360 px screen, tabs included', { timeout: 300_000 }, async () => {
    const routes = PAGE_ROUTES.filter((r) => signedInPages.has(r));
    expect(routes.length).toBeGreaterThan(5);
    const html: string[] = [];
    const problems = (await Promise.all((['customer', 'staff'] as const).map((who) => walk(who, routes, [], html)))).flat();
    expect(problems).toEqual([]);
    expect(html).toEqual([]);
  });

  it('the server-rendered public profile in all five layouts (and its HTML after its script ran), and the API reference', { timeout: 240_000 }, async () => {
    const problems: string[] = [];
    const html: string[] = [];
    const page = await contexts.visitor!.newPage();
    for (const { layout, id } of layoutProfiles) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(publicProfilePath(id));
      await settle(page);
      html.push(...(await htmlProblems(await page.content(), `/p/{id} ${layout}`)));
      await checkBothWidths(page, `/p/{id} ${layout}`, problems, ['region']);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const favicon: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('favicon')) favicon.push(r.status());
    });
    await page.goto('/api/docs');
    await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300);
    await checkBothWidths(page, '/api/docs', problems);
    expect(await page.locator('main').count()).toBe(1);
    await page.close();
    expect(problems).toEqual([]);
    expect(html).toEqual([]);
    expect(favicon.length).toBeGreaterThan(0);
    expect(favicon.filter((s) => s >= 400)).toEqual([]);
  });
});
