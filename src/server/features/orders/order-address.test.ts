import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Agent, createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent } from '#tests/helpers/factories';
import { orderInput, shippingAddressInput } from '#tests/helpers/orders';
import { ADDRESS_LOCKED_MESSAGE, ADDRESS_MESSAGES, ADDRESS_PICKUP_MESSAGE, toOrderPayload, type OrderStatusView } from '#shared/schemas/orders';
import type { AdminOrderDetail } from '#shared/schemas/admin';
import { deliveryPromise } from '#shared/orders/delivery-promise';
import { orders, outbox } from '#server/db/schema/index';

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://cards.example.test' } });
  admin = (await adminAgent(t.app)).agent;
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 1;
const newIp = () => `10.35.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;
const post = (body: unknown) => t.app.inject({ method: 'POST', url: '/api/order', payload: body as object, remoteAddress: newIp() });
const tokenOf = (statusUrl: string) => statusUrl.split('/order-status/')[1];

describe('the delivery address of an order (issue 35)', () => {
  it('is required for every delivery but pickup, with a message per field', async () => {
    const { shippingAddress: _none, ...noAddress } = orderInput();
    const missing = await post(noAddress);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ shippingAddress: ADDRESS_MESSAGES.required });

    const bad = await post(orderInput({ shippingAddress: { name: '', line1: ' ', city: 'Brooklyn', state: 'Zz', postalCode: '1120', country: 'US' } }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ 'shippingAddress.name': ADDRESS_MESSAGES.name, 'shippingAddress.line1': ADDRESS_MESSAGES.line1 });

    const usRules = await post(orderInput({ shippingAddress: shippingAddressInput({ state: 'Zz', postalCode: '1120' }) }));
    expect(usRules.json().errors).toEqual({ 'shippingAddress.state': ADDRESS_MESSAGES.usState, 'shippingAddress.postalCode': ADDRESS_MESSAGES.usPostalCode });
    const country = await post(orderInput({ shippingAddress: shippingAddressInput({ country: 'USA' }) }));
    expect(country.json().errors['shippingAddress.country']).toBeTruthy();
    const unknownField = await post(orderInput({ shippingAddress: { ...shippingAddressInput(), zip: '10001' } }));
    expect(unknownField.statusCode).toBe(400);

    // pickup: no address needed; one sent anyway is not stored (nothing is shipped)
    const pickup = await post({ ...noAddress, deliveryOption: 'pickup-nyc' });
    expect(pickup.statusCode).toBe(201);
    const withAddress = await post(orderInput({ deliveryOption: 'pickup-nyc' }));
    expect(withAddress.statusCode).toBe(201);
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, withAddress.json().orderId));
    expect(row.shippingAddress).toBeNull();
  });

  it('takes the spec payload with shippingAddress at the top level; normalises state, country and blanks', async () => {
    const input = orderInput({ deliveryOption: 'standard', shippingAddress: shippingAddressInput({ state: 'new york', country: 'us', line2: '' }) });
    const payload = toOrderPayload(input as never);
    expect(payload.shippingAddress).toBeTruthy();
    const res = await post(payload);
    expect(res.statusCode).toBe(201);
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(row.shippingAddress).toEqual({ name: 'Grace Hopper', line1: '1 Navy Yard Way', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' });
    // outside the US: any state (or none), a postal code of letters and digits
    const uk = await post(orderInput({ shippingAddress: { name: 'Ada', line1: '10 Downing St', city: 'London', postalCode: 'SW1A 2AA', country: 'GB' } }));
    expect(uk.statusCode).toBe(201);
  });

  it('shows in the e-mail, the status page and the staff detail, with the one delivery promise', async () => {
    const input = orderInput();
    const res = await post(input);
    expect(res.statusCode).toBe(201);
    const { orderId, statusUrl } = res.json();
    const [row] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    const promise = deliveryPromise(row.createdAt, 'rush-24h').label;
    expect(promise).toMatch(/^Ships by (Mon|Tue|Wed|Thu|Fri), [A-Z][a-z]{2} \d{1,2}$/);

    const [mail] = await t.app.ctx.db.select().from(outbox).where(eq(outbox.toAddress, input.email));
    expect(mail.textBody).toContain('Grace Hopper, 1 Navy Yard Way, Suite 4, Brooklyn, NY 11205');
    expect(mail.textBody).toContain(promise);
    expect(mail.htmlBody).toContain('1 Navy Yard Way');

    const view = (await new Agent(t.app).get(`/api/order-status/${tokenOf(statusUrl)}`)).json() as OrderStatusView;
    expect(view.shippingAddress).toEqual({ name: 'Grace Hopper', line1: '1 Navy Yard Way', line2: 'Suite 4', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' });
    expect(view).toMatchObject({ addressEditable: true, deliveryPromise: promise, studio: null });

    const detail = (await admin.get(`/api/admin/orders/${orderId}`)).json() as AdminOrderDetail;
    expect(detail.shippingAddress).toMatchObject({ line1: '1 Navy Yard Way', postalCode: '11205' });
  });

  it('the customer corrects it until the order ships (PATCH /api/order-status/{token}/address), then 409', async () => {
    const res = await post(orderInput());
    const { orderId, statusUrl } = res.json();
    const url = `/api/order-status/${tokenOf(statusUrl)}/address`;
    const visitor = new Agent(t.app);

    const bad = await visitor.patch(url, { shippingAddress: shippingAddressInput({ postalCode: 'abc' }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ 'shippingAddress.postalCode': ADDRESS_MESSAGES.usPostalCode });

    const ok = await visitor.patch(url, { shippingAddress: shippingAddressInput({ line1: '2 Main St', line2: null, postalCode: '11201-1234' }) });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as OrderStatusView).shippingAddress).toMatchObject({ line1: '2 Main St', line2: null, postalCode: '11201-1234' });
    const detail = (await admin.get(`/api/admin/orders/${orderId}`)).json() as AdminOrderDetail;
    expect(detail.shippingAddress?.line1).toBe('2 Main St');

    expect((await visitor.patch('/api/order-status/' + 'x'.repeat(43) + '/address', { shippingAddress: shippingAddressInput() })).statusCode).toBe(404);

    await t.app.ctx.db.update(orders).set({ status: 'shipped' }).where(eq(orders.id, orderId));
    const late = await visitor.patch(url, { shippingAddress: shippingAddressInput() });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(ADDRESS_LOCKED_MESSAGE);
    const view = (await visitor.get(`/api/order-status/${tokenOf(statusUrl)}`)).json() as OrderStatusView;
    expect(view.addressEditable).toBe(false);
    expect(view.shippingAddress?.line1).toBe('2 Main St');

    const pickup = await post(orderInput({ deliveryOption: 'pickup-nyc' }));
    const refused = await visitor.patch(`/api/order-status/${tokenOf(pickup.json().statusUrl)}/address`, { shippingAddress: shippingAddressInput() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ADDRESS_PICKUP_MESSAGE);
  });

  it('the job ticket prints it under "Ship to" (pickup: the studio), never the address on the card', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-ship-to-'));
    try {
      const text = async (body: unknown) => {
        const { orderId } = (await post(body)).json();
        await t.app.ctx.db.update(orders).set({ status: 'in-production' }).where(eq(orders.id, orderId));
        const res = await admin.get(`/api/admin/orders/${orderId}/job-ticket.pdf`);
        expect(res.statusCode, res.statusCode === 200 ? '' : res.body).toBe(200);
        const file = path.join(tmp, `t-${orderId}.pdf`);
        fs.writeFileSync(file, res.rawPayload);
        return execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
      };
      const shipped = await text(orderInput({ address: '99 Card Printed Ave' }));
      expect(shipped).toContain('Ship to Grace Hopper, 1 Navy Yard Way, Suite 4, Brooklyn, NY 11205');
      expect(shipped).not.toContain('99 Card Printed Ave');
      expect(await text(orderInput({ deliveryOption: 'pickup-nyc' }))).toContain('Ship to Pickup at the studio (no shipping)');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
