import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Agent, createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { insertOrder } from '#tests/helpers/admin-factories';
import type { ShopSettingsResponse, SiteLegal, SiteSettings, SiteStudio } from '#shared/schemas/settings';
import { mapSearchUrl } from '#shared/settings/studio';
import { SHOP_SETTINGS_DEFAULTS } from '#shared/settings/defaults';
import { getMaxProfileLinks } from './public-api';
import type { OrderStatusView } from '#shared/schemas/orders';
import { outbox, shopSettings } from '#server/db/schema/index';

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://cards.example.test' } });
  admin = (await adminAgent(t.app)).agent;
});
afterAll(async () => {
  await t.close();
});

const STUDIO = {
  address: '123 Mercer St, Suite 4\nNew York, NY 10012',
  phone: '+1 (212) 555-0199',
  hours: 'Mon-Fri 10:00-6:00 EST\nSat 11:00-3:00 EST\nSun Closed',
  pickupInstructions: 'Ring the bell marked Metal Cards; we are on the 4th floor.',
};

describe('shop settings (issue 35)', () => {
  it('staff only; the spec values are the defaults, the street address is flagged as a placeholder', async () => {
    expect((await new Agent(t.app).get('/api/admin/settings')).statusCode).toBe(401);
    const customer = (await signedInAgent(t.app)).agent;
    expect((await customer.get('/api/admin/settings')).statusCode).toBe(403);
    expect((await customer.put('/api/admin/settings', { studio: STUDIO })).statusCode).toBe(403);

    const res = await admin.get('/api/admin/settings');
    expect(res.statusCode).toBe(200);
    const s = res.json() as ShopSettingsResponse;
    expect(s.studio).toEqual(SHOP_SETTINGS_DEFAULTS.studio);
    expect(s.studio.hours).toBe('Mon-Fri 9:00-6:00 EST\nSat 10:00-4:00 EST\nSun Closed');
    expect(s.placeholders).toEqual(['studio.address']);
    expect(s.updatedAt).toBeNull();
  });

  it('PUT takes a part of a section and keeps the rest; the public studio endpoint and pickup orders read it', async () => {
    const first = await admin.put('/api/admin/settings', { studio: { phone: STUDIO.phone } });
    expect(first.statusCode).toBe(200);
    expect((first.json() as ShopSettingsResponse).studio).toEqual({ ...SHOP_SETTINGS_DEFAULTS.studio, phone: STUDIO.phone });

    const bad = await admin.put('/api/admin/settings', { studio: { address: '  ' }, other: 1 });
    expect(bad.statusCode).toBe(400);
    const empty = await admin.put('/api/admin/settings', { studio: { address: ' ' } });
    expect(empty.json().errors).toEqual({ 'studio.address': 'Enter the studio address' });

    const all = (await admin.put('/api/admin/settings', { studio: STUDIO })).json() as ShopSettingsResponse;
    expect(all.studio).toEqual(STUDIO);
    expect(all.placeholders).toEqual([]);
    expect(all.updatedAt).not.toBeNull();
    expect(await t.app.ctx.db.select().from(shopSettings)).toHaveLength(1);

    const pub = await new Agent(t.app).get('/api/site/studio');
    expect(pub.statusCode).toBe(200);
    const studio = pub.json() as SiteStudio;
    expect(studio).toEqual({ ...STUDIO, mapUrl: mapSearchUrl(STUDIO.address) });
    expect(studio.mapUrl).toBe('https://www.google.com/maps/search/?api=1&query=123%20Mercer%20St%2C%20Suite%204%2C%20New%20York%2C%20NY%2010012');

    // a pickup order's page shows the studio; a shipped one does not
    const pickup = await t.app.inject({ method: 'POST', url: '/api/order', payload: orderInput({ deliveryOption: 'pickup-nyc' }), remoteAddress: '10.36.0.1' });
    const view = (await new Agent(t.app).get(`/api/order-status/${pickup.json().statusUrl.split('/order-status/')[1]}`)).json() as OrderStatusView;
    expect(view.studio).toEqual(studio);
    expect(view.shippingAddress).toBeNull();
    expect(view.addressEditable).toBe(false);
    expect(view.deliveryPromise).toMatch(/^Ready for pickup by /);

    // the pickup e-mail carries the studio's address, map link, hours and instructions
    const o = await insertOrder(t.app, { status: 'quality-check', deliveryOption: 'pickup-nyc' });
    const ready = await admin.post(`/api/admin/orders/${o.id}/pickup-ready`, {});
    expect(ready.statusCode).toBe(200);
    const [mail] = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, o.email), eq(outbox.kind, 'order-status')));
    expect(mail.textBody).toContain('Studio: 123 Mercer St, Suite 4, New York, NY 10012');
    expect(mail.textBody).toContain(studio.mapUrl);
    expect(mail.textBody).toContain('Mon-Fri 10:00-6:00 EST; Sat 11:00-3:00 EST; Sun Closed');
    expect(mail.textBody).toContain(STUDIO.pickupInstructions);
  });
});

