import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { cards, orderFulfilment, orders, outbox, profiles } from '#server/db/schema/index';
import { changeOrderStatus } from '#server/features/orders/public-api';

/**
 * Issue 37 item 6, decision 37-09: a team member hears about their own card, through the outbox:
 * when the team orders it for them, and when the order ships or is ready for pickup. The person
 * who placed the order gets the order's e-mails, not these.
 */
const ORIGIN = 'https://cards.example.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t?.close();
});

async function inviteToken(email: string): Promise<string> {
  const rows = await t.app.ctx.db.select().from(outbox).where(and(eq(outbox.toAddress, email), like(outbox.dedupeKey, 'team-invite:%')));
  const m = /\/team\/join\/([A-Za-z0-9_-]+)/.exec(rows.sort((a, b) => b.id - a.id)[0]?.textBody ?? '');
  return m![1];
}

async function joinedMember(owner: Agent, fullName: string) {
  const email = `m_${Math.random().toString(36).slice(2)}@example.com`;
  expect((await owner.post('/api/team/invites', { invites: [{ email, fullName, jobTitle: 'Sales', role: 'member' }] })).statusCode).toBe(201);
  const token = await inviteToken(email);
  const person = await signedInAgent(t.app, { email, firstName: fullName.split(' ')[0], lastName: fullName.split(' ')[1] ?? 'X' });
  expect((await person.agent.post(`/api/team/invites/${token}/accept`)).statusCode).toBe(200);
  return { ...person, email };
}

const mailsOf = (orderId: number) => t.app.ctx.db.select().from(outbox).where(and(eq(outbox.orderId, orderId), like(outbox.kind, 'team-card-%')));

describe("a member's own card", () => {
  it('each member is e-mailed when the team orders their card and when it is ready; the person who ordered is not', { timeout: 240_000 }, async () => {
    const owner = await signedInAgent(t.app, { firstName: 'Olivia', lastName: 'Owner' });
    expect((await owner.agent.post('/api/team', { name: 'Northwind', companyName: 'Northwind Trading' })).statusCode).toBe(201);
    await owner.agent.post('/api/profile', { fullName: 'Olivia Owner', jobTitle: 'CEO', links: [], deleteLinks: [] });
    const a = await joinedMember(owner.agent, 'Ann Archer');
    const b = await joinedMember(owner.agent, 'Bob Baker');
    const body = {
      members: [
        { userId: a.user.id, quantity: 100 },
        { userId: b.user.id, quantity: 50 },
        { userId: owner.user.id, quantity: 25 },
      ],
      cardType: 'standard',
      cardStyle: 'Matte',
      deliveryOption: 'pickup-nyc',
      clientToken: 'member-mail-order-1',
    };
    // the cards are rendered on the worker pool: on a loaded machine it may answer 503 (busy); the same key retries safely
    let res = await owner.agent.post('/api/team/orders', body);
    for (let i = 0; i < 3 && res.statusCode === 503; i++) res = await owner.agent.post('/api/team/orders', body);
    expect([200, 201], res.body).toContain(res.statusCode);
    const orderId = res.json().orderId as number;

    const placed = await mailsOf(orderId);
    expect(placed.map((m) => m.toAddress).sort()).toEqual([a.email, b.email].sort());
    const ann = placed.find((m) => m.toAddress === a.email)!;
    expect(ann.subject).toBe('Northwind ordered your metal business card');
    expect(ann.textBody).toContain('ordered 100 metal business cards for you');
    expect(ann.textBody).toContain(`${ORIGIN}/dashboard?tab=card`);
    // the order's own status link (the team's) is not handed to members
    const [order] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(ann.textBody).not.toContain(order!.statusToken);

    // ready for pickup: the members hear it too (moved through the status service, as staff do)
    await t.app.ctx.db.update(cards).set({ status: 'approved' }).where(eq(cards.orderId, orderId));
    await t.app.ctx.db.update(orders).set({ status: 'quality-check' }).where(eq(orders.id, orderId));
    await changeOrderStatus(t.app.ctx, orderId, 'ready-for-pickup', { id: null, label: 'staff' } as never, { overrideReason: 'Paid at the studio' });
    const ready = (await mailsOf(orderId)).filter((m) => m.kind === 'team-card-ready-for-pickup');
    expect(ready.map((m) => m.toAddress).sort()).toEqual([a.email, b.email].sort());
    expect(ready[0]!.subject).toBe('Your metal business cards are ready');
    // the same change again queues nothing twice
    await changeOrderStatus(t.app.ctx, orderId, 'ready-for-pickup', { id: null, label: 'staff' } as never);
    expect((await mailsOf(orderId)).filter((m) => m.kind === 'team-card-ready-for-pickup')).toHaveLength(2);
    expect(await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, a.user.id))).toHaveLength(1);
  });

  it('a delivered team order that ships e-mails each member "on their way", once, and not the person who ordered', { timeout: 240_000 }, async () => {
    const owner = await signedInAgent(t.app, { firstName: 'Sam', lastName: 'Shipper' });
    expect((await owner.agent.post('/api/team', { name: 'Contoso', companyName: 'Contoso Ltd' })).statusCode).toBe(201);
    await owner.agent.post('/api/profile', { fullName: 'Sam Shipper', jobTitle: 'COO', links: [], deleteLinks: [] });
    const c = await joinedMember(owner.agent, 'Cara Carter');
    const body = {
      members: [
        { userId: c.user.id, quantity: 1 },
        { userId: owner.user.id, quantity: 1 },
      ],
      cardType: 'standard',
      cardStyle: 'Matte',
      deliveryOption: 'standard',
      shippingAddress: { name: 'Front Desk', line1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001', country: 'US' },
      clientToken: 'member-mail-order-shipped',
    };
    let res = await owner.agent.post('/api/team/orders', body);
    for (let i = 0; i < 3 && res.statusCode === 503; i++) res = await owner.agent.post('/api/team/orders', body);
    expect([200, 201], res.body).toContain(res.statusCode);
    const orderId = res.json().orderId as number;

    // quality-checked, with its carrier's tracking number: staff mark it shipped
    await t.app.ctx.db.update(cards).set({ status: 'approved' }).where(eq(cards.orderId, orderId));
    await t.app.ctx.db.update(orders).set({ status: 'quality-check' }).where(eq(orders.id, orderId));
    await t.app.ctx.db.insert(orderFulfilment).values({ orderId, carrier: 'ups', trackingNumber: '1Z999AA10123456784' });
    await changeOrderStatus(t.app.ctx, orderId, 'shipped', { id: null, label: 'staff' } as never);
    const shipped = (await mailsOf(orderId)).filter((m) => m.kind === 'team-card-shipped');
    expect(shipped.map((m) => m.toAddress)).toEqual([c.email]);
    expect(shipped[0]!.subject).toBe('Your metal business cards are on their way');
    expect(shipped[0]!.textBody).toContain("The 1 metal business card Contoso ordered for you has shipped with the team's delivery.");
    expect(shipped[0]!.textBody).toContain(`${ORIGIN}/dashboard?tab=card`);
    const [order] = await t.app.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(shipped[0]!.textBody).not.toContain(order!.statusToken);
    // no "ready for pickup" for a delivered order, and the same change again queues nothing twice
    await changeOrderStatus(t.app.ctx, orderId, 'shipped', { id: null, label: 'staff' } as never);
    expect((await mailsOf(orderId)).filter((m) => m.kind !== 'team-card-placed').map((m) => m.kind)).toEqual(['team-card-shipped']);
  });
});
