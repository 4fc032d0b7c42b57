import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import vCard from 'vcf';
import type { Browser, Page } from 'playwright-core';
import { MOBILE, newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { decodeQrImage } from '#tests/helpers/qr-decode';

// a desktop browser and a phone that "scans" the card (real-looking agents: headless ones count as bots)
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

const lastToast = (page: Page) => toastLocator(page).first().textContent();

async function pngFile(color: string, w = 400, h = 400) {
  return sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();
}

describe('profile, sharing and analytics in a real browser', () => {
  it('signs up, fills the profile, uploads images, shares, is scanned, saved as a contact and counted', async () => {
    const ctx = await newContext(browser, server.baseUrl, { userAgent: DESKTOP_UA });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const { input } = await signUpViaApi(ctx);
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);

    // --- profile tab: validation, links, layout, save
    await page.goto('/profile');
    await page.getByLabel('Full name').fill('A');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Phone number').fill('12');
    await page.getByRole('button', { name: 'Create Profile' }).click();
    await expect.poll(() => page.getByText('Name must be at least 2 characters').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Please enter a valid phone number').isVisible()).toBe(true);

    await page.getByLabel('Full name').fill('Morgan Steel');
    await page.getByLabel('Job title').fill('Founder');
    await page.getByLabel('Email', { exact: true }).fill('morgan@example.com');
    await page.getByLabel('Phone number').fill('+1 (212) 555-0142');
    await page.getByLabel('Company', { exact: true }).fill('Steel & Sons, Inc.');
    await page.getByLabel('Address', { exact: true }).fill('1 Wall St, New York, NY');

    // three links: the add button counts down and disappears at 3
    await page.getByRole('button', { name: 'Add Link (3 remaining)' }).click();
    await page.getByLabel('Link 1 URL').fill('morgan.example');
    await page.getByRole('button', { name: 'Add Link (2 remaining)' }).click();
    await page.getByLabel('Link 2 type').selectOption('linkedin');
    await page.getByLabel('Link 2 URL').fill('https://www.linkedin.com/in/morgan');
    await page.getByRole('button', { name: 'Add Link (1 remaining)' }).click();
    await page.getByLabel('Link 3 URL').fill('javascript:alert(1)');
    expect(await page.getByRole('button', { name: /Add Link/ }).count()).toBe(0);
    await page.getByText('Modern', { exact: true }).click();
    await page.getByRole('button', { name: 'Create Profile' }).click();
    await expect.poll(() => page.getByText('Please enter a valid URL starting with http:// or https://').isVisible()).toBe(true);
    // remove the bad (unsaved) link: it is dropped and the add button returns
    await page.getByRole('button', { name: 'Remove link 3' }).click();
    expect(await page.getByRole('button', { name: 'Add Link (1 remaining)' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Create Profile' }).click();
    await expect.poll(() => lastToast(page)).toContain('Profile updated');
    await expect.poll(() => page.getByRole('button', { name: 'Save Profile' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Link 1 URL').inputValue()).toBe('https://morgan.example');

    const profile = await (await ctx.request.get('/api/profile')).json();
    expect(profile).toMatchObject({ fullName: 'Morgan Steel', profileTemplate: 'modern', companyName: 'Steel & Sons, Inc.' });
    expect(profile.links.map((l: any) => l.linkType)).toEqual(['website', 'linkedin']);

    // removing a saved link sends its id in deleteLinks
    const deleted = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/profile/${profile.id}`));
    await page.getByRole('button', { name: 'Remove link 2' }).click();
    await page.getByRole('button', { name: 'Save Profile' }).click();
    const body = (await deleted).postDataJSON();
    expect(body.deleteLinks).toEqual([profile.links[1].id]);
    expect(body.links).toEqual([{ id: profile.links[0].id, linkType: 'website', url: 'https://morgan.example', label: null }]);
    expect(body).not.toHaveProperty('links.0.isNew');
    await expect.poll(async () => (await (await ctx.request.get('/api/profile')).json()).links.length).toBe(1);

    // --- media tab: three uploads with toasts; an oversized file is refused before sending
    await page.getByRole('tab', { name: 'Media' }).click();
    await page.waitForURL('**/profile?tab=media');
    await expect.poll(() => page.getByText('PNG, JPG, GIF up to 5MB').isVisible()).toBe(true);
    await page.locator('#upload-profile-image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await pngFile('#aa5533') });
    await expect.poll(() => lastToast(page)).toContain('Upload successful');
    await expect.poll(() => page.getByAltText('Current profile photo').isVisible()).toBe(true);
    await page
      .locator('#upload-logo')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#333"/><script>alert(1)</script></svg>') });
    await expect.poll(() => page.getByAltText('Current company logo').isVisible()).toBe(true);
    await page.locator('#upload-banner-logo').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: await pngFile('#eeeeee', 900, 200) });
    await expect.poll(() => page.getByAltText('Current banner logo').isVisible()).toBe(true);
    const big = Buffer.concat([await pngFile('#000000', 10, 10), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    await page.locator('#upload-profile-image').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await expect.poll(async () => (await toastLocator(page).allTextContents()).join(' ')).toContain('File too large');
    const withImages = await (await ctx.request.get('/api/profile')).json();
    expect(withImages.customPhotoUrl).toMatch(/^\/files\/uploads\//);
    expect(withImages.logoUrl).toMatch(/\.svg$/);
    expect(withImages.bannerLogoUrl).toMatch(/^\/files\/uploads\//);

    // --- share tab: link, copy, QR code, contact card, card preview
    await page.getByRole('button', { name: 'Continue to Share Profile' }).click();
    await page.waitForURL('**/profile?tab=share');
    const publicUrl = `${server.baseUrl}/p/${profile.id}`;
    expect(await page.getByLabel('Your public profile link').inputValue()).toBe(publicUrl);
    await page.getByRole('button', { name: 'Copy Link' }).click();
    await expect.poll(() => lastToast(page)).toContain('Link copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl);

    // the phone "scans" the QR code on screen
    const qr = page.getByTestId('qr-panel').getByRole('img', { name: 'QR code of your public profile' });
    const scanned = await decodeQrImage(await qr.screenshot());
    expect(scanned).toBe(publicUrl);
    for (const style of ['rounded', 'circular', 'dot']) {
      await page.getByLabel('Style').selectOption(style);
      expect(await decodeQrImage(await qr.screenshot()), style).toBe(publicUrl);
    }

    // contact card panel: download
    const dl = page.waitForEvent('download');
    await page.getByTestId('contact-card-panel').getByRole('button', { name: 'Download' }).click();
    expect((await dl).suggestedFilename()).toBe('Morgan Steel.vcf');
    await expect.poll(() => lastToast(page)).toContain('VCard Downloaded');

    // business card preview: flips on click and with the button; download saves two files
    const card = page.getByTestId('card-flip');
    await expect.poll(() => card.getAttribute('data-side'), { timeout: 20_000 }).toBe('front');
    // hovering tilts the card toward the mouse; leaving resets it
    await card.scrollIntoViewIfNeeded();
    const box = (await card.boundingBox())!;
    expect(Math.round(box.width)).toBe(350);
    expect(Math.round(box.height)).toBe(200);
    const tilt = card.locator('xpath=..');
    await page.mouse.move(box.x + box.width - 5, box.y + 5, { steps: 3 });
    await expect.poll(() => tilt.evaluate((el) => (el as HTMLElement).style.transform)).toMatch(/rotateX\(\d[\d.]*deg\) rotateY\(1[\d.]*deg\)/);
    await page.mouse.move(box.x + box.width / 2, box.y - 120);
    await expect.poll(() => tilt.evaluate((el) => (el as HTMLElement).style.transform)).toBe('rotateX(0deg) rotateY(0deg)');
    await card.click();
    expect(await card.getAttribute('data-side')).toBe('back');
    await page.getByRole('button', { name: 'Flip Card' }).click();
    expect(await card.getAttribute('data-side')).toBe('front');
    const files: string[] = [];
    page.on('download', (d) => files.push(d.suggestedFilename()));
    await page.getByRole('button', { name: 'Download Card' }).click();
    await expect.poll(() => files.length, { timeout: 10_000 }).toBe(2);
    expect(files[0]).toMatch(/front\.jpg$/);
    expect(files[1]).toMatch(/back\.jpg$/);
    await expect.poll(() => lastToast(page)).toContain('Cards downloaded!');

    // --- a stranger's phone opens the scanned URL with JavaScript off and saves the contact
    const phone = await newContext(browser, server.baseUrl, { ...MOBILE, userAgent: IPHONE_UA, javaScriptEnabled: false });
    const ph = await phone.newPage();
    const res = await ph.goto(scanned!);
    expect(res?.status()).toBe(200);
    expect(await ph.getByRole('heading', { name: 'Morgan Steel' }).isVisible()).toBe(true);
    expect(await ph.getByText('Founder').isVisible()).toBe(true);
    expect(await ph.locator('.pp-modern').count()).toBe(1);
    expect(await ph.getByRole('img', { name: /banner/i }).isVisible()).toBe(true);
    const link = ph.getByRole('link', { name: 'Website' });
    expect(await link.getAttribute('target')).toBe('_blank');
    const save = ph.waitForEvent('download');
    await ph.getByRole('link', { name: 'Save Contact' }).click();
    const download = await save;
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const contact = new vCard().parse(text);
    expect(contact.version).toBe('3.0');
    expect((contact.get('fn') as any).valueOf()).toBe('Morgan Steel');
    expect((contact.get('org') as any).valueOf()).toBe('Steel & Sons\\, Inc.');
    expect((contact.get('tel') as any).valueOf()).toBe('+12125550142');
    expect((contact.get('photo') as any).type).toBe('jpeg');
    await phone.close();

    // --- the dashboard shows the visit
    await page.goto('/dashboard');
    await expect.poll(() => page.getByTestId('profile-status').textContent()).toContain('Complete');
    expect(await page.getByTestId('card-status').textContent()).toContain('Not created');
    await expect.poll(() => page.getByTestId('profile-views').textContent()).toContain('1');
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await expect.poll(() => page.getByTestId('engagement-views').textContent()).toContain('1');
    // the visit tiles do not repeat the engagement panel's figures (decision 37-09)
    expect(await page.getByTestId('total-views').count()).toBe(0);
    await expect.poll(() => page.getByTestId('latest-visits').textContent()).toContain('Mobile');
    expect(await page.getByTestId('link-clicks').textContent()).toContain('Website');
    expect(errors).toEqual([]);
    expect(input.email).toBeTruthy();
    await ctx.close();
  });

  it('sends signed-out visitors to /login, asks for a profile before designing, hides the admin tab', async () => {
    const anon = await newContext(browser, server.baseUrl, { userAgent: DESKTOP_UA });
    const p = await anon.newPage();
    await p.goto('/profile');
    await p.waitForURL('**/login');
    await p.goto('/dashboard');
    await p.waitForURL('**/login');
    await anon.close();

    const ctx = await newContext(browser, server.baseUrl, { userAgent: DESKTOP_UA });
    await signUpViaApi(ctx);
    const page = await ctx.newPage();
    await page.goto('/profile?tab=admin');
    expect(await page.getByRole('tab', { name: 'Admin' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Profile Information' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('button', { name: 'Design Your Card' }).click();
    await expect.poll(() => lastToast(page)).toContain('Profile Required');
    expect(await lastToast(page)).toContain('Please complete your profile information first');
    await page.goto('/profile?tab=share');
    await expect.poll(() => page.getByTestId('no-profile').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Complete Profile' }).click();
    await page.waitForURL((u) => !u.search.includes('tab='));
    // the dashboard for a new user
    await page.goto('/dashboard');
    await expect.poll(() => page.getByTestId('profile-status').textContent()).toContain('Incomplete');
    expect(await page.getByRole('link', { name: 'Create Profile' }).first().getAttribute('href')).toBe('/profile');
    await ctx.close();
  });

  it('shows Profile Not Found for an unknown id, and Back to Designer in preview', async () => {
    const ctx = await newContext(browser, server.baseUrl, { userAgent: DESKTOP_UA });
    const page = await ctx.newPage();
    const res = await page.goto('/p/zzzzzzzzzz');
    expect(res?.status()).toBe(404);
    expect(await page.getByRole('heading', { name: 'Profile Not Found' }).isVisible()).toBe(true);

    await signUpViaApi(ctx);
    const created = await ctx.request.post('/api/profile', { data: { fullName: 'Preview Person', profileTemplate: 'corporate', companyName: 'Preview Co' } });
    const { id } = await created.json();
    await page.goto('/profile?tab=share');
    await page.getByRole('link', { name: 'Preview your public profile' }).click();
    await page.waitForURL(`**/p/${id}?preview=true`);
    expect(await page.getByText('Preview Co').first().isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to Designer' }).click();
    await page.waitForURL('**/profile?tab=share');
    await ctx.close();
  });
});
