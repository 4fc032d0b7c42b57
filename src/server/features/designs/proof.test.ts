import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Agent, createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { insertDesign, insertDesignWithOrder } from '#tests/helpers/admin-factories';
import { TEST_SHIPPING_ADDRESS } from '#tests/helpers/order-readiness';
import { cards, designEvents, orders, outbox } from '#server/db/schema/index';
import type { AdminOrderDetail } from '#shared/schemas/admin';
import { PROOF_CARDS_MESSAGES, type OrderStatusView } from '#shared/schemas/orders';

/** Issue 35, deliverables 5 and 8 (decision 35-04): the customer's proof, and the milestone e-mails. */

const BASE = 'http://cards.test';
let t: TestApp;
let admin: Agent;
let customer: Agent;
let customerId: string;
beforeAll(async () => {
  // the print check renders the proof: a busy machine must not turn it into "too complex"
  t = await createTestApp({ env: { PUBLIC_URL: BASE, WORKER_TASK_TIMEOUT_MS: '60000' } });
  admin = (await adminAgent(t.app)).agent;
  const c = await signedInAgent(t.app);
  customer = c.agent;
  customerId = c.user.id;
});
afterAll(() => t.close());

const mailsTo = async (to: string) => (await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, to))).sort((a, b) => a.id - b.id);
const buttons = (html: string) => html.split('display:inline-block;background:#d4af37').length - 1;
const view = async (token: string, agent?: Agent) => ((agent ? await agent.get(`/api/order-status/${token}`) : await t.app.inject({ method: 'GET', url: `/api/order-status/${token}` })).json() as OrderStatusView);
const answer = (token: string, body: unknown, agent?: Agent) =>
  agent ? agent.post(`/api/order-status/${token}/proof`, body) : t.app.inject({ method: 'POST', url: `/api/order-status/${token}/proof`, payload: body as object, headers: { 'content-type': 'application/json' } });

/** A designed order whose design staff approve through the API (a factory design fails the print check: overridden). */
async function approvedOrder(email: string, userId: string | null = null) {
  const { order, design } = await insertDesignWithOrder(t.app, { userId, order: { email, userId } });
  const review = await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'approved', reviewNotes: '', overrideReason: 'Factory design without images' });
  expect(review.statusCode, review.body).toBe(200);
  return { order, design };
}

