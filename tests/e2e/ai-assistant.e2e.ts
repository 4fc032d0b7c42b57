import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { logoImage } from '#tests/helpers/ai-images';

let server: BrowserServer;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-ai-e2e-'));

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(async () => {
  await closeBrowserSuite({ server, browser });
  fs.rmSync(tmp, { recursive: true, force: true });
});

const toastWith = (page: Page, text: string) => toastLocator(page).filter({ hasText: text });

async function signedInPage() {
  const ctx = await newContext(browser, server.baseUrl);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  await signUpViaApi(ctx);
  const page = await ctx.newPage();
  const errors = trackPageErrors(page);
  await page.goto('/ai-assistant');
  await page.getByRole('heading', { name: 'AI Design Assistant' }).waitFor();
  return { ctx, page, errors };
}

describe('AI Design Assistant page', () => {
  it('asks a signed-out visitor to sign in', async () => {
    const ctx = await newContext(browser, server.baseUrl);
    const page = await ctx.newPage();
    await page.goto('/ai-assistant');
    await page.getByRole('heading', { name: 'Sign in to use the assistant' }).waitFor();
    await page.getByRole('link', { name: 'Sign In' }).last().click();
    await page.waitForURL('**/login');
    await ctx.close();
  });

  it('Design Suggestions: validates, then shows palette, font samples, layouts, tips', async () => {
    const { ctx, page, errors } = await signedInPage();
    expect(await page.getByRole('tab', { name: 'Design Suggestions' }).getAttribute('aria-selected')).toBe('true');
    for (const name of ['Design Feedback', 'Color Palette', 'Image Editor']) await page.getByRole('tab', { name }).waitFor();

    await page.getByRole('button', { name: 'Get Design Suggestions' }).click();
    for (const msg of ['Company name is required', 'Industry is required', 'Role is required']) await page.getByText(msg).waitFor();

    // the spec's option lists
    expect(await page.locator('#s-industry option:not([value=""])').count()).toBe(12);
    expect(await page.locator('#s-personality option:not([value=""])').count()).toBe(10);

    const form = page.getByRole('form', { name: 'Design suggestions' });
    await form.getByLabel('Company Name').fill('Hargrove Legal');
    await form.getByLabel('Industry').selectOption('Legal');
    await form.getByLabel('Your Role').fill('Managing Partner');
    await form.getByLabel('Brand Personality').selectOption('Elegant');
    await page.getByRole('button', { name: 'Get Design Suggestions' }).click();
    await toastWith(page, 'Design suggestions generated!').waitFor();

    const result = page.getByTestId('suggestions-result');
    await result.waitFor();
    const swatches = result.getByTestId('swatch');
    expect(await swatches.count()).toBe(6);
    const firstHex = (await swatches.first().getByTestId('swatch-hex').textContent())!;
    expect(firstHex).toMatch(/^#[0-9A-F]{6}$/);
    // copy button puts the hex code on the clipboard
    await swatches.first().getByRole('button', { name: `Copy ${firstHex}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstHex);

    // font samples are rendered in the recommended (bundled) font, loaded from /fonts
    const sample = result.locator('[data-testid="font-sample"][data-family="Playfair Display"]');
    await sample.waitFor();
    expect(await sample.getByTestId('font-sample-text').first().textContent()).toBe('Hargrove Legal');
    expect(await sample.getByTestId('font-sample-text').first().evaluate((el) => getComputedStyle(el).fontFamily)).toContain('Playfair Display');
    await expect.poll(() => page.evaluate(() => document.fonts.ready.then(() => document.fonts.check('600 24px "Playfair Display"')))).toBe(true);
    const loaded = await page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/["']/g, '')));
    expect(loaded).toContain('Playfair Display');

    // layouts map to the four templates, with a link into the design flow
    const layouts = result.getByTestId('layout-suggestion');
    expect(await layouts.count()).toBeGreaterThanOrEqual(2);
    // an elegant law firm: the understated Minimal or the formal Classic first
    const best = (await layouts.first().getAttribute('data-template-id'))!;
    expect(['15', '16']).toContain(best);
    expect(await layouts.first().getByRole('link').getAttribute('href')).toBe(`/design?templateId=${best}`);
    expect(await result.getByTestId('industry-tips').locator('li').count()).toBeGreaterThanOrEqual(3);
    expect(await result.getByTestId('branding-advice').textContent()).toContain('Managing Partner');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Design Feedback: needs a question, then measures a low-contrast design', async () => {
    const { ctx, page, errors } = await signedInPage();
    await page.getByRole('tab', { name: 'Design Feedback' }).click();
    expect(page.url()).toContain('tab=feedback');
    await page.getByRole('button', { name: 'Get Feedback' }).click();
    await toastWith(page, 'No question provided').waitFor();

    // printed colours are judged as printed on Color Metal (an engraved metal makes its own colours)
    await page.locator('#f-cardtype').selectOption('color');
    await page.locator('#f-bg').fill('#222222');
    await page.locator('#f-text').fill('#555555');
    // live contrast read-out while typing
    await expect.poll(() => page.getByTestId('live-contrast').textContent()).toContain('2.13:1');
    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Your Question').fill('Is my text readable?');
    await page.getByRole('button', { name: 'Get Feedback' }).click();
    await toastWith(page, 'Feedback received!').waitFor();
    const result = page.getByTestId('feedback-result');
    await result.waitFor();
    expect(await result.getByTestId('feedback-answer').textContent()).toMatch(/Color Metal with a Matte finish has a contrast of [12]\.\d\d:1/);
    const contrast = result.locator('[data-testid="finding"][data-id="contrast-text"]');
    expect(await contrast.getAttribute('data-severity')).toBe('critical');
    expect(Number(await result.getByTestId('feedback-score').evaluate((el) => el.firstChild?.textContent))).toBeLessThan(80);

    // a wrong colour format is caught before sending
    await page.locator('#f-text').fill('grey');
    await page.getByRole('button', { name: 'Get Feedback' }).click();
    await page.getByText('Use a hex colour like #1A2B3C').first().waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Color Palette: validates, generates swatches with copy buttons and the finish table', async () => {
    const { ctx, page, errors } = await signedInPage();
    await page.getByRole('tab', { name: 'Color Palette' }).click();
    expect(await page.locator('#p-base').inputValue()).toBe('#000000');
    expect(await page.locator('#p-mood option:not([value=""])').count()).toBe(10);
    await page.getByRole('button', { name: 'Generate Palette' }).click();
    await page.getByText('Mood is required').waitFor();
    await page.getByText('Industry is required').first().waitFor();

    await page.getByLabel('Mood').selectOption('Elegant');
    await page.locator('#p-industry').selectOption('Finance');
    await page.getByRole('button', { name: 'Generate Palette' }).click();
    await toastWith(page, 'Color palette generated!').waitFor();
    const result = page.getByTestId('palette-result');
    await result.waitFor();
    const swatches = result.getByTestId('swatch');
    expect(await swatches.count()).toBe(6);
    expect(await result.locator('[data-testid="swatch"][data-role="background"]').getAttribute('data-hex')).toBe('#000000');
    expect(await result.getByTestId('finish-table').locator('tbody tr').count()).toBe(12);
    await result.getByRole('button', { name: 'Copy all hex codes' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split(', ')).toHaveLength(6);

    // the server refuses a malformed colour (typed past the picker) with the field message
    await page.locator('#p-base').fill('#12345');
    await page.getByRole('button', { name: 'Generate Palette' }).click();
    await page.getByText('Use a hex colour like #1A2B3C').waitFor();

    // "Apply to my card" (issue 37): on the card's metal (Standard Metal, engraved) no printed colour
    // fits; each is marked, and Color Metal is offered only with a confirm naming the price
    const apply = result.getByTestId('apply-palette');
    expect(await apply.locator('[data-testid="apply-colour"][data-fits="true"]').count()).toBe(0);
    expect(await apply.getByRole('button', { name: 'Apply to my card' }).count()).toBe(0);
    const switchable = apply.locator('[data-testid="apply-colour"]', { hasText: 'Color Metal can print it' }).first();
    const accent = (await switchable.getAttribute('data-hex'))!.toLowerCase();
    await switchable.click();
    await apply.getByTestId('apply-palette-switch').click();
    const confirm = page.getByTestId('apply-price-confirm');
    expect(await confirm.textContent()).toContain('Standard Metal ($4.00 a card) to Color Metal ($5.00 a card): +$1.00 a card');
    await confirm.getByRole('button', { name: 'Keep Standard Metal' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(page.url()).toContain('/ai-assistant');
    await apply.getByTestId('apply-palette-switch').click();
    await page.getByRole('button', { name: /Switch and apply \(\+\$1\.00 a card\)/ }).click();
    await page.waitForURL(/\/design\?cardType=color&accent=/);
    await expect.poll(() => page.getByTestId('card-type-color').getAttribute('aria-checked'), { timeout: 20_000 }).toBe('true');
    // the name is drawn once it is filled in (empty fields are left off the card)
    await page.getByLabel('Full Name').fill('Alexandra Reed');
    await expect
      .poll(() => page.locator('[data-testid="card-pair"] text.card-accent').first().getAttribute('fill'), { timeout: 20_000 })
      .toBe(accent);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('Image Editor: refuses wrong files, removes a logo background and downloads the PNG', async () => {
    const { ctx, page, errors } = await signedInPage();
    await page.goto('/ai-assistant?tab=image');
    await page.getByRole('button', { name: 'Remove Background' }).click();
    await toastWith(page, 'No image selected').waitFor();

    const input = page.getByTestId('ai-image-input');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await toastWith(page, 'Invalid file type').waitFor();

    // a renamed non-image passes the browser's check but not the server's
    await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') });
    await page.getByRole('button', { name: 'Remove Background' }).click();
    const err = toastWith(page, 'Error processing image');
    await err.waitFor();
    expect(await err.textContent()).toContain('Invalid file type');

    const logo = await logoImage({ width: 600, height: 450 });
    await input.setInputFiles({ name: 'my logo.png', mimeType: 'image/png', buffer: logo });
    await page.getByRole('img', { name: 'Original image' }).waitFor();
    await page.getByRole('button', { name: 'Remove Background' }).click();
    await toastWith(page, 'Background removed!').waitFor();
    const after = page.getByTestId('result-image');
    await after.waitFor();
    await expect.poll(() => after.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);

    // preview backdrops
    await page.getByRole('radio', { name: 'Black background' }).click();
    expect(await page.getByTestId('result-frame').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 11, 12)');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-result').click()]);
    expect(download.suggestedFilename()).toBe('my-logo-no-background.png');
    const file = path.join(tmp, 'result.png');
    await download.saveAs(file);
    const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(600);
    expect(data[3]).toBe(0); // top-left corner transparent
    const mid = (Math.round(450 / 2) * 600 + Math.round(600 * 0.76)) * 4;
    expect([data[mid], data[mid + 1], data[mid + 2], data[mid + 3]]).toEqual([0x1f, 0x3a, 0x93, 255]);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
