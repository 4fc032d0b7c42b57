import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { eq, inArray, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { waitFor } from '#tests/helpers/smtp-server';
import { outbox, webhookDeliveries, webhookEndpoints, webhookEvents } from '#server/db/schema/index';
import { recordEvent, signalEvents } from './events';
import { orderInput } from '#tests/helpers/orders';
import { adminAgent, verifiedAgent } from '#tests/helpers/factories';
import { insertDesign } from '#tests/helpers/admin-factories';
import { createWebhookWorker, DELIVERY_RETENTION_DAYS } from './webhook-worker';
import { WebhookCardData, WebhookOrderData, WebhookOrderStatusData, WebhookPayload } from '#shared/schemas/webhooks';

/** A receiver on loopback: answers `mode`, or refuses connections while `down`. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
class Receiver {
  got: Received[] = [];
  mode: 200 | 500 | 302 = 200;
  port = 0;
  private server: http.Server | null = null;
  async up(port = this.port) {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.got.push({ headers: req.headers, body });
        if (this.mode === 302) res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        else res.writeHead(this.mode, { 'content-type': 'text/plain' }).end(this.mode === 200 ? 'ok' : 'broken');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async down() {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  get isUp() {
    return this.server !== null;
  }
  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
  bodies(type?: string) {
    return this.got.map((g) => ({ ...g, json: JSON.parse(g.body) as { type: string; timestamp: string; data: any } })).filter((g) => !type || g.json.type === type);
  }
}

/**
 * The independent verifier: the Standard Webhooks signature computed here with node:crypto
 * (`{id}.{timestamp}.{body}`, HMAC-SHA256 keyed with the base64 secret after `whsec_`), not with
 * the library that signed.
 */
function verifySignature(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, sig] = part.split(',');
      return version === 'v1' && sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
    });
}

let t: TestApp;
const rx = new Receiver();
beforeAll(async () => {
  await rx.up();
  t = await createTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', PUBLIC_URL: 'https://cards.example.test' } });
});
afterAll(async () => {
  await t?.close();
  await rx.down();
});
afterEach(async () => {
  rx.mode = 200;
  if (!rx.isUp) await rx.up();
});

/** every test user's password (factories' default): creating an endpoint asks for it (issue 33) */
const PW = 'correct-horse-1';

async function owner() {
  const s = await verifiedAgent(t.app);
  const res = await s.agent.post('/api/profile', { fullName: 'Grace Hopper', jobTitle: 'Engineer', email: 'grace@example.com' });
  expect(res.statusCode).toBe(201);
  return { ...s, profileId: (res.json() as { id: string }).id };
}

let ipSeq = 1;
const leaveDetails = (profileId: string, name = 'Ada Lovelace') =>
  t.app.inject({
    method: 'POST',
    url: `/api/p/${profileId}/leads`,
    remoteAddress: `10.9.0.${ipSeq++}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name, email: 'ada@example.com', phone: '+44 20 7946 0018', company: 'Analytical Engines', note: 'Hello', consent: true }),
  });

const deliveriesOf = (endpointId: number) => t.app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.id);
/** the clock moved on: every pending retry is due now */
async function retryNow() {
  await t.app.ctx.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where status = 'pending'`);
  signalEvents();
}

