import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent } from '#tests/helpers/factories';
import { insertOrder } from '#tests/helpers/admin-factories';
import { readyForProduction } from '#tests/helpers/order-readiness';
import { orderFulfilment, orderStatusHistory, orders, outbox } from '#server/db/schema/index';
import { ORDER_STATUSES } from '#shared/catalogue';
import { STATUS_MOVES, checkMove, offeredMoves, type OrderFacts } from '#shared/orders/status-machine';
import type { AdminOrderDetail } from '#shared/schemas/admin';

/** Issue 35, deliverable 4 (decision 35-04): the order status machine, through PATCH /api/admin/orders/{id}. */

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'http://cards.test' } });
  admin = (await adminAgent(t.app)).agent;
});
afterAll(() => t.close());

const setStatus = (id: number, status: string) => t.app.ctx.db.update(orders).set({ status }).where(eq(orders.id, id));
const statusOf = async (id: number) => (await t.app.ctx.db.select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0].s;
const mailsTo = async (to: string) => (await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, to))).sort((a, b) => a.id - b.id);
const patch = (id: number, body: object) => admin.patch(`/api/admin/orders/${id}`, body);

/** An order that meets every prerequisite, with a tracking number on file. */
async function readyOrder(deliveryOption: 'standard' | 'pickup-nyc') {
  const o = await insertOrder(t.app, { deliveryOption });
  await readyForProduction(t.app, o.id);
  await t.app.ctx.db.insert(orderFulfilment).values({ orderId: o.id, carrier: 'ups', trackingNumber: '1Z999AA10123456784', trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' });
  return o;
}

describe('every status pair', () => {
  for (const deliveryOption of ['standard', 'pickup-nyc'] as const) {
    it(`refuses every move the machine does not allow with 409 and changes nothing; accepts the others (${deliveryOption})`, async () => {
      const o = await readyOrder(deliveryOption);
      const pickup = deliveryOption === 'pickup-nyc';
      let refused = 0;
      for (const from of ORDER_STATUSES) {
        for (const to of ORDER_STATUSES) {
          if (from === to) continue;
          await setStatus(o.id, from);
          const allowed = STATUS_MOVES[from].includes(to) && !(to === 'shipped' && pickup) && !(to === 'ready-for-pickup' && !pickup);
          const before = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
          const res = await patch(o.id, { status: to });
          if (allowed) {
            expect(res.statusCode, `${from} -> ${to}`).toBe(200);
            expect(res.json().status).toBe(to);
          } else {
            refused++;
            expect(res.statusCode, `${from} -> ${to}`).toBe(409);
            const body = res.json();
            expect(body.message, `${from} -> ${to}`).toMatch(/cannot move/);
            expect(Array.isArray(body.missing)).toBe(true);
            expect(await statusOf(o.id)).toBe(from);
            const after = await t.app.ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id));
            expect(after.length).toBe(before.length);
          }
        }
      }
      // 56 pairs; the table has 16 moves, 2 of them the other delivery's step (shipped or ready for pickup)
      expect(refused).toBe(56 - 14);
    });
  }

  it('a refused move answers with a message that names the statuses and what is allowed', async () => {
    const o = await insertOrder(t.app);
    const res = await patch(o.id, { status: 'completed' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'An order cannot move from Pending to Completed. From Pending it can move to Processing, In production and Cancelled.', missing: [] });
    await setStatus(o.id, 'cancelled');
    expect((await patch(o.id, { status: 'pending' })).json().message).toBe('An order cannot move from Cancelled to Pending. Cancelled is final.');
  });
});

