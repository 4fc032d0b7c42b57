import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, type BrowserServer } from './browser';
import { insertOrder, insertProfile } from './admin-factories';
import { htmlProblems } from './html-validator';
import { orders, profiles, users } from '#server/db/schema/index';
import { PAGE_ROUTES, claimOrderPath, orderStatusPath, publicProfilePath } from '#shared/routes';
import { PROFILE_LAYOUTS } from '#shared/schemas/profile';
import { sha256Hex } from '#server/infra/crypto';

/**
 * The accessibility walk of issue 36 (axe-core, WCAG 2.2 A/AA at 1280 and 360 px; the rendered
 * HTML through html-validate), shared by the
 * three files that run it: tests/e2e/a11y-visitor.e2e.ts (every page as a visitor),
 * tests/e2e/a11y-signed-in.e2e.ts (the signed-in pages as a customer and as staff) and
 * tests/e2e/a11y-profiles.e2e.ts (the checkers' own probes, the public profile in all layouts,
 * the API reference). Three files so the two browser workers share the walk (decision 36-06);
 * each file has its own server, database and browser, set up by `openA11ySuite`.
 */

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
export const WIDTHS = [1280, 360] as const;
export type Who = 'visitor' | 'customer' | 'staff';
export type PageRoute = (typeof PAGE_ROUTES)[number];

export interface A11ySuite {
  server: BrowserServer;
  browser: Browser;
  contexts: Partial<Record<Who, BrowserContext>>;
  /** the customer's own profile (`/p/:id` in the walks) */
  profileId: string;
  statusToken: string;
  claimToken: string;
  /** one profile per layout (only with `layouts: true`) */
  layoutProfiles: Array<{ layout: string; id: string }>;
}

/**
 * The server, one browser and a context per role: a visitor, a signed-in customer with a profile
 * (a name in several scripts), and with `staff` an admin who also runs a team; an order with its
 * status link and a visitor's order waiting for its claim; with `layouts` a profile in each layout.
 */
export async function openA11ySuite(opts: { staff?: boolean; layouts?: boolean } = {}): Promise<A11ySuite> {
  const { server, browser } = await openBrowserSuite();
  const suite: A11ySuite = { server, browser, contexts: {}, profileId: '', statusToken: '', claimToken: crypto.randomBytes(32).toString('base64url'), layoutProfiles: [] };
  suite.contexts.visitor = await newContext(browser, server.baseUrl);
  const customer = await newContext(browser, server.baseUrl);
  const { user } = await signUpViaApi(customer);
  const own = await insertProfile(server.app, user.id, { fullName: 'Zoë Łukasz-Müller', email: 'zoe@example.com' });
  suite.profileId = own.id.toLowerCase().replace(/[^a-z0-9]/g, 'x');
  await server.app.ctx.db.update(profiles).set({ id: suite.profileId }).where(eq(profiles.id, own.id));
  suite.contexts.customer = customer;
  if (opts.staff) {
    const staff = await newContext(browser, server.baseUrl);
    const { user: staffUser } = await signUpViaApi(staff, { firstName: 'Staff', lastName: 'Member' });
    await server.app.ctx.db.update(users).set({ role: 'admin', emailVerifiedAt: new Date() }).where(eq(users.id, staffUser.id));
    await staff.request.post('/api/team', { data: { name: 'Acme Team', companyName: 'Acme Inc.' } });
    suite.contexts.staff = staff;
  }
  if (opts.layouts) {
    for (const layout of PROFILE_LAYOUTS) {
      const other = await newContext(browser, server.baseUrl);
      const { user: owner } = await signUpViaApi(other);
      await other.close();
      const p = await insertProfile(server.app, owner.id, { fullName: `Layout ${layout}`, email: `${layout}@example.com`, jobTitle: 'Engineer' });
      // a lower-case id, as the server makes them (the page route takes only [a-z0-9])
      const id = `${layout}${p.id.toLowerCase()}`.replace(/[^a-z0-9]/g, '');
      await server.app.ctx.db.update(profiles).set({ id, profileTemplate: layout, phoneNumber: '+1 212 555 0100', companyName: 'Acme Inc.', address: '1 Main St, New York' }).where(eq(profiles.id, p.id));
      suite.layoutProfiles.push({ layout, id });
    }
  }
  const order = await insertOrder(server.app, { customerName: 'Ada Lovelace', email: 'ada@example.com' });
  suite.statusToken = order.statusToken;
  const unclaimed = await insertOrder(server.app, { customerName: 'Bart Claimant', email: 'bart@example.com' });
  await server.app.ctx.db.update(orders).set({ claimTokenHash: sha256Hex(suite.claimToken), userId: null }).where(eq(orders.id, unclaimed.id));
  return suite;
}

