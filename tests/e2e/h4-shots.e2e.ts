import { afterAll, beforeAll, it } from 'vitest';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { launchBrowser, MOBILE, newContext, signUpViaApi, startBrowserServer, type BrowserServer } from '#tests/helpers/browser';
let server: BrowserServer;
let browser: Browser;
beforeAll(async () => { [server, browser] = await Promise.all([startBrowserServer(), launchBrowser()]); });
afterAll(async () => { await browser?.close(); await server?.close(); });
it('shots', async () => {
  const ctx = await newContext(browser, server.baseUrl, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0' });
  await signUpViaApi(ctx);
  const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#aa7755' } }).png().toBuffer();
  const up = async (kind: string, field: string, buf: Buffer) => (await (await ctx.request.post(`/api/upload/${kind}`, { multipart: { [field]: { name: 'a.png', mimeType: 'image/png', buffer: buf } } })).json()).url;
  const pu = await up('profile-image', 'profileImage', photo);
  const logo = await up('logo', 'logoImage', await sharp({ create: { width: 200, height: 60, channels: 3, background: '#ffffff' } }).png().toBuffer());
  const banner = await up('banner-logo', 'bannerLogoImage', await sharp({ create: { width: 400, height: 80, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0.8 } } }).png().toBuffer());
  const p = await (await ctx.request.post('/api/profile', { data: { fullName: 'Morgan Steel', jobTitle: 'Founder & CEO', email: 'morgan@example.com', phoneNumber: '+1 (212) 555-0142', address: '1 Wall St, New York, NY', companyName: 'Steel & Sons', customPhotoUrl: pu, logoUrl: logo, bannerLogoUrl: banner, links: [{ linkType: 'website', url: 'https://a.example' }, { linkType: 'linkedin', url: 'https://linkedin.com/in/x' }] } })).json();
  const phone = await newContext(browser, server.baseUrl, { ...MOBILE });
  const ph = await phone.newPage();
  for (const layout of ['classic', 'modern', 'minimal', 'creative', 'corporate']) {
    await ctx.request.put('/api/profile', { data: { profileTemplate: layout } });
    await ph.goto(`/p/${p.id}`);
    await ph.screenshot({ path: `/tmp/h4-${layout}.png`, fullPage: true });
  }
  const page = await ctx.newPage();
  for (const tab of ['profile', 'media', 'share']) {
    await page.goto(`/profile?tab=${tab}`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/h4-tab-${tab}.png`, fullPage: true });
  }
  await page.goto('/dashboard');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/h4-dash.png`, fullPage: true });
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/h4-dash-an.png`, fullPage: true });
});
