import crypto from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeBrowserSuite, newContext, openBrowserSuite, signUpViaApi, type BrowserServer } from './browser';
import { insertDesignWithOrder, insertOrder, insertProfile } from './admin-factories';
import { concreteUrl } from './route-table';
import { layoutProblems } from './phone-layout';
import { expectFits } from './overflow';
import { orders, profiles, teamMembers, users } from '#server/db/schema/index';
import { PAGE_ROUTES, claimOrderPath, orderStatusPath, publicProfilePath } from '#shared/routes';
import { sha256Hex } from '#server/infra/crypto';

/**
 * The phone walk of issue 37 (decision 37-08): every page route of the app (`PAGE_ROUTES`, so a new
 * route is walked without touching the test) in a phone-emulating context (touch, mobile viewport,
 * reduced motion) at 360 and 390 px, and every tab of every page (tabs found on the page, nested
 * ones too), measured by tests/helpers/phone-layout.ts for cut and overlapping content, and the
 * states of the main forms and dialogs ({@link PHONE_STATES}: field messages shown, a dialog open)
 * at 360 px. Two files run it: tests/e2e/phone-walk-visitor.e2e.ts (a visitor and a customer) and
 * tests/e2e/phone-walk-team.e2e.ts (a team owner and staff).
 */

export const PHONE_WIDTHS = [360, 390] as const;
export type PhoneWho = 'visitor' | 'customer' | 'owner' | 'staff';

export interface PhoneSuite {
  server: BrowserServer;
  browser: Browser;
  contexts: Partial<Record<PhoneWho, BrowserContext>>;
  profileId: string;
  statusToken: string;
  claimToken: string;
}

const LONG_NAME = 'Alexandria Montgomery-Featherstonehaugh';
const LONG_COMPANY = 'The Extraordinarily Long Company Name Incorporated';

const phone = { viewport: { width: PHONE_WIDTHS[0], height: 780 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce' as const };

/** The server, a browser and a phone context for each role asked for, with data that has long values. */
export async function openPhoneSuite(roles: readonly PhoneWho[]): Promise<PhoneSuite> {
  const { server, browser } = await openBrowserSuite();
  const db = server.app.ctx.db;
  const suite: PhoneSuite = { server, browser, contexts: {}, profileId: '', statusToken: '', claimToken: crypto.randomBytes(32).toString('base64url') };
  const signedIn = async (names: { firstName: string; lastName: string }) => {
    const ctx = await newContext(browser, server.baseUrl, phone);
    const { user } = await signUpViaApi(ctx, names);
    await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
    return { ctx, user };
  };
  if (roles.includes('visitor')) suite.contexts.visitor = await newContext(browser, server.baseUrl, phone);
  // the customer: a profile with long values (its public page is /p/:id in every walk)
  const customer = await signedIn({ firstName: 'Alexandria', lastName: 'Montgomery-Featherstonehaugh' });
  const own = await insertProfile(server.app, customer.user.id, { fullName: LONG_NAME, email: 'alexandria.montgomery@a-very-long-company-domain.example', jobTitle: 'Head of Very Long Job Titles' });
  suite.profileId = own.id.toLowerCase().replace(/[^a-z0-9]/g, 'x');
  await db.update(profiles).set({ id: suite.profileId, companyName: LONG_COMPANY, phoneNumber: '+1 212 555 0100', address: '1 Main Street, Suite 4500, New York, NY 10001' }).where(eq(profiles.id, own.id));
  await insertOrder(server.app, { userId: customer.user.id, customerName: LONG_NAME, email: 'alexandria.montgomery@a-very-long-company-domain.example', companyName: LONG_COMPANY });
  if (roles.includes('customer')) suite.contexts.customer = customer.ctx;
  else await customer.ctx.close();
  if (roles.includes('owner')) {
    // a team owner (not staff) with a member who joined, an invitation waiting and a lead
    const owner = await signedIn({ firstName: 'Olga', lastName: 'Owner-Of-A-Long-Team' });
    await owner.ctx.request.post('/api/team', { data: { name: 'The Extraordinarily Long Team Name', companyName: LONG_COMPANY } });
    const [row] = await db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, owner.user.id));
    const member = await signedIn({ firstName: 'Bartholomew', lastName: 'Membership-Longname' });
    await db.insert(teamMembers).values({ teamId: row.teamId, userId: member.user.id, role: 'member' });
    const memberProfile = await insertProfile(server.app, member.user.id, { fullName: 'Bartholomew Membership-Longname', email: 'bartholomew@a-very-long-company-domain.example', jobTitle: 'Senior Vice President of Things' });
    await member.ctx.close();
    await owner.ctx.request.post('/api/team/invites', { data: { invites: [{ email: 'invited.person.with.a.long.address@a-very-long-company-domain.example', fullName: 'Invited Person Longname', jobTitle: 'Engineer', role: 'admin' }] } });
    await owner.ctx.request.post(`/api/p/${memberProfile.id}/leads`, { data: { name: 'Lead With A Long Name', email: 'lead.with.a.long.name@another-long-domain.example', company: LONG_COMPANY, consent: true } });
    suite.contexts.owner = owner.ctx;
  }
  if (roles.includes('staff')) {
    const staff = await signedIn({ firstName: 'Staff', lastName: 'Member' });
    await db.update(users).set({ role: 'admin' }).where(eq(users.id, staff.user.id));
    suite.contexts.staff = staff.ctx;
    await insertDesignWithOrder(server.app, { order: { customerName: LONG_NAME, companyName: LONG_COMPANY } });
  }
  const order = await insertOrder(server.app, { customerName: LONG_NAME, email: 'alexandria.montgomery@a-very-long-company-domain.example', companyName: LONG_COMPANY, specialRequests: 'Please engrave the logo exactly as supplied, centred, with generous margins.' });
  suite.statusToken = order.statusToken;
  const unclaimed = await insertOrder(server.app, { customerName: 'Bart Claimant-Longname', email: 'bart.claimant@another-long-domain.example' });
  await db.update(orders).set({ claimTokenHash: sha256Hex(suite.claimToken), userId: null }).where(eq(orders.id, unclaimed.id));
  return suite;
}

