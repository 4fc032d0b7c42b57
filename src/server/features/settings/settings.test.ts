import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Agent, createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { insertOrder } from '#tests/helpers/admin-factories';
import type { ShopSettingsResponse, SiteStudio } from '#shared/schemas/settings';
import { SHOP_SETTINGS_DEFAULTS, mapSearchUrl } from '#shared/settings/studio';
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
