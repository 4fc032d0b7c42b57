import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { shippingAddressInput } from '#tests/helpers/orders';
import { insertDesignWithOrder, insertProfile, pngDataUrl, renderCardBack, insertDesign } from '#tests/helpers/admin-factories';
import { cards, outbox } from '#server/db/schema/index';
import type { AdminOrderDetail } from '#shared/schemas/admin';
import type { PendingDesign, ScanCheck } from '#shared/schemas/designs';

// moved from admin.test.ts (issue 34): the staff review belongs to designs

const BASE = 'http://cards.test';
let t: TestApp;
let admin: Agent;
let adminUser: { id: string; email: string };

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: BASE } });
  const a = await adminAgent(t.app);
  admin = a.agent;
  adminUser = a.user;
});
afterAll(async () => {
  await t.close();
});

const emailsTo = async (to: string) => (await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, to))).sort((a, b) => a.id - b.id);

describe('card design review', () => {
  it('lists pending designs with the spec fields and refuses a second review with 409', async () => {
    const { agent: _a, user } = await signedInAgent(t.app);
    const profile = await insertProfile(t.app, user.id, { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral' });
    const { design, order } = await insertDesignWithOrder(t.app, {
      userId: user.id,
      profileId: profile.id,
      frontImageUrl: '/api/files/f.png',
      backImageUrl: '/api/files/b.png',
      order: { email: 'grace@example.com', customerName: 'Grace Hopper' },
    });
    const list = (await admin.get('/api/admin/business-cards/pending')).json() as PendingDesign[];
    const item = list.find((d) => d.id === design.id)!;
    expect(item).toMatchObject({
      profile: { fullName: 'Grace Hopper', email: 'grace@example.com', jobTitle: 'Rear Admiral' },
      frontImageUrl: '/api/files/f.png',
      backImageUrl: '/api/files/b.png',
      templateId: 17,
      qrCodeUrl: `${BASE}/p/${profile.id}`,
      orderId: order.id,
    });
    expect(new Date(item.createdAt).getTime()).toBeGreaterThan(0);

    const ok = await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'approved', reviewNotes: '' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: design.id, status: 'approved', orderId: order.id });
    const mails = await emailsTo('grace@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe('design-approved');
    expect(mails[0].textBody).toContain(`${BASE}/order-status/`);
    expect(((await admin.get('/api/admin/business-cards/pending')).json() as PendingDesign[]).some((d) => d.id === design.id)).toBe(false);

    const again = await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'rejected', reviewNotes: 'changed my mind' });
    expect(again.statusCode).toBe(409);
    const [after] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, design.id));
    expect(after).toMatchObject({ status: 'approved', reviewNotes: '', reviewedBy: adminUser.id });
    expect(await emailsTo('grace@example.com')).toHaveLength(1);
  });

  it('rejects with a reason that reaches the customer', async () => {
    const { design } = await insertDesignWithOrder(t.app, { order: { email: 'reject-me@example.com' } });
    const res = await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'rejected', reviewNotes: 'The logo is too low resolution.' });
    expect(res.statusCode).toBe(200);
    const [mail] = await emailsTo('reject-me@example.com');
    expect(mail.kind).toBe('design-rejected');
    expect(mail.textBody).toContain('The logo is too low resolution.');
  });

  it('validates the review: 400 for bad input, 404 for an unknown design; nothing changes', async () => {
    const { design } = await insertDesignWithOrder(t.app, { order: { email: 'untouched@example.com' } });
    for (const body of [{ status: 'maybe' }, {}, { status: 'approved', reviewNotes: 'x'.repeat(1001) }, { status: 'approved', extra: 1 }]) {
      expect((await admin.put(`/api/admin/business-cards/${design.id}/review`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.put('/api/admin/business-cards/999999/review', { status: 'approved' })).statusCode).toBe(404);
    const [after] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, design.id));
    expect(after.status).toBe('pending');
    expect(await emailsTo('untouched@example.com')).toHaveLength(0);
  });

  it('two reviewers at once: exactly one wins, the other gets 409', async () => {
    const { design } = await insertDesignWithOrder(t.app, { order: { email: 'race@example.com' } });
    const [a, b] = await Promise.all([
      // this design has no QR code URL, so its print check fails: approving it needs a reason (issue 22)
      admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'approved', overrideReason: 'Race test' }),
      admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'rejected' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await emailsTo('race@example.com')).toHaveLength(1);
  });

  it('a design made by the real design flow: listed, its stored back scans to the owner\'s profile, approval e-mails the customer', async () => {
    const { agent } = await signedInAgent(t.app);
    const prof = await agent.put('/api/profile', { fullName: 'Flow Person', jobTitle: 'Engineer', email: 'flow@example.com', phoneNumber: '+1 212 555 0101' });
    expect(prof.statusCode, prof.body).toBeLessThan(300);
    const profileId = prof.json().id as string;
    const sub = await agent.post('/api/cards/submit-for-review', {
      templateId: 16,
      cardType: 'standard',
      customerProfile: { fullName: 'Flow Person', jobTitle: 'Engineer', email: 'flow@example.com', phoneNumber: '+1 212 555 0101' },
      shippingAddress: shippingAddressInput(),
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const { cardId, orderId } = sub.json();
    const pending = ((await admin.get('/api/admin/business-cards/pending')).json() as PendingDesign[]).find((d) => d.id === cardId)!;
    expect(pending).toMatchObject({ orderId, templateId: 16, profile: { fullName: 'Flow Person', email: 'flow@example.com', jobTitle: 'Engineer' } });
    expect(pending.backImageUrl).toMatch(/^\/files\//);
    const scan = (await admin.get(`/api/admin/business-cards/${cardId}/scan-check`)).json() as ScanCheck;
    expect(scan).toMatchObject({ status: 'pass', decodedText: `${BASE}/p/${profileId}` });
    expect((await admin.put(`/api/admin/business-cards/${cardId}/review`, { status: 'approved', reviewNotes: '' })).statusCode).toBe(200);
    expect((await emailsTo('flow@example.com')).map((m) => m.kind)).toContain('design-approved');
    const detail = (await admin.get(`/api/admin/orders/${orderId}`)).json() as AdminOrderDetail;
    expect(detail.design).toMatchObject({ id: cardId, status: 'approved' });
    expect(detail.previewUrl).toBe(pending.frontImageUrl);
  });

  it('scan check passes when the rendered back opens the owner\'s public profile', async () => {
    const { user } = await signedInAgent(t.app);
    const profile = await insertProfile(t.app, user.id);
    const back = await renderCardBack(`${BASE}/p/${profile.id}`);
    const design = await insertDesign(t.app, { userId: user.id, profileId: profile.id, backImageUrl: pngDataUrl(back) });
    const res = await admin.get(`/api/admin/business-cards/${design.id}/scan-check`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pass', decodedText: `${BASE}/p/${profile.id}`, expectedUrl: `${BASE}/p/${profile.id}` } satisfies Partial<ScanCheck>);
  });

  it('scan check fails for a code that opens somewhere else, for no code, and for an outside image', async () => {
    const { user } = await signedInAgent(t.app);
    const profile = await insertProfile(t.app, user.id);
    const wrong = await insertDesign(t.app, { userId: user.id, profileId: profile.id, backImageUrl: pngDataUrl(await renderCardBack(`${BASE}/p/someone-else`)) });
    const r1 = (await admin.get(`/api/admin/business-cards/${wrong.id}/scan-check`)).json() as ScanCheck;
    expect(r1).toMatchObject({ status: 'fail', decodedText: `${BASE}/p/someone-else` });
    expect(r1.message).toMatch(/not the owner's public profile/);

    const otherSite = await insertDesign(t.app, { userId: user.id, profileId: profile.id, backImageUrl: pngDataUrl(await renderCardBack(`https://evil.example/p/${profile.id}`)) });
    expect(((await admin.get(`/api/admin/business-cards/${otherSite.id}/scan-check`)).json() as ScanCheck).status).toBe('fail');

    const sharp = (await import('sharp')).default;
    const empty = await sharp({ create: { width: 1050, height: 600, channels: 3, background: '#000' } }).png().toBuffer();
    const none = await insertDesign(t.app, { userId: user.id, profileId: profile.id, backImageUrl: pngDataUrl(empty) });
    expect(((await admin.get(`/api/admin/business-cards/${none.id}/scan-check`)).json() as ScanCheck)).toMatchObject({ status: 'fail', decodedText: null });

    const outside = await insertDesign(t.app, { userId: user.id, profileId: profile.id, backImageUrl: 'https://images.example.net/back.png' });
    expect(((await admin.get(`/api/admin/business-cards/${outside.id}/scan-check`)).json() as ScanCheck).message).toMatch(/not stored on this site/);

    const missing = await insertDesign(t.app, { userId: user.id, profileId: profile.id, backImageUrl: '/api/no-such-file.png' });
    expect(((await admin.get(`/api/admin/business-cards/${missing.id}/scan-check`)).json() as ScanCheck).message).toMatch(/HTTP 404/);

    expect((await admin.get('/api/admin/business-cards/999999/scan-check')).statusCode).toBe(404);
  });
});