describe('the proof', () => {
  it('staff approval sends the proof; the visitor link shows it from the print file and approves it once', async () => {
    const email = 'proof-visitor@example.com';
    const { order, design } = await insertDesignWithOrder(t.app, { order: { email } });
    // nothing to answer before staff approve the design
    expect((await answer(order.statusToken, { decision: 'approve' })).statusCode).toBe(409);
    expect((await view(order.statusToken)).proof).toEqual({ state: 'none', images: [], cards: [{ cardId: design.id, name: 'Grace Hopper', status: 'pending' }], message: null });
    expect((await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'approved', reviewNotes: '', overrideReason: 'Factory design without images' })).statusCode).toBe(200);

    const [proofMail] = await mailsTo(email);
    expect(proofMail).toMatchObject({ kind: 'design-approved', subject: `Your proof is ready (order #${order.id})` });
    expect(proofMail.textBody).toContain(`Review your proof: ${BASE}/order-status/${order.statusToken}`);
    expect(proofMail.textBody).toContain('We start production only after you approve it.');
    expect(buttons(proofMail.htmlBody)).toBe(1);

    const page = await view(order.statusToken);
    expect(page.proof.state).toBe('awaiting');
    expect(page.proof.images.map((i) => [i.cardId, i.side])).toEqual([
      [design.id, 'front'],
      [design.id, 'back'],
    ]);
    // the proof image: the print check's 300 DPI render of the print artwork
    const png = await t.app.inject({ method: 'GET', url: page.proof.images[1].url });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await t.app.inject({ method: 'GET', url: page.proof.images[1].url.replace(`/${design.id}/`, `/${design.id + 999}/`) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: page.proof.images[1].url.replace('back.png', 'side.png') })).statusCode).toBe(400);

    // production waits for the customer's answer
    const early = await admin.patch(`/api/admin/orders/${order.id}`, { status: 'in-production', overrideReason: 'no' });
    expect(early.statusCode).toBe(409);
    expect(early.json().missing).toContain('proof');
    expect(((await admin.get(`/api/admin/orders/${order.id}`)).json() as AdminOrderDetail).workflow.proof).toEqual({ state: 'awaiting', message: null });

    for (const bad of [{}, { decision: 'maybe' }, { decision: 'changes' }, { decision: 'changes', message: '   ' }, { decision: 'changes', message: 'x'.repeat(2001) }, { decision: 'approve', extra: 1 }]) {
      const res = await answer(order.statusToken, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await answer(order.statusToken, { decision: 'changes' })).json().errors.message).toBe('Tell us what to change');

    const ok = await answer(order.statusToken, { decision: 'approve' });
    expect(ok.statusCode).toBe(200);
    const approved = ok.json() as OrderStatusView;
    expect(approved.proof.state).toBe('approved');
    expect(approved.timeline.filter((e) => e.kind === 'design').map((e) => e.label)).toEqual(['Design approved: proof ready', 'Proof approved by you']);
    const again = await answer(order.statusToken, { decision: 'approve' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already approved this proof.');
    expect(((await admin.get(`/api/admin/orders/${order.id}`)).json() as AdminOrderDetail).workflow.facts.proofApproved).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: `/api/order-status/${'x'.repeat(43)}/proof`, payload: { decision: 'approve' } })).statusCode).toBe(404);
  }, 120_000);

  it('the signed-in customer asks for changes: the design needs changes again with their message, which staff see', async () => {
    const email = 'proof-customer@example.com';
    const { order, design } = await approvedOrder(email, customerId);
    const res = await answer(order.statusToken, { decision: 'changes', message: 'Please make my name larger.\nAnd use the gold foil.' }, customer);
    expect(res.statusCode).toBe(200);
    const page = res.json() as OrderStatusView;
    expect(page.proof).toEqual({ state: 'changes', images: [], cards: [{ cardId: design.id, name: 'Grace Hopper', status: 'rejected' }], message: 'Please make my name larger.\nAnd use the gold foil.' });
    expect(page.design).toMatchObject({ status: 'rejected', statusLabel: 'Needs changes', reason: 'Please make my name larger.\nAnd use the gold foil.' });
    expect(page.design!.editPath).toBeTruthy();
    expect(page.timeline.at(-1)).toMatchObject({ kind: 'design', event: 'changes-requested', label: 'Changes requested', reason: 'Please make my name larger.\nAnd use the gold foil.' });
    const [card] = await t.app.ctx.db.select().from(cards).where(eq(cards.id, design.id));
    expect(card.status).toBe('rejected');

    const detail = (await admin.get(`/api/admin/orders/${order.id}`)).json() as AdminOrderDetail;
    expect(detail.workflow.proof).toEqual({ state: 'changes', message: 'Please make my name larger.\nAnd use the gold foil.', cards: [{ id: design.id, name: expect.any(String) }] });
    expect(detail.workflow.facts).toMatchObject({ designApproved: false, proofApproved: false });
    expect((await answer(order.statusToken, { decision: 'approve' }, customer)).json().message).toBe('There is no proof waiting for your answer.');
    expect((await t.app.inject({ method: 'GET', url: `/api/order-status/${order.statusToken}/proof/${design.id}/front.png` })).statusCode).toBe(404);
    // the customer asked: no e-mail about it (only the proof-ready one)
    expect((await mailsTo(email)).map((m) => m.kind)).toEqual(['design-approved']);
  });

  it('a team order shows the proof of every approved card', async () => {
    const { order, design } = await approvedOrder('proof-team@example.com');
    const second = await insertDesign(t.app, { orderId: order.id, status: 'approved' });
    const page = await view(order.statusToken);
    expect(page.proof.images.map((i) => i.cardId)).toEqual([design.id, design.id, second.id, second.id]);
  });

  it('a team order: "changes" sends back only the cards named; the others keep their approval; the fixed card comes back alone (decision 35-06)', async () => {
    const email = 'proof-team-changes@example.com';
    const person = (fullName: string) => ({ fullName, email: 'team@example.com', jobTitle: 'Sales' });
    const { order, design: ann } = await insertDesignWithOrder(t.app, { customerProfile: person('Ann Archer'), order: { email } });
    const bob = await insertDesign(t.app, { orderId: order.id, status: 'approved', userId: customerId, customerProfile: person('Bob Baker') });
    const cy = await insertDesign(t.app, { orderId: order.id, status: 'approved', customerProfile: person('Cy Chen') });
    expect((await admin.put(`/api/admin/business-cards/${ann.id}/review`, { status: 'approved', reviewNotes: '', overrideReason: 'Factory design without images' })).statusCode).toBe(200);
    const page = await view(order.statusToken);
    expect(page.proof.state).toBe('awaiting');
    expect(page.proof.cards).toEqual([
      { cardId: ann.id, name: 'Ann Archer', status: 'approved' },
      { cardId: bob.id, name: 'Bob Baker', status: 'approved' },
      { cardId: cy.id, name: 'Cy Chen', status: 'approved' },
    ]);
    const statuses = async () => (await t.app.ctx.db.select({ id: cards.id, status: cards.status, reviewedAt: cards.reviewedAt }).from(cards).where(eq(cards.orderId, order.id))).sort((a, b) => a.id - b.id);
    const before = await statuses();

    // refused by field, nothing changed: a card of another order, cards with "approve", an empty or bad list
    const other = await insertDesign(t.app, { status: 'approved' });
    const refusals: Array<[unknown, string]> = [
      [{ decision: 'changes', message: 'Fix it', cardIds: [bob.id, other.id] }, PROOF_CARDS_MESSAGES.notInProof],
      [{ decision: 'approve', cardIds: [bob.id] }, PROOF_CARDS_MESSAGES.onlyChanges],
      [{ decision: 'changes', message: 'Fix it', cardIds: [] }, PROOF_CARDS_MESSAGES.invalid],
      [{ decision: 'changes', message: 'Fix it', cardIds: ['x'] }, PROOF_CARDS_MESSAGES.invalid],
      [{ decision: 'changes', message: 'Fix it', cardIds: bob.id }, PROOF_CARDS_MESSAGES.invalid],
    ];
    for (const [body, message] of refusals) {
      const res = await answer(order.statusToken, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.entries(res.json().errors).find(([k]) => k.startsWith('cardIds'))?.[1], JSON.stringify(body)).toBe(message);
    }
    expect(await statuses()).toEqual(before);

    // changes for Bob's card only
    const res = await answer(order.statusToken, { decision: 'changes', message: 'Bob\'s title is Head of Sales.', cardIds: [bob.id] });
    expect(res.statusCode, res.body).toBe(200);
    const changed = res.json() as OrderStatusView;
    expect(changed.proof).toMatchObject({ state: 'changes', message: 'Bob\'s title is Head of Sales.' });
    expect(changed.proof.cards.map((c) => [c.name, c.status])).toEqual([
      ['Ann Archer', 'approved'],
      ['Bob Baker', 'rejected'],
      ['Cy Chen', 'approved'],
    ]);
    const after = await statuses();
    expect(after.find((c) => c.id === bob.id)!.status).toBe('rejected');
    // the others keep their approval, untouched
    expect(after.filter((c) => c.id !== bob.id)).toEqual(before.filter((c) => c.id !== bob.id));
    const events = await t.app.ctx.db.select().from(designEvents).where(eq(designEvents.orderId, order.id));
    expect(events.filter((e) => e.kind === 'changes-requested').map((e) => e.cardId)).toEqual([bob.id]);
    const staffView = (await admin.get(`/api/admin/orders/${order.id}`)).json() as AdminOrderDetail;
    expect(staffView.workflow.facts.designApproved).toBe(false);
    // staff see which cards the customer named (issue 37)
    expect(staffView.workflow.proof.cards).toEqual([{ id: bob.id, name: 'Bob Baker' }]);

    // Bob's card comes back alone: resubmitted, reviewed, then the whole proof waits for the answer again
    const again = await customer.post(`/api/cards/${bob.id}/resubmit`, { templateId: 17, customerProfile: { fullName: 'Bob Baker', jobTitle: 'Head of Sales', email: 'bob@example.com', phoneNumber: '+1 212 555 0102' } });
    expect(again.statusCode, again.body).toBe(200);
    const pending = ((await admin.get('/api/admin/business-cards/pending')).json() as Array<{ id: number; orderId: number | null }>).filter((d) => d.orderId === order.id);
    expect(pending.map((d) => d.id)).toEqual([bob.id]);
    expect((await admin.put(`/api/admin/business-cards/${bob.id}/review`, { status: 'approved', reviewNotes: '', overrideReason: 'Factory design without images' })).statusCode).toBe(200);
    const awaiting = await view(order.statusToken);
    expect(awaiting.proof.state).toBe('awaiting');
    expect(new Set(awaiting.proof.images.map((i) => i.cardId))).toEqual(new Set([ann.id, bob.id, cy.id]));
    expect((await statuses()).filter((c) => c.id !== bob.id)).toEqual(before.filter((c) => c.id !== bob.id));
    expect((await answer(order.statusToken, { decision: 'approve' })).json().proof.state).toBe('approved');
  }, 120_000);
});

