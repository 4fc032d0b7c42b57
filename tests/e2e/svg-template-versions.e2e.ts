import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { templates, users } from '#server/db/schema/index';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';

/** Issue 20: the SVG template manager checks a replacement, previews it with sample data, keeps every version and rolls back. */
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
const classic = BUILTIN_TEMPLATES.find((t) => t.folder === 'classic')!;

describe('SVG template versions in a real browser', () => {
  it('refuses a 10x10 rectangle, previews and saves a real replacement, and rolls back to the first version', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const { user } = await signUpViaApi(ctx);
    await server.app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/svg-templates');
    const card = page.getByTestId('svg-template-classic');
    await card.waitFor();
    const [start] = await server.app.ctx.db.select().from(templates).where(eq(templates.id, classic.id));

    // the rectangle: refused with the fields it lacks, and it cannot be saved
    const rect = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
    await card.getByTestId('file-classic-front').setInputFiles({ name: 'rect.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(rect) });
    await poll(() => card.getByTestId('svg-error-classic-front').textContent()).toContain("missing the template's fields");
    expect(await card.getByRole('button', { name: 'Save to Server' }).isDisabled()).toBe(true);

    // a real replacement: checked and previewed as it would go live (a server-rendered PNG)
    const replacement = classic.front.replace('</svg>', '<text x="525" y="590" text-anchor="middle" font-family="Inter" font-size="14" fill="#9a9a9a">EST. 2026</text></svg>');
    await card.getByTestId('file-classic-front').setInputFiles({ name: 'front-v2.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(replacement) });
    await card.getByTestId('svg-checked-classic-front').waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('svg-preview-classic-front').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await card.getByLabel('Notes (optional)').fill('Founding year');
    await card.getByRole('button', { name: 'Save to Server' }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('SVG files written');
    const [saved] = await server.app.ctx.db.select().from(templates).where(eq(templates.id, classic.id));
    expect(saved.version).toBe(start.version + 1);
    expect(saved.frontSvg).toContain('EST. 2026');

    // the history keeps both; roll back to the first
    await card.getByRole('button', { name: 'Version history' }).click();
    await card.getByTestId(`version-classic-${saved.version}`).getByText('Live').waitFor();
    const first = card.getByTestId(`version-classic-${start.version}`);
    await first.getByRole('button', { name: 'Roll back to this version' }).click();
    await first.getByRole('button', { name: `Make version ${start.version} live for everyone` }).click();
    await poll(() => toastLocator(page).first().textContent()).toContain('Template rolled back');
    const [now] = await server.app.ctx.db.select().from(templates).where(eq(templates.id, classic.id));
    expect(now.version).toBe(saved.version + 1);
    expect(now.frontSvg).toBe(start.frontSvg);
    await card.getByTestId(`version-classic-${now.version}`).getByText('Live').waitFor();
    expect(await card.getByRole('list', { name: 'Versions' }).getByRole('listitem').count()).toBe(3);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
