import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { shippingAddressInput } from '#tests/helpers/orders';
import { cards, designEvents, orders, outbox } from '#server/db/schema/index';

const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

const design = (over: Record<string, unknown> = {}) => ({
  templateId: 17,
  cardType: 'color',
  customerProfile: { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', companyName: 'US Navy', email: 'grace@example.com', phoneNumber: '+1 212 555 0100' },
  shippingAddress: shippingAddressInput(),
  ...over,
});

async function submitted() {
  const owner = await signedInAgent(t.app);
  expect((await owner.agent.post('/api/profile', { fullName: 'Grace Hopper', email: 'grace@example.com' })).statusCode).toBe(201);
  const res = await owner.agent.post('/api/cards/submit-for-review', design());
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, cardId } = res.json() as { orderId: number; cardId: number };
  const [o] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
  return { owner, orderId, cardId, statusPath: `/api/order-status/${o.statusToken}` };
}

const timelineOf = async (statusPath: string) => (await new Agent(t.app).get(statusPath)).json();

describe('the design review loop: rejected, edited, resubmitted, approved on the same order', () => {
  it('walks the whole loop with the timeline, the e-mails and the staff notices', async () => {
    const admin = await adminAgent(t.app);
    const { owner, orderId, cardId, statusPath } = await submitted();

    // staff told about the design waiting
    const waiting = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.kind, 'staff-design-waiting'), eq(outbox.toAddress, admin.user.email)));
    expect(waiting.map((m) => m.subject).join()).toContain(`order #${orderId}`);

    const reject = async (reason: string) => {
      const r = await admin.agent.put(`/api/admin/business-cards/${cardId}/review`, { status: 'rejected', reviewNotes: reason });
      expect(r.statusCode, r.body).toBe(200);
    };
    await reject('The logo is blurry; please use a larger one.');
    let view = await timelineOf(statusPath);
    expect(view.status).toBe('pending');
    expect(view.design).toMatchObject({ cardId, status: 'rejected', reason: 'The logo is blurry; please use a larger one.', editPath: `/design?card=${cardId}` });
    expect(view.timeline.map((s: { label: string }) => s.label)).toEqual(['Order placed', 'Design submitted', 'Needs changes']);
    expect(view.timeline[2].reason).toBe('The logo is blurry; please use a larger one.');

    // the designer reopens it for its owner only
    const forEdit = await owner.agent.get(`/api/cards/${cardId}/design`);
    expect(forEdit.statusCode).toBe(200);
    expect(forEdit.json()).toMatchObject({ cardId, orderId, templateId: 17, cardType: 'color', canResubmit: true, customerProfile: { fullName: 'Grace Hopper' } });
    const stranger = await signedInAgent(t.app);
    expect((await stranger.agent.get(`/api/cards/${cardId}/design`)).statusCode).toBe(404);
    expect((await stranger.agent.post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: design().customerProfile })).statusCode).toBe(404);
    expect((await new Agent(t.app).post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: design().customerProfile })).statusCode).toBe(401);

    // bad input: 400 with the field, nothing changes
    const bad = await owner.agent.post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: { ...design().customerProfile, email: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors['customerProfile.email']).toBeTruthy();
    expect((await t.app.ctx.db.select().from(cards).where(eq(cards.id, cardId)))[0].status).toBe('rejected');

    const resub = await owner.agent.post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: { ...design().customerProfile, jobTitle: 'Admiral' } });
    expect(resub.statusCode, resub.body).toBe(200);
    expect(resub.json()).toMatchObject({ orderId, cardId, status: 'pending' });
    // still one order, the same card, back in the queue
    expect(await t.app.ctx.db.select().from(orders).where(eq(orders.cardId, cardId))).toHaveLength(1);
    const queue = await admin.agent.get('/api/admin/business-cards/pending');
    expect(queue.statusCode).toBe(200);
    expect((queue.json() as Array<{ id: number; orderId: number }>).find((d) => d.id === cardId)?.orderId).toBe(orderId);
    // once only: a second resubmit while in review is refused
    expect((await owner.agent.post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: design().customerProfile })).statusCode).toBe(409);
    const staff = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.kind, 'staff-design-waiting'), like(outbox.dedupeKey, 'staff-design-waiting:resubmitted-%')));
    expect(staff.length).toBeGreaterThanOrEqual(1);

    // rejected a second time: a second e-mail (not swallowed as a duplicate), then approved
    await reject('Almost: the name is cut off.');
    const rejections = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.kind, 'design-rejected'), like(outbox.dedupeKey, `design-reviewed:${orderId}:%`)));
    expect(rejections).toHaveLength(2);
    expect(rejections[1].textBody).toContain(`${ORIGIN}/design?card=${cardId}`);
    expect((await owner.agent.post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: design().customerProfile })).statusCode).toBe(200);
    const ok = await admin.agent.put(`/api/admin/business-cards/${cardId}/review`, { status: 'approved', reviewNotes: '' });
    expect(ok.statusCode, ok.body).toBe(200);

    view = await timelineOf(statusPath);
    expect(view.design).toMatchObject({ status: 'approved', reason: null, editPath: null });
    expect(view.timeline.map((s: { label: string }) => s.label)).toEqual([
      'Order placed',
      'Design submitted',
      'Needs changes',
      'Design resubmitted',
      'Needs changes',
      'Design resubmitted',
      'Design approved: proof ready',
    ]);
    const events = await t.app.ctx.db.select().from(designEvents).where(eq(designEvents.cardId, cardId));
    expect(events).toHaveLength(6);
    // approved: not editable any more
    expect((await owner.agent.get(`/api/cards/${cardId}/design`)).json().canResubmit).toBe(false);
    expect((await owner.agent.post(`/api/cards/${cardId}/resubmit`, { templateId: 17, customerProfile: design().customerProfile })).statusCode).toBe(409);

    // My orders shows the order with its design and timeline
    const mine = (await owner.agent.get('/api/orders/mine')).json().orders;
    expect(mine[0]).toMatchObject({ id: orderId, design: { status: 'approved' } });
  });
});