describe('milestone e-mails', () => {
  it('one e-mail per milestone, each with one button; no e-mail for the steps between', async () => {
    const email = 'milestones@example.com';
    const { order } = await approvedOrder(email);
    await t.app.ctx.db.update(orders).set({ shippingAddress: TEST_SHIPPING_ADDRESS }).where(eq(orders.id, order.id));
    expect((await answer(order.statusToken, { decision: 'approve' })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/orders/${order.id}/payments`, { amountCents: order.totalCents, method: 'bank_transfer', reference: 'INV-1' })).statusCode).toBe(201);
    for (const status of ['processing', 'in-production', 'quality-check']) expect((await admin.patch(`/api/admin/orders/${order.id}`, { status })).statusCode, status).toBe(200);
    expect((await admin.post(`/api/admin/orders/${order.id}/shipment`, { carrier: 'ups', trackingNumber: '1Z999AA10123456784' })).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/orders/${order.id}`, { status: 'completed' })).statusCode).toBe(200);

    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Your proof is ready (order #${order.id})`,
      `Your cards are in production (order #${order.id}) - Metal Cards NYC`,
      `Your cards have shipped (order #${order.id}) - Metal Cards NYC`,
      `Your cards were delivered (order #${order.id}) - Metal Cards NYC`,
    ]);
    for (const m of mails) expect(buttons(m.htmlBody), m.subject).toBe(1);
    expect(mails[1].textBody).toContain('You approved your proof, and we have started making your cards. We will e-mail you when they ship.');
    expect(mails[2].textBody).toContain('Carrier: UPS, tracking number 1Z999AA10123456784.');
    expect(mails[2].textBody).toContain('Track your order: ');
    // the page shows the shipment
    const page = await view(order.statusToken);
    expect(page.fulfilment).toMatchObject({ carrierLabel: 'UPS', trackingNumber: '1Z999AA10123456784' });
    expect(page.paymentNote).toBeNull();
  });

  it('the design needs changes: one e-mail with one button; the invoice note on an unpaid order page', async () => {
    const email = 'rejected@example.com';
    const { order, design } = await insertDesignWithOrder(t.app, { order: { email } });
    expect((await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'rejected', reviewNotes: 'The logo is blurry.' })).statusCode).toBe(200);
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([`Your card design needs changes (order #${order.id})`]);
    expect(buttons(mails[0].htmlBody)).toBe(1);
    expect((await view(order.statusToken)).paymentNote).toBe('No charge now: we send an invoice once you approve your proof');
  });
});
