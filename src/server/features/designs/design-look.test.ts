import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { shippingAddressInput } from '#tests/helpers/orders';
import { cards } from '#server/db/schema/index';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const profile = { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100' };

/** Mean brightness (0-255) of a stored card image. */
async function brightness(url: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  const { channels } = await sharp(res.rawPayload).stats();
  return channels.slice(0, 3).reduce((s, c) => s + c.mean, 0) / 3;
}

describe('the card types look like what is sold, in the rendered files too', () => {
  it('stores the look, renders each metal, and refuses what a card type cannot produce', async () => {
    const owner = await signedInAgent(t.app);
    const submit = (body: Record<string, unknown>) => owner.agent.post('/api/cards/submit-for-review', { templateId: 15, customerProfile: profile, shippingAddress: shippingAddressInput(), ...body });

    const black = await submit({ cardType: 'standard' });
    expect(black.statusCode, black.body).toBe(201);
    const titanium = await submit({ cardType: 'luxury_titanium', look: { accent: '#7a5a0c', font: 'Playfair Display', logoPosition: 'right', logoScale: 1.2 } });
    expect(titanium.statusCode, titanium.body).toBe(201);
    const color = await submit({ cardType: 'color', look: { accent: '#1e3a8a' } });
    expect(color.statusCode, color.body).toBe(201);

    // black steel is dark, titanium and printed steel are light: the metal is really drawn
    const [b, ti, c] = await Promise.all([brightness(black.json().frontImageUrl), brightness(titanium.json().frontImageUrl), brightness(color.json().frontImageUrl)]);
    expect(b).toBeLessThan(60);
    expect(ti).toBeGreaterThan(90);
    expect(c).toBeGreaterThan(150);

    const [row] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, titanium.json().cardId));
    expect((row.customizations as { look: unknown }).look).toEqual({ cardType: 'luxury_titanium', accent: '#7a5a0c', font: 'Playfair Display', logoPosition: 'right', logoScale: 1.2 });

    // what the metal cannot produce: a clear 400 on the field, nothing written
    const before = (await t.app.ctx.db.select().from(cards)).length;
    const engravedRed = await submit({ cardType: 'standard', look: { accent: '#ff0000' } });
    expect(engravedRed.statusCode).toBe(400);
    expect(engravedRed.json().errors['look.accent']).toContain('Engraved');
    const comic = await submit({ cardType: 'color', look: { font: 'Comic Sans MS' } });
    expect(comic.statusCode).toBe(400);
    expect(comic.json().errors['look.font']).toContain('Choose one of our card fonts');
    const huge = await submit({ cardType: 'color', look: { logoScale: 9 } });
    expect(huge.statusCode).toBe(400);
    expect((await t.app.ctx.db.select().from(cards)).length).toBe(before);

    // the production file of the titanium order is titanium too
    const admin = await adminAgent(t.app);
    const sheet = await admin.agent.post('/api/admin/generate-card', { templateId: 15, orderId: titanium.json().orderId, customerData: profile });
    expect(sheet.statusCode, sheet.body).toBe(200);
    const meta = await sharp(sheet.rawPayload).stats();
    expect(meta.channels.slice(0, 3).reduce((s, ch) => s + ch.mean, 0) / 3).toBeGreaterThan(80);
  });
});
