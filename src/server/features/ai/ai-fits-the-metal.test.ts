import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { shippingAddressInput } from '#tests/helpers/orders';
import { templates } from '#server/db/schema/templates';
import { CARD_TYPE_IDS } from '#shared/catalogue';
import { AiApplyBody } from '#shared/schemas/ai';
import { colourFit } from '#shared/ai/metal-fit';
import { HttpError } from '#server/http/http-errors';
import { planApply } from './apply';

/**
 * Issue 37 (decision 37-07): the assistant applies only what fits the chosen metal, never changes
 * the product or price without the customer's confirmation, and Design Feedback starts from the
 * user's own current design in its template's real layout.
 */
let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  agent = (await signedInAgent(t.app)).agent;
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/ai/apply', () => {
  it('keeps the metal: a colour an engraved metal cannot make is listed, not applied', async () => {
    const res = await agent.post('/api/ai/apply', { cardType: 'standard', accent: '#1E3A8A', font: 'Montserrat' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ cardType: 'standard', accent: null, font: 'Montserrat', priceChange: null });
    expect(body.notApplied).toEqual([{ field: 'accent', value: '#1E3A8A', reason: expect.stringContaining('engraved') }]);
    expect(body.designPath).toBe('/design?cardType=standard&font=Montserrat');
  });

  it('never switches to Color Metal without the confirmation flag, and names the price change', async () => {
    for (const extra of [{}, { confirmPriceChange: false }]) {
      const res = await agent.post('/api/ai/apply', { cardType: 'standard', accent: '#1E3A8A', switchTo: 'color', ...extra });
      expect(res.statusCode).toBe(409);
      expect(res.json().errors.confirmPriceChange).toContain('Standard Metal ($4.00 a card) to Color Metal ($5.00 a card): +$1.00 a card');
    }
    const ok = await agent.post('/api/ai/apply', { cardType: 'standard', accent: '#1E3A8A', switchTo: 'color', confirmPriceChange: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ cardType: 'color', accent: '#1e3a8a', priceChange: { from: 'standard', to: 'color', differenceCents: 100 } });
    expect(ok.json().designPath).toBe('/design?cardType=color&accent=%231e3a8a');
  });

  it('does not apply a colour that fails contrast on the metal, even a printed one', async () => {
    const res = await agent.post('/api/ai/apply', { cardType: 'color', accent: '#EEEEEE' });
    expect(res.json()).toMatchObject({ cardType: 'color', accent: null });
    expect(res.json().notApplied[0].reason).toMatch(/4\.5:1/);
    const gold = await agent.post('/api/ai/apply', { cardType: 'luxury_titanium', accent: '#7a5a0c' });
    expect(gold.json()).toMatchObject({ cardType: 'luxury_titanium', accent: '#7a5a0c', notApplied: [] });
  });

  it('refuses bad input with field messages, and signed-out callers', async () => {
    const bad = await agent.post('/api/ai/apply', { cardType: 'gold', accent: 'blue', confirmPriceChange: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['accent', 'cardType', 'confirmPriceChange']);
    expect((await new Agent(t.app).post('/api/ai/apply', { cardType: 'standard' })).statusCode).toBe(401);
  });

  it('for any colour, metal and switch: the metal changes only when confirmed, and an applied colour always fits it', () => {
    const hex = fc.stringMatching(/^#[0-9A-Fa-f]{6}$/);
    const metal = fc.constantFrom(...CARD_TYPE_IDS);
    fc.assert(
      fc.property(hex, metal, fc.option(metal, { nil: undefined }), fc.option(fc.boolean(), { nil: undefined }), (accent, cardType, switchTo, confirmPriceChange) => {
        const input = AiApplyBody.parse({ cardType, accent, switchTo, confirmPriceChange });
        let out;
        try {
          out = planApply(input);
        } catch (e) {
          expect(e).toBeInstanceOf(HttpError);
          expect((e as HttpError).statusCode).toBe(409);
          expect(switchTo && switchTo !== cardType && confirmPriceChange !== true).toBe(true);
          return;
        }
        expect(out.cardType).toBe(switchTo && confirmPriceChange === true ? switchTo : cardType);
        if (out.cardType !== cardType) expect(confirmPriceChange).toBe(true);
        if (out.accent) expect(colourFit(out.accent, out.cardType).fits).toBe(true);
        else expect(out.notApplied.map((n) => n.field)).toContain('accent');
        expect(new URLSearchParams(out.designPath.split('?')[1]).get('cardType')).toBe(out.cardType);
      }),
      { numRuns: 500 },
    );
  });
});

