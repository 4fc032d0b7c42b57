import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import vCard from 'vcf';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { uploadAs } from '#tests/helpers/multipart';
import { PROFILE_LAYOUTS } from '#shared/schemas/profile';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const SMART_TV = 'SomeTV/3.1 (SmartHub; built-in browser engine v7)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const png = (color = '#2255aa', w = 300, h = 300) => sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();

async function makeProfile(over: Record<string, unknown> = {}) {
  const owner = await signedInAgent(t.app);
  const body = {
    fullName: 'Jane Q. Public',
    jobTitle: 'Head of Sales',
    email: 'jane@example.com',
    phoneNumber: '+1 (212) 555-0199',
    address: '350 5th Ave, New York, NY',
    companyName: 'Acme, Inc.',
    profileTemplate: 'classic',
    links: [
      { linkType: 'website', url: 'https://jane.example/' },
      { linkType: 'linkedin', url: 'https://www.linkedin.com/in/jane' },
    ],
    ...over,
  };
  const res = await owner.agent.post('/api/profile', body);
  if (res.statusCode !== 201) throw new Error(res.body);
  return { owner, profile: res.json() };
}

const page = (url: string, ua = IPHONE, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { 'user-agent': ua, ...headers } });

async function stats(agent: Agent) {
  const res = await agent.get('/api/stats/visits');
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('GET /p/{id}', () => {
  it('is server-rendered HTML that reads and saves the contact without JavaScript', async () => {
    const { profile } = await makeProfile();
    const res = await page(`/p/${profile.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).toContain('<h1 class="pp-name">Jane Q. Public</h1>');
    expect(html).toContain('Head of Sales');
    expect(html).toContain('href="mailto:jane@example.com"');
    expect(html).toContain('href="tel:+12125550199"');
    expect(html).toContain('350 5th Ave, New York, NY');
    expect(html).toMatch(new RegExp(`<a class="pp-save" href="/api/vcard/${profile.id}"[^>]*download`));
    expect(html).toContain('Save Contact');
    // links: buttons through the counting redirect, new tab, labelled by type
    for (const l of profile.links) {
      expect(html).toContain(`href="/p/${profile.id}/go/${l.id}" target="_blank" rel="noopener noreferrer"`);
    }
    expect(html).toContain('<span>Website</span>');
    expect(html).toContain('<span>LinkedIn</span>');
    // one tiny inline script (Share, allowed by its hash), inlined CSS, no external stylesheet
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<script src');
    expect(html).toMatch(/<style>\.pp-page/);
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    // Share (decision 37-04): the address as a link for JavaScript off, the button hidden until the script shows it
    expect(html).toMatch(new RegExp(`<a class="pp-share-url" href="http://localhost(:\\d+)?/p/${profile.id}">`));
    expect(html).toMatch(/<button type="button" id="pp-share" class="pp-share-btn" data-url="[^"]+" hidden="">/);
    // the address opens a map (OpenStreetMap search)
    expect(html).toContain('href="https://www.openstreetmap.org/search?query=350%205th%20Ave%2C%20New%20York%2C%20NY"');
    // Open Graph
    expect(html).toContain('<meta property="og:title" content="Jane Q. Public – Head of Sales">');
    expect(html).toMatch(/<meta property="og:url" content="http:\/\/localhost(:\d+)?\/p\/[a-z0-9]+">/);
    expect(html).toContain('<meta property="og:description" content="Jane Q. Public, Head of Sales at Acme, Inc.');
  });

  it('escapes what people type', async () => {
    const { profile } = await makeProfile({ fullName: '<img src=x onerror=alert(1)>', jobTitle: '"><script>alert(1)</script>' });
    const html = (await page(`/p/${profile.id}`)).body;
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('renders each of the five layouts with its look and its logos', async () => {
    const { owner, profile } = await makeProfile();
    const logo = (await uploadAs(t.app, owner.agent, '/api/upload/logo', 'logoImage', await png('#111111', 200, 80))).json().url;
    const banner = (await uploadAs(t.app, owner.agent, '/api/upload/banner-logo', 'bannerLogoImage', await png('#eeeeee', 600, 120))).json().url;
    const photo = (await uploadAs(t.app, owner.agent, '/api/upload/profile-image', 'profileImage', await png('#aa5500'))).json().url;
    for (const layout of PROFILE_LAYOUTS) {
      const res = await owner.agent.put(`/api/profile/${profile.id}`, {
        ...profile,
        id: undefined,
        handle: undefined,
        createdAt: undefined,
        updatedAt: undefined,
        templateId: undefined,
        cardType: undefined,
        links: profile.links,
        profileTemplate: layout,
        logoUrl: logo,
        bannerLogoUrl: banner,
        customPhotoUrl: photo,
      });
      expect(res.statusCode, res.body).toBe(200);
      const html = (await page(`/p/${profile.id}`, DESKTOP)).body;
      expect(html).toContain(`class="pp-page pp-${layout}"`);
      expect(html).toContain(`src="${photo}"`);
      expect(html.includes(`src="${banner}"`), `${layout} banner`).toBe(layout === 'classic' || layout === 'modern');
      expect(html.includes(`src="${logo}"`), `${layout} logo`).toBe(layout === 'corporate');
      expect(html).toContain(`<meta property="og:image" content="http://localhost`);
    }
  });

  it('answers Profile Not Found with HTTP 404 for unknown or malformed ids', async () => {
    for (const id of ['zzzzzzzzzz', 'NOT-VALID', 'a'.repeat(60)]) {
      const res = await page(`/p/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Profile Not Found');
      expect(res.body).toContain('This profile does not exist or has been removed.');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/p/zzzzzzzzzz' })).statusCode).toBe(404);
  });

  it('?preview=true shows Back to Designer (and only then runs its one hashed script)', async () => {
    const { profile } = await makeProfile();
    const res = await page(`/p/${profile.id}?preview=true`);
    expect(res.body).toContain('Back to Designer');
    expect(res.body).toContain('href="/profile?tab=share"');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect((await page(`/p/${profile.id}`)).body).not.toContain('Back to Designer');
  });

  it('weighs at most 30 KB gzip (HTML + CSS) and is served compressed with an ETag', async () => {
    const { profile } = await makeProfile({ address: 'A'.repeat(290), links: [1, 2, 3].map((i) => ({ linkType: 'other', url: `https://example.com/${'x'.repeat(200)}${i}` })) });
    const res = await page(`/p/${profile.id}`, IPHONE, { 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThanOrEqual(30 * 1024);
    const html = zlib.gunzipSync(res.rawPayload).toString();
    expect(html).toContain('Jane Q. Public');
    const again = await page(`/p/${profile.id}`, IPHONE, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('shows an edit at once (the render cache is dropped on save)', async () => {
    const { owner, profile } = await makeProfile();
    expect((await page(`/p/${profile.id}`)).body).toContain('Jane Q. Public');
    await owner.agent.put('/api/profile', { fullName: 'Janet Renamed' });
    expect((await page(`/p/${profile.id}`)).body).toContain('Janet Renamed');
  });
});

describe('GET /api/p/{id}', () => {
  it('gives the public fields only', async () => {
    const { profile } = await makeProfile();
    const res = await page(`/api/p/${profile.id}`);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(Object.keys(p).sort()).toEqual(
      ['id', 'handle', 'fullName', 'jobTitle', 'email', 'phoneNumber', 'address', 'companyName', 'profileTemplate', 'customPhotoUrl', 'logoUrl', 'bannerLogoUrl', 'links'].sort(),
    );
    expect(p.links).toEqual(profile.links);
  });
});

describe('visits and link clicks', () => {
  it('records views with time, user agent and device; not bots, not the owner, not previews', async () => {
    const { owner, profile } = await makeProfile();
    await page(`/p/${profile.id}`, IPHONE);
    await page(`/p/${profile.id}`, DESKTOP);
    await page(`/p/${profile.id}`, SMART_TV);
    await page(`/p/${profile.id}`, GOOGLEBOT);
    await page(`/p/${profile.id}`, 'curl/8.5.0');
    await page(`/p/${profile.id}`, '');
    await page(`/p/${profile.id}?preview=true`, IPHONE);
    await t.app.inject({ method: 'HEAD', url: `/p/${profile.id}`, headers: { 'user-agent': IPHONE } });
    // the owner looking at their own page
    await owner.agent.get(`/p/${profile.id}`, { 'user-agent': IPHONE });
    await owner.agent.get(`/api/p/${profile.id}`, { 'user-agent': IPHONE });

    const s = await stats(owner.agent);
    expect(s.totalVisits).toBe(3);
    expect(s.visits.map((v: any) => v.device).sort()).toEqual(['Desktop', 'Mobile', 'Unknown']);
    const mobile = s.visits.find((v: any) => v.device === 'Mobile');
    expect(mobile.userAgent).toBe(IPHONE);
    expect(Date.now() - Date.parse(mobile.timestamp)).toBeLessThan(60_000);
    expect(s.daily).toHaveLength(30);
    expect(s.daily[29]).toEqual({ date: new Date().toISOString().slice(0, 10), count: 3 });
    // newest first
    const times = s.visits.map((v: any) => Date.parse(v.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('counts link clicks per link through the redirect', async () => {
    const { owner, profile } = await makeProfile();
    const [site, li] = profile.links;
    for (let i = 0; i < 2; i++) {
      const r = await page(`/p/${profile.id}/go/${site.id}`);
      expect(r.statusCode).toBe(302);
      expect(r.headers.location).toBe('https://jane.example/');
    }
    expect((await page(`/p/${profile.id}/go/${li.id}`)).headers.location).toBe('https://www.linkedin.com/in/jane');
    await page(`/p/${profile.id}/go/${li.id}`, GOOGLEBOT);
    // another profile's link id cannot be used through this profile
    const other = await makeProfile();
    expect((await page(`/p/${profile.id}/go/${other.profile.links[0].id}`)).statusCode).toBe(404);
    expect((await page(`/p/${profile.id}/go/abc`)).statusCode).toBe(404);
    const s = await stats(owner.agent);
    expect(s.linkClicks).toEqual([
      { linkId: site.id, linkType: 'website', url: 'https://jane.example/', clicks: 2 },
      { linkId: li.id, linkType: 'linkedin', url: 'https://www.linkedin.com/in/jane', clicks: 1 },
    ]);
  });

  it("a user's stats never include another profile's visits; no profile gives zeros", async () => {
    const a = await makeProfile();
    const b = await makeProfile();
    await page(`/p/${a.profile.id}`);
    await page(`/p/${a.profile.id}`);
    await page(`/p/${b.profile.id}`);
    expect((await stats(a.owner.agent)).totalVisits).toBe(2);
    expect((await stats(b.owner.agent)).totalVisits).toBe(1);
    const nobody = await signedInAgent(t.app);
    const s = await stats(nobody.agent);
    expect(s).toMatchObject({ totalVisits: 0, visits: [], linkClicks: [] });
    expect(s.daily).toHaveLength(30);
  });

  it('batches a burst of views into few writes and loses none', async () => {
    const { owner, profile } = await makeProfile();
    await Promise.all(Array.from({ length: 120 }, () => page(`/p/${profile.id}`)));
    expect((await stats(owner.agent)).totalVisits).toBe(120);
  });
});

describe('GET /api/vcard/{profileId}', () => {
  it('is a vCard 3.0 file named after the person, with the photo embedded as JPEG', async () => {
    const { owner, profile } = await makeProfile();
    const photo = (await uploadAs(t.app, owner.agent, '/api/upload/profile-image', 'profileImage', await png('#aa5500', 900, 600))).json().url;
    await owner.agent.put('/api/profile', { customPhotoUrl: photo });
    const res = await page(`/api/vcard/${profile.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/vcard; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="Jane Q. Public.vcf"');
    const text = res.body;
    expect(text.startsWith('BEGIN:VCARD\r\nVERSION:3.0\r\n')).toBe(true);
    const card = new vCard().parse(text);
    const val = (n: string) => (card.get(n) as any).valueOf();
    expect(val('fn')).toBe('Jane Q. Public');
    expect(val('org')).toBe('Acme\\, Inc.');
    expect(val('title')).toBe('Head of Sales');
    expect(val('email')).toBe('jane@example.com');
    expect(val('tel')).toBe('+12125550199');
    expect(val('adr')).toBe(';;350 5th Ave\\, New York\\, NY;;;;');
    expect((card.get('url') as any[])[0].valueOf()).toBe('https://jane.example/');
    expect(val('xDigitalProfile')).toMatch(new RegExp(`^http://localhost(:\\d+)?/p/${profile.id}$`));
    expect(text).toMatch(/\r\nPHOTO;ENCODING=b;TYPE=JPEG:/);
    const jpeg = Buffer.from(val('photo'), 'base64');
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeLessThanOrEqual(256);
    // the QR code URL in the card answers a QR image
    const qr = new URL(val('xQrCode'));
    expect((await t.app.inject({ method: 'GET', url: qr.pathname + qr.search })).headers['content-type']).toBe('image/png');
  });

  it('answers 404 for an unknown profile', async () => {
    expect((await page('/api/vcard/zzzzzzzzzz')).statusCode).toBe(404);
    expect((await page('/api/vcard/..%2Fetc')).statusCode).toBe(404);
  });
});

describe('GET /api/cards', () => {
  it("lists only the user's own cards with template, customizations, status and QR state", async () => {
    const me = await signedInAgent(t.app);
    const other = await signedInAgent(t.app);
    await t.app.ctx.db.execute(sql`insert into templates (id, name, folder) values (16, 'Classic', 'classic') on conflict do nothing`);
    await t.app.ctx.db.execute(
      sql`insert into cards (user_id, template_id, card_type, customer_profile, customizations, qr_code_url, status) values
        (${me.user.id}, 16, 'color', '{}'::jsonb, '{"textColor":"#FFD700"}'::jsonb, '/files/cards/2026/q.png', 'approved'),
        (${other.user.id}, 16, 'standard', '{}'::jsonb, null, null, 'pending')`,
    );
    const res = await me.agent.get('/api/cards');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      templateId: 16,
      cardType: 'color',
      status: 'approved',
      qrGenerated: true,
      customizations: { layout: 'standard', backgroundColor: '#000000', textColor: '#FFD700', overlayOpacity: 0.2 },
    });
    expect(list[0].templateName).toBeTruthy();
    expect((await other.agent.get('/api/cards')).json()[0]).toMatchObject({ qrGenerated: false, status: 'pending' });
  });
});