describe('shop settings: claims, link limit and legal texts (issue 37)', () => {
  const current = async () => (await admin.get('/api/admin/settings')).json() as ShopSettingsResponse;

  it('staff only; the defaults are the spec\'s: 3 links, its fixed claims shown, a privacy policy and terms', async () => {
    const anon = new Agent(t.app);
    expect((await anon.put('/api/admin/settings', { maxProfileLinks: 10 })).statusCode).toBe(401);
    const customer = (await signedInAgent(t.app)).agent;
    expect((await customer.put('/api/admin/settings', { claims: [] })).statusCode).toBe(403);
    expect((await customer.put('/api/admin/settings', { legal: { terms: 'Mine' } })).statusCode).toBe(403);
    const fresh = await createTestApp();
    try {
      const staff = (await adminAgent(fresh.app)).agent;
      const s = (await staff.get('/api/admin/settings')).json() as ShopSettingsResponse;
      expect(s.maxProfileLinks).toBe(3);
      expect(s.claims).toEqual([
        { id: 'satisfaction', text: '98% customer satisfaction', shown: true },
        { id: 'average-delivery', text: '24-48 hour average delivery', shown: true },
      ]);
      expect(s.legal).toEqual(SHOP_SETTINGS_DEFAULTS.legal);
      // the defaults say what the product keeps and who else sees it
      for (const word of ['orders', 'photo', 'contact form', 'statistics', 'e-mail', 'online store', 'delete your account']) expect(s.legal.privacy).toContain(word);
      expect(s.legal.terms).toContain('Reviews are published once they are verified');
      expect(await getMaxProfileLinks(fresh.app.ctx.db)).toBe(3);
      const pub = (await new Agent(fresh.app).get('/api/site/settings')).json() as SiteSettings;
      expect(pub).toEqual({ claims: [{ id: 'satisfaction', text: '98% customer satisfaction' }, { id: 'average-delivery', text: '24-48 hour average delivery' }], maxProfileLinks: 3 });
      const privacy = await new Agent(fresh.app).get('/api/site/legal/privacy');
      expect(privacy.statusCode).toBe(200);
      expect(privacy.headers['cache-control']).toBe('no-cache');
      expect(privacy.json()).toEqual({ document: 'privacy', title: 'Privacy Policy', text: SHOP_SETTINGS_DEFAULTS.legal.privacy });
      expect((await new Agent(fresh.app).get('/api/site/legal/cookies')).statusCode).toBe(400);
    } finally {
      await fresh.close();
    }
  });

  it('refuses bad values with field messages and writes nothing', async () => {
    const before = await current();
    const cases: Array<[object, Record<string, string>]> = [
      [{ maxProfileLinks: 0 }, { maxProfileLinks: 'Enter a whole number from 1 to 50' }],
      [{ maxProfileLinks: 51 }, { maxProfileLinks: 'Enter a whole number from 1 to 50' }],
      [{ maxProfileLinks: 2.5 }, { maxProfileLinks: 'Enter a whole number from 1 to 50' }],
      [{ maxProfileLinks: '5' }, { maxProfileLinks: 'Enter a whole number from 1 to 50' }],
      [{ claims: [{ id: 'satisfaction', text: '  ', shown: true }] }, { 'claims.0.text': 'Enter the claim, or untick Shown to hide it' }],
      [{ claims: [{ id: 'satisfaction', text: 'x'.repeat(81), shown: true }] }, { 'claims.0.text': 'Claim must be at most 80 characters' }],
      [{ claims: [{ id: 'Bad Id', text: 'Fast', shown: true }] }, { 'claims.0.id': 'A claim id is 1-40 lower-case letters, digits or dashes' }],
      [{ claims: [{ id: 'a', text: 'One', shown: true }, { id: 'a', text: 'Two', shown: false }] }, { 'claims.1.id': 'Each claim needs its own id' }],
      [{ claims: [{ id: 'a', text: 'One', shown: 'yes' }] }, { 'claims.0.shown': 'Shown must be true or false' }],
      [{ legal: { terms: ' ' } }, { 'legal.terms': 'Enter the terms of service' }],
      [{ legal: { privacy: 'x'.repeat(20_001) } }, { 'legal.privacy': 'Privacy policy must be at most 20000 characters' }],
    ];
    for (const [body, errors] of cases) {
      const res = await admin.put('/api/admin/settings', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().errors).toEqual(errors);
    }
    expect((await admin.put('/api/admin/settings', { claims: [{ id: 'a', text: 'One', shown: true, icon: 'x' }] })).statusCode).toBe(400);
    expect((await admin.put('/api/admin/settings', { legal: { cookies: 'x' } })).statusCode).toBe(400);
    expect(await current()).toEqual(before);
  });

  it('a change shows at once on the public endpoints; what is left out keeps its value', async () => {
    const pub = new Agent(t.app);
    expect(((await pub.get('/api/site/settings')).json() as SiteSettings).claims).toHaveLength(2);
    const claims = [
      { id: 'satisfaction', text: '98% customer satisfaction', shown: false },
      { id: 'average-delivery', text: '  2-3 day average delivery ', shown: true },
    ];
    const saved = await admin.put('/api/admin/settings', { claims, maxProfileLinks: 12, legal: { terms: 'Our new terms.\n\n## Returns\n- Within 30 days' } });
    expect(saved.statusCode).toBe(200);
    const s = saved.json() as ShopSettingsResponse;
    expect(s.claims).toEqual([claims[0], { ...claims[1], text: '2-3 day average delivery' }]);
    expect(s.legal.privacy).toBe(SHOP_SETTINGS_DEFAULTS.legal.privacy);
    expect(s.studio).toEqual(STUDIO);
    const site = (await pub.get('/api/site/settings')).json() as SiteSettings;
    expect(site).toEqual({ claims: [{ id: 'average-delivery', text: '2-3 day average delivery' }], maxProfileLinks: 12 });
    expect(((await pub.get('/api/site/legal/terms')).json() as SiteLegal).text).toBe('Our new terms.\n\n## Returns\n- Within 30 days');
    expect(await getMaxProfileLinks(t.app.ctx.db)).toBe(12);
    // a partial PUT of another section keeps the claims and the limit
    await admin.put('/api/admin/settings', { legal: { privacy: 'Short policy.' } });
    const after = await current();
    expect(after.claims).toEqual(s.claims);
    expect(after.maxProfileLinks).toBe(12);
    expect(after.legal).toEqual({ privacy: 'Short policy.', terms: 'Our new terms.\n\n## Returns\n- Within 30 days' });
    // every claim hidden: the public list is empty
    await admin.put('/api/admin/settings', { claims: claims.map((c) => ({ ...c, shown: false })) });
    expect(((await pub.get('/api/site/settings')).json() as SiteSettings).claims).toEqual([]);
  });

  it('the profile page\'s contact form links the privacy policy', async () => {
    const s = await signedInAgent(t.app);
    const created = await s.agent.post('/api/profile', { fullName: 'Lee Privacy', email: 'lee@example.com' });
    expect(created.statusCode).toBe(201);
    const page = await t.app.inject({ method: 'GET', url: `/p/${(created.json() as { id: string }).id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<form class="ce-form"[\s\S]*<a href="\/privacy">Privacy Policy<\/a>[\s\S]*<\/form>/);
  });

  it('a stored value that no longer passes its rule reads as its default', async () => {
    const [row] = await t.app.ctx.db.select().from(shopSettings);
    await t.app.ctx.db.update(shopSettings).set({ data: { ...(row!.data as object), maxProfileLinks: 500, claims: 'nope' } });
    const s = await current();
    expect(s.maxProfileLinks).toBe(3);
    expect(s.claims).toEqual(SHOP_SETTINGS_DEFAULTS.claims);
    expect(s.legal.privacy).toBe('Short policy.');
  });
});
