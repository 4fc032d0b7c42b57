import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { JSDOM } from 'jsdom';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { cardCodes, visits } from '#server/db/schema/index';
import { visitFlusher } from './visit-flusher';

/**
 * The public page with issue 10 wired in: the contact exchange form in the server-rendered
 * page, views counted by source (card batch code, shared link, direct), saves and clicks.
 */
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

async function owner(over: Record<string, unknown> = {}) {
  const s = await signedInAgent(t.app);
  const res = await s.agent.post('/api/profile', {
    fullName: 'Jane Q. Public',
    jobTitle: 'Head of Sales',
    email: 'jane@example.com',
    links: [{ linkType: 'website', url: 'https://jane.example/' }],
    ...over,
  });
  expect(res.statusCode).toBe(201);
  return { ...s, profile: res.json() as { id: string; links: Array<{ id: number }> } };
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': IPHONE, ...headers } });

async function visitRows(profileId: string) {
  await visitFlusher(t.app.ctx).flush();
  return t.app.ctx.db.select({ source: visits.source, cardCode: visits.cardCode }).from(visits).where(eq(visits.profileId, profileId));
}

describe('the contact exchange form on the server-rendered page', () => {
  it('is a plain multipart form posting to the leads endpoint, with the consent box and a hidden honeypot', async () => {
    const { profile } = await owner();
    const res = await get(`/p/${profile.id}`);
    expect(res.statusCode).toBe(200);
    const doc = new JSDOM(res.body).window.document;
    const form = doc.querySelector('form.ce-form')!;
    expect(form).not.toBeNull();
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(`/api/p/${profile.id}/leads`);
    expect(form.getAttribute('enctype')).toBe('multipart/form-data');
    for (const name of ['name', 'email', 'phone', 'company', 'note', 'consent', 'website']) expect(form.querySelector(`[name="${name}"]`), name).not.toBeNull();
    expect(form.querySelector('[name="consent"]')!.hasAttribute('required')).toBe(true);
    expect(doc.body.textContent).toContain('I agree to share these details with Jane Q. Public');
    expect(form.querySelector('[name="website"]')!.closest('[aria-hidden="true"]')).not.toBeNull();
    // the form needs no script: the page's only script is the inline Share enhancement (decision
    // 37-04), nothing is loaded from elsewhere, and the form may post to the page's own origin
    expect(res.body).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(res.body.match(/<script/g) ?? []).toHaveLength(1);
    expect(doc.querySelector('script')!.textContent).toContain('pp-share');
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect((await get(`/api/p/${profile.id}/lead-form`)).json()).toEqual({ enabled: true });
  });

  it('disappears at once when the owner turns it off, and comes back', async () => {
    const { agent, profile } = await owner();
    expect((await get(`/p/${profile.id}`)).body).toContain('ce-form');
    await agent.put('/api/profile/lead-form', { enabled: false });
    const off = await get(`/p/${profile.id}`);
    expect(off.body).not.toContain('ce-form');
    expect(off.body).not.toContain('.ce-input');
    expect((await get(`/api/p/${profile.id}/lead-form`)).json()).toEqual({ enabled: false });
    expect((await get('/api/p/nosuchprofile1/lead-form')).statusCode).toBe(404);
    await agent.put('/api/profile/lead-form', { enabled: true });
    expect((await get(`/p/${profile.id}`)).body).toContain('ce-form');
  });

  it('keeps the page under 30 KB gzip (HTML + CSS) with the form and the longest fields', async () => {
    const long = (n: number) => 'Wm'.repeat(n / 2);
    const { profile } = await owner({
      fullName: long(100),
      jobTitle: long(100),
      companyName: long(100),
      address: long(300),
      phoneNumber: '+1 (212) 555-0199',
      links: [
        { linkType: 'website', url: `https://example.com/${'a'.repeat(1900)}` },
        { linkType: 'linkedin', url: `https://linkedin.com/in/${'b'.repeat(1900)}` },
        { linkType: 'github', url: `https://github.com/${'c'.repeat(1900)}` },
      ],
    });
    const res = await get(`/p/${profile.id}`, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThanOrEqual(30 * 1024);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toContain('ce-form');
  });
});

describe('views by source', () => {
  it("counts a scan of a batch code as a card view of that code, following the redirect like a phone", async () => {
    const { agent, profile } = await owner();
    const orderRes = await agent.post('/api/order', orderInput());
    expect(orderRes.statusCode).toBe(201);
    const [{ code }] = await t.app.ctx.db.select({ code: cardCodes.code }).from(cardCodes).where(eq(cardCodes.orderId, orderRes.json().orderId));

    const scan = await get(`/C/${code}`);
    expect(scan.statusCode).toBe(302);
    const landed = await get(String(scan.headers.location));
    expect(landed.statusCode).toBe(200);
    expect(landed.body).toContain('Jane Q. Public');
    expect(await visitRows(profile.id)).toEqual([{ source: 'card', cardCode: code }]);

    const s = (await agent.get('/api/stats/engagement?days=7')).json();
    expect(s.totals.views).toBe(1);
    expect(s.bySource.find((b: any) => b.source === 'card').views).toBe(1);
    expect(s.byCardCode[0]).toMatchObject({ code, views: 1 });
    expect((await agent.get('/api/card-codes')).json().codes[0]).toMatchObject({ code, views: 1 });
  });

  it('a turned-off code shows its page and counts nothing; a forged or foreign code counts as direct', async () => {
    const { agent, profile } = await owner();
    const other = await owner({ fullName: 'Other Owner' });
    const mine = (await agent.post('/api/card-codes', { label: 'Mine' })).json().code;
    const theirs = (await other.agent.post('/api/card-codes', { label: 'Theirs' })).json().code;
    await agent.patch(`/api/card-codes/${mine}`, { active: false });
    expect((await get(`/c/${mine}`)).statusCode).toBe(410);
    expect(await visitRows(profile.id)).toEqual([]);

    await get(`/p/${profile.id}?src=card&code=${mine}`); // turned off
    await get(`/p/${profile.id}?src=card&code=${theirs}`); // another owner's code
    await get(`/p/${profile.id}?src=card&code=NOPE99`);
    await get(`/p/${profile.id}?src=card`);
    const rows = await visitRows(profile.id);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.source === 'direct' && r.cardCode === null)).toBe(true);
  });

  it('counts the signature link and other sites as shared links, the rest as direct', async () => {
    const { profile } = await owner();
    await get(`/p/${profile.id}?src=link`);
    await get(`/p/${profile.id}`, { referer: 'https://www.linkedin.com/feed/' });
    await get(`/p/${profile.id}`);
    await get(`/p/${profile.id}`, { referer: 'http://localhost:80/profile' });
    const rows = (await visitRows(profile.id)).map((r) => r.source).sort();
    expect(rows).toEqual(['direct', 'direct', 'link', 'link']);
  });
});

describe('saves and clicks', () => {
  it('counts contact-file downloads and link clicks per day, not the owner’s own', async () => {
    const { agent, profile } = await owner();
    await get(`/p/${profile.id}`);
    await get(`/p/${profile.id}`);
    expect((await get(`/api/vcard/${profile.id}`)).statusCode).toBe(200);
    const go = await get(`/p/${profile.id}/go/${profile.links[0].id}`);
    expect(go.statusCode).toBe(302);
    // the owner's own views, saves and clicks do not count
    await agent.get(`/p/${profile.id}`, { 'user-agent': IPHONE });
    await agent.get(`/api/vcard/${profile.id}`, { 'user-agent': IPHONE });

    const s = (await agent.get('/api/stats/engagement?days=7')).json();
    expect(s.totals).toEqual({ views: 2, saves: 1, clicks: 1, leads: 0, saveRate: 0.5 });
    const today = s.daily[s.daily.length - 1];
    expect(today).toMatchObject({ views: 2, saves: 1, clicks: 1, saveRate: 0.5, direct: 2 });
  });
});