export async function closePhoneSuite(suite: PhoneSuite | undefined): Promise<void> {
  if (!suite) return;
  for (const c of Object.values(suite.contexts)) await c?.close();
  await closeBrowserSuite(suite);
}

/** A route with its parameters filled: the known ones with this suite's data, any other with a placeholder. */
export function phonePath(suite: PhoneSuite, route: (typeof PAGE_ROUTES)[number]): string {
  if (route === '/p/:id') return publicProfilePath(suite.profileId);
  if (route === '/order-status/:token') return orderStatusPath(suite.statusToken);
  if (route === '/claim/:token') return claimOrderPath(suite.claimToken);
  return concreteUrl(route, () => 'not-a-real-token');
}

async function settle(page: Page) {
  await page.locator('main h1, main h2, h1').first().waitFor({ timeout: 15_000 }).catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('[role="status"][aria-label="Loading"], .animate-pulse'), undefined, { timeout: 5_000 }).catch(() => undefined);
  await page.waitForTimeout(150);
}

/** The side menu slides in (a 200 ms animation, seconds of frames on a busy machine): measured once it has landed. */
export async function menuSettled(page: Page) {
  await page.waitForFunction(() => {
    // a spinner or a skeleton's pulse runs for ever: only animations that end count (a busy machine
    // keeps a card's preview loading, and its spinner turning, for seconds)
    const running = document.getAnimations().some((a) => (a.playState === 'running' || a.pending) && a.effect?.getComputedTiming().iterations !== Infinity);
    const sheet = document.querySelector('[role="dialog"]');
    return !running && !!sheet && sheet.getBoundingClientRect().left >= 0;
  }, undefined, { timeout: 20_000 });
}