describe('webhook endpoints API', () => {
  it('registers an endpoint and shows its Standard Webhooks secret once', async () => {
    const { agent } = await verifiedAgent(t.app);
    const res = await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created', 'order.created', 'lead.created'], description: 'CRM', password: PW });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(body.endpoint).toMatchObject({ url: rx.url, events: ['lead.created', 'order.created'], enabled: true, description: 'CRM', teamId: null });
    const list = await agent.get('/api/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.secret.slice(6));
    expect(list.json().endpoints).toHaveLength(1);
    const one = await agent.get(`/api/webhooks/${body.endpoint.id}`);
    expect(one.json()).toEqual(body.endpoint);
    expect(one.body).not.toContain('whsec_');
  });

  it('updates url, events and enabled; deletes with a message', async () => {
    const { agent } = await verifiedAgent(t.app);
    const { endpoint } = (await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    const patched = await agent.patch(`/api/webhooks/${endpoint.id}`, { events: ['card.approved', 'card.rejected'], url: `${rx.url}/v2` });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['card.approved', 'card.rejected'], url: `${rx.url}/v2` });
    const off = await agent.patch(`/api/webhooks/${endpoint.id}`, { enabled: false });
    expect(off.json()).toMatchObject({ enabled: false, disabledReason: 'Disabled by you' });
    expect((await agent.post(`/api/webhooks/${endpoint.id}/test`)).statusCode).toBe(409);
    const on = await agent.patch(`/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null });
    const del = await agent.delete(`/api/webhooks/${endpoint.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Webhook endpoint deleted' });
    expect((await agent.get(`/api/webhooks/${endpoint.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with a field message and writes nothing', async () => {
    const { agent, user } = await verifiedAgent(t.app);
    const cases: Array<[unknown, string]> = [
      [{ url: 'ftp://example.com/x', events: ['lead.created'], password: PW }, 'url'],
      [{ url: 'not a url', events: ['lead.created'], password: PW }, 'url'],
      [{ url: 'https://user:pw@example.com/x', events: ['lead.created'], password: PW }, 'url'],
      [{ url: rx.url, events: [], password: PW }, 'events'],
      [{ url: rx.url, events: ['order.deleted'], password: PW }, 'events.0'],
      [{ url: rx.url, password: PW }, 'events'],
      [{ url: rx.url, events: ['lead.created'], secret: 'mine', password: PW }, 'secret'],
      [{ url: rx.url, events: ['lead.created'], teamId: 'nope', password: PW }, 'teamId'],
    ];
    for (const [body, field] of cases) {
      const res = await agent.post('/api/webhooks', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const rows = await t.app.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, user.id));
    expect(rows).toHaveLength(0);
    expect((await agent.patch('/api/webhooks/999999', { events: [] })).statusCode).toBe(400);
  });

  it("keeps every endpoint to its owner: another user reaches none of them", async () => {
    const a = await verifiedAgent(t.app);
    const b = await verifiedAgent(t.app);
    const { endpoint } = (await a.agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    const test = (await a.agent.post(`/api/webhooks/${endpoint.id}/test`)).json();
    await waitFor(async () => (await deliveriesOf(endpoint.id)).every((d) => d.status === 'delivered'), 'test delivered');
    expect((await b.agent.get('/api/webhooks')).json().endpoints).toEqual([]);
    expect((await b.agent.get(`/api/webhooks/${endpoint.id}`)).statusCode).toBe(404);
    expect((await b.agent.patch(`/api/webhooks/${endpoint.id}`, { enabled: false })).statusCode).toBe(404);
    expect((await b.agent.delete(`/api/webhooks/${endpoint.id}`)).statusCode).toBe(404);
    expect((await b.agent.post(`/api/webhooks/${endpoint.id}/test`)).statusCode).toBe(404);
    expect((await b.agent.get(`/api/webhooks/${endpoint.id}/deliveries`)).statusCode).toBe(404);
    expect((await b.agent.post(`/api/webhooks/${endpoint.id}/deliveries/${test.id}/redeliver`)).statusCode).toBe(404);
    // and a delivery id of another endpoint is not found under one's own
    const mine = (await b.agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json().endpoint;
    expect((await b.agent.post(`/api/webhooks/${mine.id}/deliveries/${test.id}/redeliver`)).statusCode).toBe(404);
    expect((await a.agent.get(`/api/webhooks/${endpoint.id}`)).json().enabled).toBe(true);
    expect((await new (await import('#tests/helpers/test-app')).Agent(t.app).get('/api/webhooks')).statusCode).toBe(401);
  });
});

describe('signed deliveries', () => {
  it('sends a test event signed per Standard Webhooks, verified independently, and logs it', async () => {
    const { agent } = await verifiedAgent(t.app);
    const { endpoint, secret } = (await agent.post('/api/webhooks', { url: rx.url, events: ['profile.updated'], password: PW })).json();
    const queued = await agent.post(`/api/webhooks/${endpoint.id}/test`);
    expect(queued.statusCode).toBe(202);
    const got = await waitFor(() => rx.got.find((g) => g.headers['webhook-id'] === queued.json().messageId), 'the test event');
    expect(verifySignature(secret, got)).toBe(true);
    // and the official Standard Webhooks library verifies it as a receiver would (issue 36)
    const headers = { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(() => new Webhook(secret).verify(got.body.replace('test', 'tost'), headers)).toThrow();
    expect(verifySignature(`whsec_${crypto.randomBytes(32).toString('base64')}`, got)).toBe(false);
    expect(verifySignature(secret, { ...got, body: got.body.replace('test', 'tost') })).toBe(false);
    expect(got.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
    const log = await waitFor(async () => {
      const d = (await agent.get(`/api/webhooks/${endpoint.id}/deliveries`)).json().deliveries;
      return d[0]?.status === 'delivered' && d;
    }, 'the delivery log');
    expect(log[0]).toMatchObject({ type: 'webhook.test', status: 'delivered', attempts: 1, responseStatus: 200, nextAttemptAt: null, error: null });
    expect(log[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('Done when: a visitor leaves their details → the owner receives a signed lead.created, across a receiver outage', async () => {
    const o = await owner();
    const { endpoint, secret } = (await o.agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    await rx.down(); // connection refused
    const before = rx.got.length;
    expect((await leaveDetails(o.profileId, 'Visitor One')).statusCode).toBe(201);
    const first = await waitFor(async () => {
      const [d] = await deliveriesOf(endpoint.id);
      return d?.attempts === 1 && d.lockedUntil === null && d.status === 'pending' ? d : null;
    }, 'a failed first attempt');
    expect(first.lastError).toBe('could not connect'); // generic in the log; the code goes to the server log (issue 33)
    expect(first.nextAttemptAt.getTime() - first.firstAttemptAt!.getTime()).toBeGreaterThanOrEqual(9_000);
    // up again but broken: 500, retried, the same message
    await rx.up();
    rx.mode = 500;
    await retryNow();
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.attempts === 2 && (await deliveriesOf(endpoint.id))[0].lockedUntil === null, 'a second attempt');
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'pending', responseStatus: 500 });
    rx.mode = 200;
    await retryNow();
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.status === 'delivered', 'delivered at last');
    const got = rx.got.slice(before);
    expect(got).toHaveLength(2); // the 500 and the success (nothing reached the receiver while it was down)
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    for (const g of got) expect(verifySignature(secret, g)).toBe(true);
    const payload = JSON.parse(got[1].body);
    expect(payload).toMatchObject({ type: 'lead.created', data: { lead: { name: 'Visitor One', email: 'ada@example.com', profileId: o.profileId, consent: true } } });
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
  });

  it('delivers in order per endpoint: a later event waits while an earlier one is retried', async () => {
    const o = await owner();
    const { endpoint } = (await o.agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    rx.mode = 500;
    const before = rx.got.length;
    for (const name of ['First', 'Second', 'Third']) expect((await leaveDetails(o.profileId, name)).statusCode).toBe(201);
    await waitFor(async () => (await deliveriesOf(endpoint.id)).length === 3 && (await deliveriesOf(endpoint.id))[0].lastError !== null, 'first attempt');
    await new Promise((r) => setTimeout(r, 400));
    const rows = await deliveriesOf(endpoint.id);
    expect(rows.map((d) => d.attempts)).toEqual([1, 0, 0]); // the others wait behind the first
    rx.mode = 200;
    await retryNow();
    await waitFor(async () => (await deliveriesOf(endpoint.id)).every((d) => d.status === 'delivered'), 'all delivered');
    const mine = rx.got.slice(before).map((g) => JSON.parse(g.body).data.lead.name);
    expect(mine).toEqual(['First', 'First', 'Second', 'Third']);
  });

  it('records events only with their change: a rolled-back transaction emits nothing', async () => {
    const { agent, user } = await verifiedAgent(t.app);
    const { endpoint } = (await agent.post('/api/webhooks', { url: rx.url, events: ['profile.updated'], password: PW })).json();
    const event = (id: string) => ({ type: 'profile.updated' as const, userId: user.id, data: { profile: { id, updatedAt: new Date().toISOString() } } });
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await recordEvent(tx, event('rolled-back'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.app.ctx.db.transaction((tx) => recordEvent(tx, event('committed')));
    await waitFor(async () => (await deliveriesOf(endpoint.id)).some((d) => d.status === 'delivered'), 'the committed event');
    await new Promise((r) => setTimeout(r, 300));
    const rows = await deliveriesOf(endpoint.id);
    expect(rows.map((d) => JSON.parse(d.payload).data.profile.id)).toEqual(['committed']);
    // fanned out events are not kept (the delivery holds the payload)
    expect(await t.app.ctx.db.select().from(webhookEvents).where(eq(webhookEvents.userId, user.id))).toEqual([]);
  });

  it('emits profile.updated only to the endpoints that asked for it', async () => {
    const o = await owner();
    const { secret } = (await o.agent.post('/api/webhooks', { url: rx.url, events: ['profile.updated', 'order.created'], password: PW })).json();
    const before = rx.got.length;
    const saved = await o.agent.put(`/api/profile/${o.profileId}`, { fullName: 'Grace B. Hopper', jobTitle: 'Rear Admiral', email: 'grace@example.com' });
    expect(saved.statusCode).toBe(200);
    const got = await waitFor(() => rx.got.slice(before).find((g) => JSON.parse(g.body).type === 'profile.updated'), 'profile.updated');
    expect(verifySignature(secret, got)).toBe(true);
    expect(JSON.parse(got.body).data).toMatchObject({ profile: { id: o.profileId } });
    // a lead is not among its events: nothing else arrives
    await leaveDetails(o.profileId);
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.got.slice(before).map((g) => JSON.parse(g.body).type)).toEqual(['profile.updated']);
  });

  it('emits order.created, order.status_changed, card.rejected and card.approved with their documented shapes', async () => {
    const o = await owner();
    const { secret } = (await o.agent.post('/api/webhooks', { url: rx.url, events: ['order.created', 'order.status_changed', 'card.approved', 'card.rejected'], password: PW })).json();
    const before = rx.got.length;
    const placed = await o.agent.post('/api/order', orderInput());
    expect(placed.statusCode).toBe(201);
    const orderId = placed.json().orderId as number;
    const admin = (await adminAgent(t.app)).agent;
    expect((await admin.patch(`/api/admin/orders/${orderId}`, { status: 'processing' })).statusCode).toBe(200);
    const design = await insertDesign(t.app, { userId: o.user.id, profileId: o.profileId });
    expect((await admin.put(`/api/admin/business-cards/${design.id}/review`, { status: 'rejected', reviewNotes: 'The logo is blurry.' })).statusCode).toBe(200);
    const got = await waitFor(() => {
      const mine = rx.got.slice(before);
      return mine.length >= 3 ? mine : null;
    }, 'three events');
    for (const g of got) expect(verifySignature(secret, g)).toBe(true);
    const [created, changed, rejected] = got.map((g) => JSON.parse(g.body));
    expect(WebhookPayload.parse(created)).toBeTruthy();
    expect(created.type).toBe('order.created');
    expect(WebhookOrderData.strict().parse(created.data).order).toMatchObject({ id: orderId, status: 'pending', quantity: 250, cardType: 'color' });
    expect(JSON.stringify(created)).not.toContain('@example.com'); // no e-mail, phone or address
    expect(changed.type).toBe('order.status_changed');
    expect(WebhookOrderStatusData.parse(changed.data)).toMatchObject({ fromStatus: 'pending', toStatus: 'processing', order: { id: orderId, status: 'processing' } });
    expect(rejected.type).toBe('card.rejected');
    expect(WebhookCardData.parse(rejected.data)).toEqual({ card: { id: design.id, status: 'rejected', reviewNotes: 'The logo is blurry.', orderId: null } });
    // approval (a bare test design fails the print check, so staff override it with a reason)
    const second = await insertDesign(t.app, { userId: o.user.id, profileId: o.profileId });
    const approved = await admin.put(`/api/admin/business-cards/${second.id}/review`, { status: 'approved', overrideReason: 'Test card, checked by hand' });
    expect(approved.statusCode, approved.body).toBe(200);
    const approvedEvent = await waitFor(() => rx.got.slice(before).map((g) => JSON.parse(g.body)).find((b) => b.type === 'card.approved') ?? null, 'card.approved');
    expect(WebhookCardData.parse(approvedEvent.data).card).toMatchObject({ id: second.id, status: 'approved' });
  });

  it('rolls the secret: shown once, the next delivery is signed with the new one only', async () => {
    const { agent } = await verifiedAgent(t.app);
    const other = await verifiedAgent(t.app);
    const { endpoint, secret: old } = (await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    expect((await other.agent.post(`/api/webhooks/${endpoint.id}/secret`)).statusCode).toBe(404);
    const rolled = await agent.post(`/api/webhooks/${endpoint.id}/secret`);
    expect(rolled.statusCode).toBe(200);
    const { secret } = rolled.json();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    const test = (await agent.post(`/api/webhooks/${endpoint.id}/test`)).json();
    const got = await waitFor(() => rx.got.find((g) => g.headers['webhook-id'] === test.messageId), 'signed with the new secret');
    expect(verifySignature(secret, got)).toBe(true);
    expect(verifySignature(old, got)).toBe(false);
  });

  it('redelivers with the same webhook-id as a new log entry', async () => {
    const { agent } = await verifiedAgent(t.app);
    const { endpoint, secret } = (await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    const test = (await agent.post(`/api/webhooks/${endpoint.id}/test`)).json();
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.status === 'delivered', 'test delivered');
    const again = await agent.post(`/api/webhooks/${endpoint.id}/deliveries/${test.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ messageId: test.messageId, status: 'pending' });
    await waitFor(async () => (await deliveriesOf(endpoint.id)).every((d) => d.status === 'delivered'), 'redelivered');
    const copies = rx.got.filter((g) => g.headers['webhook-id'] === test.messageId);
    expect(copies).toHaveLength(2);
    expect(copies[0].body).toBe(copies[1].body);
    expect(verifySignature(secret, copies[1])).toBe(true);
    expect((await agent.get(`/api/webhooks/${endpoint.id}/deliveries`)).json().deliveries).toHaveLength(2);
    expect((await agent.post(`/api/webhooks/${endpoint.id}/deliveries/999999/redeliver`)).statusCode).toBe(404);
  });

  it('does not follow redirects (a 3xx is a failure)', async () => {
    const { agent } = await verifiedAgent(t.app);
    const { endpoint } = (await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    rx.mode = 302;
    await agent.post(`/api/webhooks/${endpoint.id}/test`);
    const d = await waitFor(async () => { const [row] = await deliveriesOf(endpoint.id); return row?.lastError != null ? row : null; }, 'attempt');
    expect(d).toMatchObject({ status: 'pending', responseStatus: 302 });
    expect(d.lastError).toMatch(/redirects are not followed/);
    await agent.delete(`/api/webhooks/${endpoint.id}`);
  });

  it('disables an endpoint failing for 24 hours and e-mails its owner', async () => {
    const { agent, user } = await verifiedAgent(t.app);
    const { endpoint } = (await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    rx.mode = 500;
    await agent.post(`/api/webhooks/${endpoint.id}/test`);
    await agent.post(`/api/webhooks/${endpoint.id}/test`);
    await waitFor(async () => (await deliveriesOf(endpoint.id))[0]?.lastError != null, 'first attempt');
    // 25 hours have passed since the first attempt
    await t.app.ctx.db.execute(sql`update webhook_deliveries set first_attempt_at = now() - interval '25 hours', next_attempt_at = now() where endpoint_id = ${endpoint.id} and attempts > 0`);
    signalEvents();
    const ep = await waitFor(async () => {
      const e = (await agent.get(`/api/webhooks/${endpoint.id}`)).json();
      return e.enabled === false && e;
    }, 'disabled');
    expect(ep.disabledReason).toMatch(/24 hours/);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(['failed', 'failed']);
    const mails = await t.app.ctx.db.select().from(outbox).where(eq(outbox.kind, 'webhook-disabled'));
    const mine = mails.filter((m) => m.toAddress === user.email);
    expect(mine).toHaveLength(1);
    expect(mine[0].textBody).toContain(rx.url);
    expect(mine[0].subject).toBe('Your webhook endpoint was disabled');
    // redelivery waits until it is enabled again
    const [first] = await deliveriesOf(endpoint.id);
    expect((await agent.post(`/api/webhooks/${endpoint.id}/deliveries/${first.id}/redeliver`)).statusCode).toBe(409);
  });
});

/** one account for the queue tests below: sign-ups are limited to 20 an hour per address */
let queueOwner: Awaited<ReturnType<typeof verifiedAgent>> | undefined;
const queueAgent = async () => (queueOwner ??= await verifiedAgent(t.app)).agent;

describe('several instances on one queue', () => {
  it('deliver every message once, in order per endpoint', async () => {
    const agent = await queueAgent();
    const endpoints: number[] = [];
    for (let e = 0; e < 3; e++) endpoints.push((await agent.post('/api/webhooks', { url: `${rx.url}?endpoint=${e}`, events: ['lead.created'], password: PW })).json().endpoint.id);
    const ids = (e: number) => Array.from({ length: 8 }, (_, i) => `msg_instances_${e}_${i}`);
    // counted before queueing: the app's own worker may deliver the first ones at once
    const before = rx.got.length;
    // queued in turns across the endpoints, as events arrive
    for (let i = 0; i < 8; i++) {
      for (const [e, endpointId] of endpoints.entries()) {
        await t.app.ctx.db.insert(webhookDeliveries).values({ endpointId, messageId: ids(e)[i], type: 'lead.created', payload: JSON.stringify({ type: 'lead.created', n: i }) });
      }
    }
    // two more workers beside the app's own: three instances claiming from one table
    const make = () => createWebhookWorker({ db: t.app.ctx.db, log: t.app.log, policy: { allowHttp: true, allowPrivate: true }, onEmailQueued: () => {}, manageUrl: () => 'https://cards.example.test/developer' });
    const workers = [make(), make()];
    try {
      for (let round = 0; round < 30; round++) {
        await Promise.all(workers.map((w) => w.runOnce()));
        const rows = await t.app.ctx.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(inArray(webhookDeliveries.endpointId, endpoints));
        if (rows.every((r) => r.status === 'delivered')) break;
      }
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const received = rx.got.slice(before).map((g) => String(g.headers['webhook-id']));
    for (const e of endpoints.keys()) expect(received.filter((id) => id.startsWith(`msg_instances_${e}_`))).toEqual(ids(e));
    expect(received.filter((id) => id.startsWith('msg_instances_'))).toHaveLength(24);
  });
});

describe('the delivery log', () => {
  it(`keeps finished deliveries ${DELIVERY_RETENTION_DAYS} days and pending ones until they finish`, async () => {
    const agent = await queueAgent();
    const { endpoint } = (await agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], password: PW })).json();
    const old = `now() - interval '${DELIVERY_RETENTION_DAYS + 1} days'`;
    const row = (message: string, status: string, at: string) =>
      sql`(${endpoint.id}, ${message}, 'lead.created', '{}', ${status}, ${sql.raw(at)}, ${sql.raw(status === 'delivered' ? at : 'null')}, ${sql.raw(at)}, ${sql.raw(status === 'pending' ? "now() + interval '1 hour'" : 'now()')})`;
    await t.app.ctx.db.execute(sql`insert into webhook_deliveries (endpoint_id, message_id, type, payload, status, created_at, delivered_at, last_attempt_at, next_attempt_at) values
      ${row('msg_old_delivered', 'delivered', old)}, ${row('msg_old_failed', 'failed', old)}, ${row('msg_old_pending', 'pending', old)},
      ${row('msg_recent_delivered', 'delivered', "now() - interval '2 days'")}`);
    // a worker of its own: its first run prunes
    const worker = createWebhookWorker({ db: t.app.ctx.db, log: t.app.log, policy: { allowHttp: true, allowPrivate: true }, onEmailQueued: () => {}, manageUrl: () => 'https://cards.example.test/developer' });
    await worker.runOnce();
    await worker.stop();
    expect((await deliveriesOf(endpoint.id)).map((d) => d.messageId)).toEqual(['msg_old_pending', 'msg_recent_delivered']);
    expect((await agent.get(`/api/webhooks/${endpoint.id}/deliveries`)).json().deliveries).toHaveLength(2);
  });
});

describe('team endpoints', () => {
  it("lets a team's owner register for the team; others are refused", async () => {
    const o = await owner();
    const team = await o.agent.post('/api/team', { name: 'Hopper & Co' });
    expect(team.statusCode).toBe(201);
    const teamId = team.json().team.id as string;
    const { endpoint, secret } = (await o.agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], teamId, password: PW })).json();
    expect(endpoint.teamId).toBe(teamId);
    const stranger = await verifiedAgent(t.app);
    expect((await stranger.agent.post('/api/webhooks', { url: rx.url, events: ['lead.created'], teamId, password: PW })).statusCode).toBe(404);
    expect((await stranger.agent.get(`/api/webhooks/${endpoint.id}`)).statusCode).toBe(404);
    // a lead for a team member's profile goes to the team's endpoint
    const before = rx.got.length;
    expect((await leaveDetails(o.profileId, 'Team Visitor')).statusCode).toBe(201);
    const got = await waitFor(() => rx.got.slice(before).find((g) => JSON.parse(g.body).data?.lead?.name === 'Team Visitor'), 'team lead');
    expect(verifySignature(secret, got)).toBe(true);
  });
});