describe('GET /api/ai/current-design', () => {
  it('a new user: the defaults, with the default template by name and its real layout', async () => {
    const fresh = (await signedInAgent(t.app)).agent;
    const res = await fresh.get('/api/ai/current-design');
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ source: 'none', templateId: 17, templateName: 'Simple', cardType: 'standard', cardTypeLabel: 'Standard Metal' });
    // the Simple design's own name field: x 110, 840 units wide, wrapping onto 2 lines
    expect(d.layout.fields.find((f: any) => f.field === 'fullName')).toMatchObject({ side: 'front', x: 110, maxWidth: 840, maxLines: 2 });
    expect(d.layout.qrSide).not.toBeNull();
  });

  it('the latest design: its fields, template, metal and look; the profile before any design', { timeout: 180_000 }, async () => {
    const u = await signedInAgent(t.app);
    const made = await u.agent.post('/api/profile', { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100', profileTemplate: 'classic' });
    expect(made.statusCode, made.body).toBe(201);
    const fromProfile = (await u.agent.get('/api/ai/current-design')).json();
    expect(fromProfile).toMatchObject({ source: 'profile', businessInfo: { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral' } });

    const sub = await u.agent.post('/api/cards/submit-for-review', {
      templateId: 16,
      cardType: 'luxury_titanium',
      look: { accent: '#7a5a0c', font: 'Playfair Display' },
      customerProfile: { fullName: 'Grace B. Hopper', jobTitle: 'Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100', companyName: 'US Navy' },
      shippingAddress: shippingAddressInput(),
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const d = (await u.agent.get('/api/ai/current-design')).json();
    expect(d).toMatchObject({
      source: 'design',
      cardId: sub.json().cardId,
      templateId: 16,
      templateName: 'Classic',
      cardType: 'luxury_titanium',
      accent: '#7a5a0c',
      font: 'Playfair Display',
      businessInfo: { fullName: 'Grace B. Hopper', jobTitle: 'Admiral', companyName: 'US Navy', phone: '+1 212 555 0100' },
    });
    expect(d.layout.qrBorder).toBe(true);
    // nobody else sees it
    const other = (await (await signedInAgent(t.app)).agent.get('/api/ai/current-design')).json();
    expect(other.source).toBe('none');
    expect(JSON.stringify(other)).not.toContain('Hopper');
  });
});

describe('Design Feedback uses the template it is given, as the template really draws it', () => {
  it('judges text fit against the template SVG, names an unnamed template, and refuses an unknown one', async () => {
    // a shop template with no name and a narrow name line (200 units)
    const narrow = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1050 600"><text data-field="fullName" data-max-width="200" data-min-size="40" x="100" y="200" font-size="54" font-weight="600" fill="#fff">Name</text><g data-slot="qr" data-x="700" data-y="150" data-size="256"></g></svg>`;
    await t.app.ctx.db.insert(templates).values({ id: 41, name: '', description: 'A narrow test card', category: 'Business Card', folder: 'narrow-line', isActive: true, frontSvg: narrow, backSvg: narrow });
    const ask = (template: number) =>
      agent.post('/api/ai/design-feedback', { currentDesign: { template, businessInfo: { fullName: 'Alexandra Montgomery-Reed' } }, userQuestion: 'Does my name fit?' });
    const onNarrow = (await ask(41)).json();
    const nameOnNarrow = onNarrow.findings.find((f: any) => f.id === 'text-fullName');
    expect(nameOnNarrow.severity).toBe('critical');
    expect(nameOnNarrow.detail).toContain('Narrow Line layout');
    expect(onNarrow.feedback).not.toMatch(/#41|template 41/);
    const onSimple = (await ask(17)).json();
    expect(onSimple.findings.find((f: any) => f.id === 'text-fullName')).toBeUndefined();
    expect(onSimple.findings.find((f: any) => f.id === 'text-fit').severity).toBe('good');
    const unknown = await ask(4040);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors['currentDesign.template']).toBe('Choose one of the templates');
  });
});
