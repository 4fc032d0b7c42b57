import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parse as parseCsv } from 'csv-parse/sync';
import vCard from 'vcf';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MOBILE, newContext, signUpViaApi, toastLocator, trackPageErrors, type BrowserServer, openBrowserSuite, closeBrowserSuite } from '#tests/helpers/browser';
import { orderInput } from '#tests/helpers/orders';
import { cardCodes } from '#server/db/schema/index';

// real-looking agents: headless ones count as bots and are never counted as views
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: BrowserServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await openBrowserSuite());
});
afterAll(() => closeBrowserSuite({ server, browser }));

/** waits for a condition in the page (loaded pages on a busy 2-core machine can take seconds) */
const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });

const lastToast = (page: Page) => toastLocator(page).first().textContent();

/** A signed-in owner (desktop browser) with a profile. */
async function ownerContext(fullName = 'Morgan Steel') {
  const ctx = await newContext(browser, server.baseUrl, { userAgent: DESKTOP_UA, acceptDownloads: true });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  const { input } = await signUpViaApi(ctx);
  const res = await ctx.request.post('/api/profile', {
    data: {
      fullName,
      jobTitle: 'Founder',
      email: 'morgan@example.com',
      phoneNumber: '+1 (212) 555-0142',
      companyName: 'Steel & Sons',
      links: [{ linkType: 'website', url: 'https://morgan.example/' }],
    },
  });
  expect(res.status()).toBe(201);
  return { ctx, input, profile: (await res.json()) as { id: string; fullName: string } };
}

/** A stranger's phone, optionally with JavaScript off. */
async function phone(javaScriptEnabled = true): Promise<BrowserContext> {
  return newContext(browser, server.baseUrl, { ...MOBILE, userAgent: IPHONE_UA, javaScriptEnabled });
}

async function download(page: Page, click: () => Promise<void>) {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await d.path();
  return { name: d.suggestedFilename(), text: fs.readFileSync(file!, 'utf8') };
}

