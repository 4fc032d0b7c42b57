import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { waitFor } from '#tests/helpers/smtp-server';
import { webhookDeliveries } from '#server/db/schema/index';
import { isForbiddenAddress, webhookDns, type ResolvedAddress } from '#server/jobs/webhook-address';
import { webhookBackoffSeconds } from '#server/jobs/webhook-worker';
import { WEBHOOK_MESSAGES } from '#shared/schemas/webhooks';

/**
 * SSRF refusals (issue 23): with WEBHOOK_ALLOW_PRIVATE_NETWORKS off (as in production), no
 * endpoint may point at loopback, private, link-local or metadata addresses, at save and at every
 * delivery (a name that answered a public address when saved and loopback later is refused then).
 */
let t: TestApp;
let strict: TestApp;
let hits = 0;
let server: http.Server;
let port = 0;
const realLookup = webhookDns.lookup;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  // http allowed (so the refusals below are about the address), private networks not
  t = await createTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true' } });
  // production defaults: https only
  strict = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await new Promise<void>((r) => server.close(() => r()));
});
afterEach(() => {
  webhookDns.lookup = realLookup;
});

/** a DNS that answers what the test says */
function dnsAnswers(map: Record<string, string[]>) {
  webhookDns.lookup = async (host: string): Promise<ResolvedAddress[]> => {
    const list = map[host];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('at save', () => {
  it('refuses loopback, private, link-local, metadata and names resolving to them (400 on url)', async () => {
    dnsAnswers({ 'loopback.example.test': ['127.0.0.1'], 'mixed.example.test': ['93.184.216.34', '10.1.2.3'], 'v6.example.test': ['::1'] });
    const { agent } = await signedInAgent(t.app);
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/hook',
      'http://192.168.1.10/hook',
      'http://172.16.5.4/hook',
      'http://100.64.0.1/hook',
      'http://[fe80::1]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://2130706433/hook', // 127.0.0.1 written as a number
      'http://loopback.example.test/hook',
      'http://mixed.example.test/hook',
      'http://v6.example.test/hook',
    ]) {
      const res = await agent.post('/api/webhooks', { url, events: ['lead.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual({ url: WEBHOOK_MESSAGES.refused });
    }
    expect((await agent.get('/api/webhooks')).json().endpoints).toEqual([]);
  });

  it('refuses "localhost" through the real resolver', async () => {
    const { agent } = await signedInAgent(t.app);
    const res = await agent.post('/api/webhooks', { url: `http://localhost:${port}/hook`, events: ['lead.created'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url).toBe(WEBHOOK_MESSAGES.refused);
  });

  it('refuses a change of url to a forbidden address', async () => {
    dnsAnswers({ 'public.example.test': ['93.184.216.34'] });
    const { agent } = await signedInAgent(t.app);
    const { endpoint } = (await agent.post('/api/webhooks', { url: 'https://public.example.test/hook', events: ['lead.created'] })).json();
    const res = await agent.patch(`/api/webhooks/${endpoint.id}`, { url: 'http://169.254.169.254/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url).toBe(WEBHOOK_MESSAGES.refused);
    expect((await agent.get(`/api/webhooks/${endpoint.id}`)).json().url).toBe('https://public.example.test/hook');
  });

  it('accepts only https:// without WEBHOOK_ALLOW_HTTP', async () => {
    const { agent } = await signedInAgent(strict.app);
    const res = await agent.post('/api/webhooks', { url: 'http://93.184.216.34/hook', events: ['lead.created'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url).toBe(WEBHOOK_MESSAGES.url);
    expect((await agent.post('/api/webhooks', { url: 'https://93.184.216.34/hook', events: ['lead.created'] })).statusCode).toBe(201);
    expect((await agent.post('/api/webhooks', { url: 'https://127.0.0.1/hook', events: ['lead.created'] })).statusCode).toBe(400);
  });
});

describe('at delivery (DNS rebinding)', () => {
  it('refuses a name that answered a public address at save and loopback at delivery: nothing is sent', async () => {
    dnsAnswers({ 'rebind.example.test': ['93.184.216.34'] });
    const { agent } = await signedInAgent(t.app);
    const { endpoint } = (await agent.post('/api/webhooks', { url: `http://rebind.example.test:${port}/hook`, events: ['lead.created'] })).json();
    dnsAnswers({ 'rebind.example.test': ['127.0.0.1'] });
    const before = hits;
    const queued = await agent.post(`/api/webhooks/${endpoint.id}/test`);
    expect(queued.statusCode).toBe(202);
    const d = await waitFor(async () => {
      const [row] = await t.app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
      return row?.lastError && row;
    }, 'a refused attempt');
    expect(d).toMatchObject({ status: 'pending', responseStatus: null, lastError: WEBHOOK_MESSAGES.refused });
    expect(hits).toBe(before); // the loopback receiver was never reached
  });

  it('connects to the address it checked (pinned), not to a second resolution', async () => {
    // private networks allowed here only to reach the loopback receiver through a made-up name
    const open = await createTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    try {
      dnsAnswers({ 'pinned.example.test': ['127.0.0.1'] });
      const { agent } = await signedInAgent(open.app);
      const { endpoint } = (await agent.post('/api/webhooks', { url: `http://pinned.example.test:${port}/hook`, events: ['lead.created'] })).json();
      const before = hits;
      await agent.post(`/api/webhooks/${endpoint.id}/test`);
      await waitFor(async () => {
        const [row] = await open.app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
        return row?.status === 'delivered';
      }, 'delivered through the pinned address');
      // the operating system's resolver knows no such name: only the checked address could be used
      expect(hits).toBe(before + 1);
    } finally {
      await open.close();
    }
  });
});

describe('rules', () => {
  it('classifies addresses', () => {
    for (const ip of ['127.0.0.1', '127.255.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '0:0:0:0:0:ffff:10.0.0.1', 'not-an-ip']) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(ip), ip).toBe(false);
    }
  });

  it('backs off 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then 4 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(webhookBackoffSeconds)).toEqual([10, 30, 120, 600, 1800, 3600, 7200, 14400, 14400, 14400]);
  });
});