/** The page measured at the phone widths (both unless told), scrolled to the top (a sticky header then covers nothing). */
async function measure(page: Page, where: string, problems: string[], widths: readonly number[] = PHONE_WIDTHS) {
  const first = widths.includes(page.viewportSize()!.width) ? page.viewportSize()!.width : widths[0];
  for (const width of [first, ...widths.filter((w) => w !== first)]) {
    if (page.viewportSize()!.width !== width) {
      await page.setViewportSize({ width, height: 780 });
      await page.waitForTimeout(120);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    // the page as a whole no wider than the screen (issue 20), then what is cut or covered in it
    await expectFits(page, `${where} @${width}`, problems);
    for (const p of await layoutProblems(page)) {
      problems.push(`${where} @${width}: ${p}`);
      // PHONE_WALK_LOG=<file>: each finding as it is found (a walk cut short still tells what it saw)
      if (process.env.PHONE_WALK_LOG) fs.appendFileSync(process.env.PHONE_WALK_LOG, `${where} @${width}: ${p}\n`);
    }
  }
}

/** Every tab on the page, nested tabs included (each once, by its name), measured after it is opened. */
async function walkTabs(page: Page, where: string, problems: string[]) {
  const seen = new Set<string>();
  for (const t of await page.locator('[role="tab"][aria-selected="true"]').all()) seen.add(((await t.textContent()) ?? '').trim());
  for (let i = 0; i < 30; i++) {
    const names = await page.locator('[role="tab"]:not([disabled])').evaluateAll((els) => els.filter((e) => (e as HTMLElement).checkVisibility() && !e.closest('[aria-hidden="true"],[inert]')).map((e) => (e.textContent ?? '').trim()));
    const next = names.find((n) => !seen.has(n));
    if (next === undefined) return;
    seen.add(next);
    // a tab that something else covers cannot be tapped (the /team tabs under the panel, issue 37): a finding, and the walk goes on
    const tapped = await page
      .getByRole('tab', { name: next, exact: true })
      .first()
      .click({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (!tapped) {
      problems.push(`${where} tab "${next}": cannot be tapped (covered by other content)`);
      continue;
    }
    await settle(page);
    await measure(page, `${where} tab "${next}"`, problems);
  }
}

/**
 * A state of a page the route walk does not reach (decision 37-09): a main form sent empty or wrong
 * so its field messages show, or a main dialog open. `act` brings it about on the page at `path`
 * and waits until it shows.
 */
interface PhoneState {
  name: string;
  path: string;
  act: (page: Page) => Promise<void>;
}

/** A dialog is open and has landed (no animation running). */
async function dialogOpen(page: Page, name: string | RegExp) {
  await page.getByRole('dialog', { name }).waitFor({ timeout: 15_000 });
  // the dialog's own opening animation has ended (a spinner's or a pulse's, which never end, do not count)
  await page.waitForFunction(() => !document.getAnimations().some((a) => (a.playState === 'running' || a.pending) && a.effect?.getComputedTiming().iterations !== Infinity), undefined, { timeout: 20_000 });
}

/** The field messages of a form are shown. */
async function messagesShown(page: Page, form: string) {
  await page.getByRole('form', { name: form }).locator('[role="alert"]').first().waitFor({ timeout: 15_000 });
}

/** Each role's form and dialog states, measured at 360 px (the walks' signed-in pages, after their routes). */
export const PHONE_STATES: Record<PhoneWho, readonly PhoneState[]> = {
  visitor: [
    {
      name: 'sign-in sent empty',
      path: '/login',
      act: async (page) => {
        await page.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Login', exact: true }).click();
        await messagesShown(page, 'Login');
      },
    },
    {
      name: 'sign-up sent with wrong values',
      path: '/signup',
      act: async (page) => {
        const form = page.getByRole('form', { name: 'Sign up' });
        await form.getByLabel('Username').fill('x');
        await form.getByLabel('Email').fill('not-an-email');
        await form.getByLabel('Password', { exact: true }).fill('abcdefgh');
        await form.getByLabel('Confirm password').fill('abcdefgh');
        await form.getByRole('button', { name: 'Create account' }).click();
        await messagesShown(page, 'Sign up');
      },
    },
    {
      name: 'order form sent empty',
      path: '/order',
      act: async (page) => {
        await page.getByRole('button', { name: 'Submit Order' }).click();
        await messagesShown(page, 'Place your order');
      },
    },
  ],
  customer: [
    {
      name: 'profile editor sent with wrong values',
      path: '/profile',
      act: async (page) => {
        const form = page.getByRole('form', { name: 'Profile information' });
        await form.getByLabel('Full name').fill('A');
        await form.getByLabel('Email').fill('not-an-email');
        await form.getByLabel('Phone number').fill('12');
        await form.getByRole('button', { name: 'Save Profile' }).click();
        await messagesShown(page, 'Profile information');
      },
    },
    {
      name: 'delete-account dialog open',
      path: '/account',
      act: async (page) => {
        await page.getByRole('button', { name: 'Delete my account' }).click();
        await dialogOpen(page, 'Delete your account?');
      },
    },
  ],
  owner: [],
  staff: [
    {
      name: 'order dialog open',
      path: '/admin?tab=orders',
      act: async (page) => {
        await page.getByRole('button', { name: /^View order #/ }).first().click();
        await dialogOpen(page, /^Order #/);
      },
    },
    {
      name: 'status confirm dialog open over the order',
      path: '/admin?tab=orders',
      act: async (page) => {
        // the order dialog (open from the state before) asks before cancelling
        await page.getByRole('dialog', { name: /^Order #/ }).locator('[data-move="cancelled"]').click();
        await dialogOpen(page, /^Move order #\d+ to /);
      },
    },
    {
      name: 'reject design dialog open',
      path: '/admin?tab=card-reviews',
      act: async (page) => {
        await page.getByRole('button', { name: 'Reject', exact: true }).first().click();
        await dialogOpen(page, 'Reject design');
      },
    },
  ],
};

/** The role's states, each measured at 360 px on the page already open (a state on the same address as the one before builds on it). */
async function walkStates(page: Page, who: PhoneWho, problems: string[]) {
  await page.setViewportSize({ width: PHONE_WIDTHS[0], height: 780 });
  let at = '';
  for (const state of PHONE_STATES[who]) {
    if (state.path !== at) {
      await page.goto(state.path);
      await settle(page);
      at = state.path;
    }
    const where = `${who} ${state.path} (${state.name})`;
    const done = await state
      .act(page)
      .then(() => true)
      .catch((e: Error) => {
        problems.push(`${where}: could not be brought about (${e.message.split('\n')[0]})`);
        return false;
      });
    if (done) await measure(page, where, problems, [PHONE_WIDTHS[0]]);
  }
}

/** Walks `routes` as `who`; each page once (a redirect to a page already seen is skipped); then, with `states`, the role's form and dialog states. */
export async function phoneWalk(suite: PhoneSuite, who: PhoneWho, routes: readonly (typeof PAGE_ROUTES)[number][], problems: string[], withMenu = true, states = false): Promise<string[]> {
  const page = await suite.contexts[who]!.newPage();
  page.setDefaultNavigationTimeout(45_000);
  const seen = new Set<string>();
  for (const route of routes) {
    const path = phonePath(suite, route);
    await page.goto(path);
    await settle(page);
    const landed = new URL(page.url()).pathname;
    if (seen.has(landed)) continue;
    seen.add(landed);
    await measure(page, `${who} ${path}`, problems);
    await walkTabs(page, `${who} ${path}`, problems);
  }
  if (states) await walkStates(page, who, problems);
  if (!withMenu) {
    await page.close();
    return problems;
  }
  // the side menu, open
  await page.goto('/');
  await settle(page);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog').waitFor();
  await menuSettled(page);
  await measure(page, `${who} / with the menu open`, problems);
  await page.close();
  return problems;
}

/** Two halves of the routes walked side by side (two pages of the role's context); the second, without the menu, then walks the role's states. */
export async function phoneWalkInTwo(suite: PhoneSuite, who: PhoneWho, problems: string[]): Promise<void> {
  const half = Math.ceil(PAGE_ROUTES.length / 2);
  await Promise.all([phoneWalk(suite, who, PAGE_ROUTES.slice(0, half), problems), phoneWalk(suite, who, PAGE_ROUTES.slice(half), problems, false, true)]);
}