describe('contact exchange in a real browser', () => {
  it('a visitor with JavaScript off leaves their details; the owner sees them, exports them and turns the form off', async () => {
    const { ctx, profile } = await ownerContext();

    // --- the visitor's phone, no JavaScript at all
    const visitor = await phone(false);
    const vp = await visitor.newPage();
    await vp.goto(`/p/${profile.id}`);
    await vp.getByText('Share your contact with Morgan').click(); // <details> opens without script
    await vp.getByLabel('Your name').fill('Ada Lovelace');
    await vp.getByLabel('Email').fill('ada@example.com');
    await vp.getByLabel('Company').fill('Engines, Ltd');
    await vp.getByLabel('Note').fill('Met at the fair; call me');
    // the browser refuses to send without consent (required checkbox), then sends
    await vp.getByRole('button', { name: 'Send my details' }).click();
    expect(vp.url()).toContain(`/p/${profile.id}`);
    expect(await vp.getByText('Thank you!').count()).toBe(0);
    await vp.getByLabel(/I agree to share these details with Morgan Steel/).check();
    await vp.getByRole('button', { name: 'Send my details' }).click();
    await vp.waitForURL(`**/p/${profile.id}/thanks`);
    expect(await vp.getByRole('status').textContent()).toContain('Your details were sent to Morgan Steel.');

    await visitor.close();

    // --- the owner's dashboard, Leads tab
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/dashboard?tab=leads');
    await until(() => page.getByTestId('lead-row').count()).toBe(1);
    const row = page.getByTestId('lead-row').first();
    expect(await row.textContent()).toContain('Ada Lovelace');
    expect(await row.textContent()).toContain('Engines, Ltd');
    expect(await row.textContent()).toContain('Met at the fair; call me');

    const csv = await download(page, () => page.getByRole('link', { name: 'Export CSV' }).click());
    expect(csv.name).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
    const records = parseCsv(csv.text, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(records).toEqual([
      expect.objectContaining({ 'First Name': 'Ada', 'Last Name': 'Lovelace', Email: 'ada@example.com', 'Company Name': 'Engines, Ltd', Message: 'Met at the fair; call me', Consent: 'yes' }),
    ]);
    const vcf = await download(page, () => page.getByRole('link', { name: 'Export contacts (.vcf)' }).click());
    const card = new vCard().parse(vcf.text);
    expect(String((card.get('fn') as any).valueOf())).toBe('Ada Lovelace');
    expect(String((card.get('email') as any).valueOf())).toBe('ada@example.com');

    // turn the form off: the public page no longer shows it
    await page.getByRole('checkbox', { name: 'Show the contact exchange form on my public profile' }).click();
    await until(() => lastToast(page)).toContain('Contact exchange is off');
    const later = await phone(false);
    const lp = await later.newPage();
    await lp.goto(`/p/${profile.id}`);
    expect(await lp.getByText('Save Contact').count()).toBeGreaterThan(0);
    expect(await lp.locator('form.ce-form').count()).toBe(0);
    await later.close();

    // delete the lead
    await page.getByRole('button', { name: 'Delete lead Ada Lovelace' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await until(() => page.getByTestId('leads-empty').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a wrong field comes back with its message and the typed values, then the corrected form goes through', async () => {
    const { ctx, profile } = await ownerContext('Jo Owner');
    const visitor = await phone(true);
    const vp = await visitor.newPage();
    const errors = trackPageErrors(vp);
    await vp.goto(`/p/${profile.id}`);
    await vp.getByText('Share your contact with Jo').click();
    await vp.getByLabel('Your name').fill('Eve Visitor');
    await vp.getByLabel('Phone').fill('+1 646 555 0101');
    await vp.getByLabel(/I agree/).check();
    await vp.locator('form.ce-form').evaluate((f) => f.setAttribute('novalidate', ''));
    await vp.getByLabel('Email').fill('eve@');
    await vp.getByRole('button', { name: 'Send my details' }).click();
    // the plain form posted; the answer is the form again with the message and the values
    await until(() => vp.getByText('Please enter a valid email address').isVisible()).toBe(true);
    expect(await vp.getByLabel('Your name').inputValue()).toBe('Eve Visitor');
    expect(await vp.getByLabel('Phone').inputValue()).toBe('+1 646 555 0101');
    await vp.getByLabel('Email').fill('eve@example.com');
    await vp.getByLabel(/I agree/).check();
    await vp.getByRole('button', { name: 'Send my details' }).click();
    await vp.waitForURL(`**/p/${profile.id}/thanks`);
    expect(errors).toEqual([]);
    const leads = await (await ctx.request.get('/api/leads')).json();
    expect(leads.leads.map((l: any) => [l.name, l.email, l.phone])).toEqual([['Eve Visitor', 'eve@example.com', '+1 646 555 0101']]);
    await visitor.close();
    await ctx.close();
  });
});

describe('contact exchange on the client-side render of /p/{id}', () => {
  it('sends JSON and thanks the visitor in place', async () => {
    const { ctx, profile } = await ownerContext('Sam Client');
    const visitor = await phone(true);
    const vp = await visitor.newPage();
    const errors = trackPageErrors(vp);
    await vp.goto('/');
    // client-side navigation (the router handles it; the server page is not fetched)
    await vp.evaluate((id) => {
      window.history.pushState({}, '', `/p/${id}`);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, profile.id);
    await until(() => vp.getByText('Share your contact with Sam').isVisible()).toBe(true);
    await vp.getByText('Share your contact with Sam').click();
    // the app's footer has its own e-mail field: stay inside the exchange form
    const form = vp.locator('form.ce-form');
    await form.getByLabel('Your name').fill('Client Visitor');
    await form.getByLabel('Email').fill('client@example.com');
    await form.getByLabel(/I agree/).check();
    const posted = vp.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/p/${profile.id}/leads`));
    await form.getByRole('button', { name: 'Send my details' }).click();
    expect((await posted).headers()['content-type']).toContain('application/json');
    await until(() => vp.getByRole('status').filter({ hasText: 'Thank you! Your details were sent.' }).isVisible()).toBe(true);
    expect(vp.url()).toMatch(new RegExp(`/p/${profile.id}$`));
    expect(errors).toEqual([]);
    const leads = await (await ctx.request.get('/api/leads')).json();
    expect(leads.leads.map((l: any) => l.name)).toEqual(['Client Visitor']);
    await visitor.close();
    await ctx.close();
  });
});

describe('card codes, save analytics and the e-mail signature in a real browser', () => {
  it("a batch's code is scanned, turned off (polite page), turned on again, and the dashboard shows views, saves, clicks and save rate by source", async () => {
    const { ctx, profile } = await ownerContext();
    const order = await ctx.request.post('/api/order', { data: orderInput() });
    expect(order.status()).toBe(201);
    const [{ code }] = await server.app.ctx.db.select({ code: cardCodes.code }).from(cardCodes).where(eq(cardCodes.orderId, (await order.json()).orderId));

    // the owner's card codes manager on the share tab
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/profile?tab=share');
    const row = page.locator(`[data-testid="card-code-row"][data-code="${code}"]`);
    await until(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain('Active');
    // the QR shown for the batch carries the upper-case short link
    expect(await row.locator('img[data-qr-value]').getAttribute('data-qr-value')).toBe(`${server.baseUrl.toUpperCase()}/C/${code}`);

    // a phone scans the QR (upper-case URL), saves the contact and opens a link
    const scanner = await phone(true);
    const sp = await scanner.newPage();
    await sp.goto(`${server.baseUrl.toUpperCase()}/C/${code}`);
    await sp.waitForURL(`**/p/${profile.id}?src=card&code=${code}`);
    expect(await sp.getByRole('heading', { name: 'Morgan Steel' }).isVisible()).toBe(true);
    const saved = await sp.request.get(`/api/vcard/${profile.id}`, { headers: { 'user-agent': IPHONE_UA } });
    expect(saved.status()).toBe(200);
    // a second visit through a shared link, and one direct
    await sp.goto(`/p/${profile.id}?src=link`);
    await sp.goto(`/p/${profile.id}`);

    // turn the batch off: the next scan shows the polite page, not the profile
    await row.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Turn off' }).click();
    await until(() => lastToast(page)).toContain('Card code turned off');
    await until(() => row.textContent()).toContain('Turned off');
    const gone = await sp.goto(`/c/${code.toLowerCase()}`);
    expect(gone?.status()).toBe(410);
    expect(await sp.getByRole('heading', { name: 'This card is no longer active' }).isVisible()).toBe(true);
    expect(await sp.getByText('Morgan').count()).toBe(0);
    // and on again
    await row.getByRole('button', { name: 'Turn on' }).click();
    await until(() => row.textContent()).toContain('Active');
    await sp.goto(`/c/${code}`);
    await sp.waitForURL(`**/p/${profile.id}?src=card&code=${code}`);
    await scanner.close();

    // the dashboard's engagement panel: 4 views (2 card, 1 link, 1 direct), 1 save = 25%
    await page.goto('/dashboard?tab=analytics');
    await until(() => page.getByTestId('engagement-views').textContent()).toBe('4');
    expect(await page.getByTestId('engagement-saves').textContent()).toBe('1');
    expect(await page.getByTestId('engagement-save-rate').textContent()).toBe('25%');
    expect(await page.getByTestId('source-card').textContent()).toContain('2');
    expect(await page.getByTestId('source-link').textContent()).toContain('1');
    expect(await page.getByTestId('source-direct').textContent()).toContain('1');
    expect(await page.getByTestId(`code-views-${code}`).textContent()).toContain('2');
    expect(await page.locator('.recharts-surface').count()).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'Range' }).selectOption('7');
    await until(() => page.getByTestId('engagement-views').textContent()).toBe('4');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('copies the e-mail signature as rich HTML with a plain-text twin', async () => {
    const { ctx, profile } = await ownerContext();
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/profile?tab=share');
    const preview = page.getByTestId('signature-preview');
    await until(() => preview.textContent()).toContain('Morgan Steel');
    expect(await preview.textContent()).toContain('Founder | Steel & Sons');
    const qr = preview.locator('img[alt^="QR code"]');
    expect(await qr.getAttribute('src')).toBe(`${server.baseUrl}/api/qrcode?data=${encodeURIComponent(`${server.baseUrl}/p/${profile.id}`)}&size=160&margin=4&format=png`);
    // the hosted QR image loads
    await until(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // turning the QR off removes it from the preview
    await page.getByLabel('QR code', { exact: true }).click();
    expect(await preview.locator('img[alt^="QR code"]').count()).toBe(0);
    await page.getByLabel('QR code', { exact: true }).click();

    await page.getByRole('button', { name: 'Copy signature' }).click();
    await until(() => lastToast(page)).toContain('Signature copied');
    const clip = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const html = await (await item.getType('text/html')).text();
      const text = await (await item.getType('text/plain')).text();
      return { types: item.types, html, text };
    });
    expect(clip.types).toEqual(expect.arrayContaining(['text/html', 'text/plain']));
    expect(clip.html).toContain('<table');
    expect(clip.html).toContain(`${server.baseUrl}/p/${profile.id}?src=link`);
    expect(clip.text).toContain('Morgan Steel');
    expect(clip.text).toContain(`Digital business card: ${server.baseUrl}/p/${profile.id}?src=link`);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