describe('production prerequisites', () => {
  it('lists what is missing: design, proof, address, payment (each one alone too)', async () => {
    const bare = await insertOrder(t.app, { email: 'bare@example.com' });
    const res = await patch(bare.id, { status: 'in-production' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: "The order cannot move to In production yet: it needs an approved design, the customer's proof approval, a delivery address and payment.",
      missing: ['design', 'proof', 'address', 'payment'],
    });
    expect(await statusOf(bare.id)).toBe('pending');
    expect(await mailsTo('bare@example.com')).toHaveLength(0);

    for (const [leftOut, missing] of [
      [{ design: false }, ['design', 'proof']],
      [{ proof: false }, ['proof']],
      [{ address: false }, ['address']],
      [{ paid: false }, ['payment']],
    ] as const) {
      const o = await insertOrder(t.app);
      await readyForProduction(t.app, o.id, leftOut);
      const r = await patch(o.id, { status: 'in-production' });
      expect(r.statusCode, JSON.stringify(leftOut)).toBe(409);
      expect(r.json().missing).toEqual(missing);
    }
  });

  it('a pickup order needs no address', async () => {
    const pickup = await insertOrder(t.app, { deliveryOption: 'pickup-nyc' });
    await readyForProduction(t.app, pickup.id, { address: false });
    expect((await patch(pickup.id, { status: 'in-production' })).statusCode).toBe(200);
  });

  it('staff may start production unpaid only with a reason, kept in the history; the override covers nothing else', async () => {
    const o = await insertOrder(t.app, { email: 'override@example.com' });
    await readyForProduction(t.app, o.id, { paid: false, proof: false });
    // the proof is still missing: no override helps
    const refused = await patch(o.id, { status: 'in-production', overrideReason: 'Net 30 customer' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().missing).toEqual(['proof', 'payment']);

    const unpaid = await insertOrder(t.app, { email: 'override@example.com' });
    await readyForProduction(t.app, unpaid.id, { paid: false });
    const blank = await patch(unpaid.id, { status: 'in-production', overrideReason: '   ' });
    expect(blank.statusCode).toBe(409);
    expect(blank.json().message).toContain('with an override reason');
    const tooLong = await patch(unpaid.id, { status: 'in-production', overrideReason: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.overrideReason).toBeTruthy();

    const ok = await patch(unpaid.id, { status: 'in-production', overrideReason: 'Net 30 customer, invoice INV-9 sent' });
    expect(ok.statusCode).toBe(200);
    const d = ok.json() as AdminOrderDetail;
    expect(d.history.at(-1)).toMatchObject({ toStatus: 'in-production', note: 'Payment override: Net 30 customer, invoice INV-9 sent' });
    const [row] = await t.app.ctx.db.select().from(orderStatusHistory).where(and(eq(orderStatusHistory.orderId, unpaid.id), eq(orderStatusHistory.toStatus, 'in-production')));
    expect(row.note).toBe('Payment override: Net 30 customer, invoice INV-9 sent');
    expect(d.workflow.facts).toMatchObject({ paid: false, designApproved: true, proofApproved: true, hasAddress: true });
  });

  it('shipped needs a carrier and tracking number; ready for pickup needs pickup delivery', async () => {
    const o = await insertOrder(t.app);
    await readyForProduction(t.app, o.id);
    await setStatus(o.id, 'quality-check');
    const noTracking = await patch(o.id, { status: 'shipped' });
    expect(noTracking.statusCode).toBe(409);
    expect(noTracking.json().missing).toEqual(['tracking']);
    const pickupStep = await patch(o.id, { status: 'ready-for-pickup' });
    expect(pickupStep.statusCode).toBe(409);
    expect(pickupStep.json().missing).toEqual(['pickup']);
    // the production floor's own calls obey the machine too: shipping an order not made yet is refused, nothing written
    const early = await insertOrder(t.app);
    const ship = await admin.post(`/api/admin/orders/${early.id}/shipment`, { carrier: 'ups', trackingNumber: '1Z999AA10123456784' });
    expect(ship.statusCode).toBe(409);
    expect(await t.app.ctx.db.select().from(orderFulfilment).where(eq(orderFulfilment.orderId, early.id))).toHaveLength(0);
    const pickupEarly = await admin.post(`/api/admin/orders/${early.id}/pickup-ready`, {});
    expect(pickupEarly.statusCode).toBe(409);
    // with the tracking number recorded by the floor, the order ships
    const shipped = await admin.post(`/api/admin/orders/${o.id}/shipment`, { carrier: 'ups', trackingNumber: '1Z999AA10123456784' });
    expect(shipped.statusCode).toBe(200);
    expect(await statusOf(o.id)).toBe('shipped');
  });

  it('the staff detail carries the facts; the shared machine offers exactly the moves the API accepts', async () => {
    const o = await insertOrder(t.app);
    await readyForProduction(t.app, o.id, { paid: false });
    const d = (await admin.get(`/api/admin/orders/${o.id}`)).json() as AdminOrderDetail;
    expect(d.workflow).toEqual({
      facts: { status: 'pending', deliveryOption: 'standard', designApproved: true, proofApproved: true, hasAddress: true, paid: false, hasTracking: false },
      proof: { state: 'approved', message: null },
    });
    const moves = offeredMoves(d.workflow.facts as OrderFacts);
    expect(moves.map((m) => [m.status, m.allowed, m.missing])).toEqual([
      ['processing', true, []],
      ['in-production', false, ['payment']],
      ['cancelled', true, []],
    ]);
    expect(moves.find((m) => m.status === 'in-production')).toMatchObject({ overridable: true, emailsCustomer: true });
    expect(checkMove(d.workflow.facts as OrderFacts, 'in-production', 'reason')).toEqual({ ok: true, overridden: true, emailsCustomer: true });
  });
});