/** Closes the contexts, the browser and the server (`afterAll`; the suite may be missing if starting failed). */
export async function closeA11ySuite(suite: A11ySuite | undefined): Promise<void> {
  if (!suite) return;
  for (const c of Object.values(suite.contexts)) await c?.close();
  await closeBrowserSuite(suite);
}

export function pathFor(suite: A11ySuite, route: PageRoute): string {
  if (route === '/p/:id') return publicProfilePath(suite.profileId);
  if (route === '/order-status/:token') return orderStatusPath(suite.statusToken);
  if (route === '/claim/:token') return claimOrderPath(suite.claimToken);
  if (route === '/team/join/:token') return '/team/join/not-a-real-invite-token';
  return route;
}

/** Waits for the page's own content (a lazy route shows a spinner first). */
export async function settle(page: Page) {
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
export async function violations(page: Page, where: string, extra: string[] = []): Promise<string[]> {
  const rules = Object.fromEntries([...EXTRA_RULES, ...extra].map((id) => [id, { enabled: true }]));
  const result = await new AxeBuilder({ page }).options({ rules }).withTags(WCAG_TAGS).analyze();
  const found = result.violations.map((v) => `${where}: ${v.id} (${v.impact}) ×${v.nodes.length} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  // street-address is a multi-line autofill field: only on a textarea (HTML, autofill field names)
  const multiLine = await page.locator('input[autocomplete~="street-address"]').count();
  if (multiLine) found.push(`${where}: ${multiLine} single-line input(s) with autocomplete="street-address"`);
  return found;
}

/** Checks the loaded page at both widths. */
export async function checkBothWidths(page: Page, where: string, problems: string[], extra: string[] = []) {
  for (const width of WIDTHS) {
    if (page.viewportSize()?.width !== width) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.waitForTimeout(150);
    }
    problems.push(...(await violations(page, `${where} @${width}`, extra)));
  }
}

/** Walks `routes` in one page of the role's context; returns axe's problems, and html-validate's in `html`. */
export async function walk(suite: A11ySuite, who: Who, routes: readonly PageRoute[], consoleErrors: string[], html: string[]): Promise<string[]> {
  const problems: string[] = [];
  const page = await suite.contexts[who]!.newPage();
  page.setDefaultNavigationTimeout(45_000);
  page.on('console', (m) => {
    // an invitation link that is not valid answers 4xx on purpose (the page says so)
    if (m.type() === 'error' && !page.url().includes('/team/join/')) consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  const seen = new Set<string>();
  for (const route of routes) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(pathFor(suite, route));
    await settle(page);
    // a page that redirects (a signed-out visitor to /login) is checked once
    const landed = new URL(page.url()).pathname;
    if (seen.has(landed)) continue;
    seen.add(landed);
    html.push(...(await htmlProblems(await page.content(), `${who} ${pathFor(suite, route)}`)));
    await checkBothWidths(page, `${who} ${pathFor(suite, route)}`, problems);
    // that the page fits a phone (360 and 390 px, every tab, the page's width and anything cut or
    // covered) is the phone walk's (tests/helpers/phone-walk.ts: every route as a visitor, a
    // customer, a team owner and staff): measured there once, not here again (decision 36-06)
  }
  await page.close();
  return problems;
}

/** Two halves of `routes` walked side by side (two pages of the role's context). */
export async function walkInTwo(suite: A11ySuite, who: Who, routes: readonly PageRoute[], consoleErrors: string[], html: string[]): Promise<string[]> {
  const half = Math.ceil(routes.length / 2);
  const parts = await Promise.all([walk(suite, who, routes.slice(0, half), consoleErrors, html), walk(suite, who, routes.slice(half), consoleErrors, html)]);
  return parts.flat();
}

/**
 * The pages a signed-out visitor is sent away from (to sign in), plus the home page: the routes the
 * signed-in walks check. Found as the visitor walk finds them: each route loaded in the visitor's
 * context (two pages side by side) and, once settled, its path compared with the route's.
 */
export async function signedInPages(suite: A11ySuite): Promise<PageRoute[]> {
  const sentAway = new Set<string>(['/']);
  const probe = async (routes: readonly PageRoute[]) => {
    const page = await suite.contexts.visitor!.newPage();
    page.setDefaultNavigationTimeout(45_000);
    for (const route of routes) {
      await page.goto(pathFor(suite, route));
      await settle(page);
      if (new URL(page.url()).pathname !== new URL(pathFor(suite, route), 'http://x').pathname) sentAway.add(route);
    }
    await page.close();
  };
  const half = Math.ceil(PAGE_ROUTES.length / 2);
  await Promise.all([probe(PAGE_ROUTES.slice(0, half)), probe(PAGE_ROUTES.slice(half))]);
  return PAGE_ROUTES.filter((r) => sentAway.has(r));
}
