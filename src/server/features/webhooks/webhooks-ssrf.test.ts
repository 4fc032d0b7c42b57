import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { users, webhookDeliveries, webhookEndpoints } from '#server/db/schema/index';
import { checkWebhookUrl, embeddedIPv4, isForbiddenAddress, webhookDns, type ResolvedAddress } from './webhook-address';
import { DELIVERY_ERRORS, deliveryErrorOf, postPinned, webhookBackoffSeconds } from './webhook-worker';
import { WEBHOOK_MESSAGES } from '#shared/schemas/webhooks';

/**
 * SSRF refusals (issues 23 and 33, decisions 23-02 and 33-02): with WEBHOOK_ALLOW_PRIVATE_NETWORKS
 * off (as in production), a webhook reaches only globally routable unicast addresses, in any
 * spelling, at save and at every delivery; the connection goes to the address that was checked;
 * the delivery log shows a generic reason and the details go to the server log only.
 */
let t: TestApp; // http allowed (so refusals are about the address), private networks not
let strict: TestApp; // production defaults: https only
let open: TestApp; // private networks allowed: reaches the loopback receivers below
let hits = 0;
let server: http.Server;
let port = 0;
const realLookup = webhookDns.lookup;
const strictPolicy = { allowHttp: true, allowPrivate: false };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  t = await createTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_TIMEOUT_MS: '1000' } });
  strict = await createTestApp();
  open = await createTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await open?.close();
  await new Promise<void>((r) => server.close(() => r()));
});
afterEach(() => {
  webhookDns.lookup = realLookup;
  vi.restoreAllMocks();
});

/** a DNS that answers what the test says (a list per call: the last one repeats) */
function dnsAnswers(map: Record<string, string[] | string[][]>) {
  const calls: string[] = [];
  const seen = new Map<string, number>();
  webhookDns.lookup = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const entry = map[host];
    if (!entry) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    const n = seen.get(host) ?? 0;
    seen.set(host, n + 1);
    const list = Array.isArray(entry[0]) ? (entry as string[][])[Math.min(n, entry.length - 1)] : (entry as string[]);
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return calls;
}

/** a verified account (creating an endpoint needs one, issue 33) and its password */
async function verifiedAgent(app: TestApp['app']) {
  const s = await signedInAgent(app);
  await app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, s.user.id));
  return s;
}

/** an endpoint stored as it is (the save rules are tested on their own), with one delivery waiting */
async function queuedDelivery(app: TestApp['app'], url: string) {
  const { user } = await signedInAgent(app);
  const [ep] = await app.ctx.db
    .insert(webhookEndpoints)
    .values({ userId: user.id, url, events: ['lead.created'], secret: `whsec_${crypto.randomBytes(32).toString('base64')}` })
    .returning();
  const [d] = await app.ctx.db
    .insert(webhookDeliveries)
    .values({ endpointId: ep.id, messageId: `msg_${crypto.randomBytes(9).toString('hex')}`, type: 'webhook.test', payload: JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} }) })
    .returning();
  return { endpointId: ep.id, deliveryId: d.id };
}

/** runs the worker until the delivery was attempted once; the row as stored */
async function attemptOnce(app: TestApp['app'], deliveryId: number) {
  for (let i = 0; i < 50; i++) {
    await app.ctx.webhooks!.runOnce();
    const [row] = await app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    if (row.attempts > 0 && row.lockedUntil === null) return row;
  }
  throw new Error('the delivery was never attempted');
}

// ---- the address classes, written here independently of the code under test ----

const ip4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const num4 = (s: string) => s.split('.').reduce((a, p) => a * 256 + Number(p), 0);
/** [first address, prefix] of every IPv4 block no webhook may reach */
const INTERNAL_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
/** anycast service blocks the address library also calls special (AS112, AMT): refused too, never generated as "public" */
const SPECIAL_V4: Array<[string, number]> = [['192.175.48.0', 24], ['192.31.196.0', 24], ['192.52.193.0', 24]];
const inBlock = (n: number, [base, prefix]: [string, number]) => (n >>> (32 - prefix)) === (num4(base) >>> (32 - prefix));
const ownV4 = new Set(Object.values(os.networkInterfaces()).flatMap((l) => (l ?? []).map((a) => a.address)));
const isInternalV4 = (n: number) => INTERNAL_V4.some((b) => inBlock(n, b)) || SPECIAL_V4.some((b) => inBlock(n, b)) || ownV4.has(ip4(n));

const internalV4 = fc
  .tuple(fc.constantFrom(...INTERNAL_V4), fc.integer({ min: 0, max: 0xffffffff }))
  .map(([[base, prefix], r]) => (num4(base) + (prefix === 32 ? 0 : r % 2 ** (32 - prefix))) >>> 0);
const publicV4 = fc.integer({ min: 0, max: 0xffffffff }).filter((n) => !isInternalV4(n));

const hex = (n: number, upper: boolean, pad: boolean) => {
  const s = n.toString(16).padStart(pad ? 4 : 1, '0');
  return upper ? s.toUpperCase() : s;
};

/** an IPv4 address as a URL host, in the spellings browsers and URL parsers accept */
const v4Spelling = (n: number) =>
  fc.constantFrom('dotted', 'decimal', 'hex', 'octal', 'octal-parts', 'hex-parts', 'short3', 'short2', 'mixed').chain((form) =>
    fc.boolean().map((upper) => {
      const p = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
      const x = (v: number) => (upper ? `0X${v.toString(16).toUpperCase()}` : `0x${v.toString(16)}`);
      switch (form) {
        case 'decimal': return String(n);
        case 'hex': return x(n);
        case 'octal': return `0${n.toString(8)}`;
        case 'octal-parts': return p.map((v) => `0${v.toString(8)}`).join('.');
        case 'hex-parts': return p.map(x).join('.');
        case 'short3': return `${p[0]}.${p[1]}.${(p[2] << 8) | p[3]}`;
        case 'short2': return `${p[0]}.${(n & 0xffffff) >>> 0}`;
        case 'mixed': return `${x(p[0])}.0${p[1].toString(8)}.${p[2]}.${p[3]}`;
        default: return ip4(n);
      }
    }),
  );

/** an IPv6 address of 8 groups, spelled full, padded, compressed, upper or lower case */
const v6Spelling = (g: number[]) =>
  fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).map(([upper, pad, compress]) => {
    const parts = g.map((v) => hex(v, upper, pad));
    if (!compress) return parts.join(':');
    // the longest run of zero groups becomes ::
    let best = -1, len = 0;
    for (let i = 0; i < 8; i++) {
      let j = i;
      while (j < 8 && g[j] === 0) j++;
      if (j - i > len) [best, len] = [i, j - i];
    }
    if (len < 2) return parts.join(':');
    return `${parts.slice(0, best).join(':')}::${parts.slice(best + len).join(':')}`;
  });

const hi = (n: number) => n >>> 16;
const lo = (n: number) => n & 0xffff;
/** IPv6 forms that carry an IPv4 address: [name, groups] */
const carriers = (n: number, pub: number): Array<[string, number[]]> => [
  ['mapped', [0, 0, 0, 0, 0, 0xffff, hi(n), lo(n)]],
  ['nat64', [0x64, 0xff9b, 0, 0, 0, 0, hi(n), lo(n)]],
  ['6to4', [0x2002, hi(n), lo(n), 0, 0, 0, 0, 1]],
  ['teredo-client', [0x2001, 0, hi(pub), lo(pub), 0x8000, 0xfffe, hi(~n >>> 0), lo(~n >>> 0)]],
  ['teredo-server', [0x2001, 0, hi(n), lo(n), 0, 0xfffe, hi(~pub >>> 0), lo(~pub >>> 0)]],
  ['compatible', [0, 0, 0, 0, 0, 0, hi(n), lo(n)]],
  ['translated', [0, 0, 0, 0, 0xffff, 0, hi(n), lo(n)]],
];

/** an IPv4 address from `v4` inside a generated carrier (with a public Teredo partner), spelled at random */
const carried = (v4: fc.Arbitrary<number>) =>
  fc.tuple(v4, publicV4, fc.nat(6)).chain(([n, pub, which]) => {
    const [name, groups] = carriers(n, pub)[which];
    return v6Spelling(groups).map((spelled) => ({ n, name, spelled }));
  });

/** IPv6 blocks no webhook may reach: [groups of the first address, prefix] */
const INTERNAL_V6: Array<[number[], number]> = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128], [[0, 0, 0, 0, 0, 0, 0, 1], 128], [[0xfc00, 0, 0, 0, 0, 0, 0, 0], 7],
  [[0xfe80, 0, 0, 0, 0, 0, 0, 0], 10], [[0xfec0, 0, 0, 0, 0, 0, 0, 0], 10], [[0xff00, 0, 0, 0, 0, 0, 0, 0], 8],
  [[0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32], [[0x3fff, 0, 0, 0, 0, 0, 0, 0], 20], [[0x2001, 2, 0, 0, 0, 0, 0, 0], 48],
  [[0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48], [[0x100, 0, 0, 0, 0, 0, 0, 0], 64], [[0x4000, 0, 0, 0, 0, 0, 0, 0], 2],
  [[0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28],
];
const withPrefix = (base: number[], prefix: number, rnd: number[]) =>
  base.map((b, i) => {
    const bits = Math.max(0, Math.min(16, prefix - i * 16));
    const mask = bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
    return (b & mask) | (rnd[i] & ~mask & 0xffff);
  });
const group = fc.integer({ min: 0, max: 0xffff });
const internalV6 = fc.tuple(fc.constantFrom(...INTERNAL_V6), fc.array(group, { minLength: 8, maxLength: 8 })).map(([[b, p], r]) => withPrefix(b, p, r));
/** global unicast outside the protocol, documentation, 6to4 and AS112 blocks */
const publicV6 = fc
  .array(group, { minLength: 8, maxLength: 8 })
  .map((r) => withPrefix([0x2000, 0, 0, 0, 0, 0, 0, 0], 3, r))
  .filter((g) => !(g[0] === 0x2001 && g[1] < 0x200) && g[0] !== 0x2002 && g[0] >>> 4 !== 0x3ff && !(g[0] === 0x2620 && g[1] === 0x4f && g[2] === 0x8000));

describe('rules: every spelling', () => {
  it('refuses the addresses named in issue 33, in URLs and as DNS answers', async () => {
    const named = [
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '64:ff9b::169.254.169.254',
      '64:ff9b:1::a9fe:a9fe', // local-use NAT64
      '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
      '2002:7f00:1::1',
      '::a9fe:a9fe', // IPv4-compatible
      '::127.0.0.1',
      '::ffff:0:a9fe:a9fe', // IPv4-translated
      '::ffff:0:7f00:1',
      'fec0::1', // site-local
      '2001:0:4136:e378:8000:63bf:f5ff:fffe', // Teredo, client 10.0.0.1 (inverted), public server
      '2001:0:a00:1:8000:63bf:f7f7:f7f7', // Teredo, server 10.0.0.1
      '2001:db8::1', '3fff::1', '2001:2::1', // documentation, benchmarking
      '::ffff:192.0.2.1', '192.0.2.10', '198.51.100.7', '203.0.113.99', '198.18.0.1', '192.88.99.1', '100.64.0.1', '240.0.0.1', '255.255.255.255',
    ];
    for (const ip of named) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
      const host = ip.includes(':') ? `[${ip}]` : ip;
      const check = await checkWebhookUrl(`http://${host}/hook`, strictPolicy);
      expect(check, ip).toMatchObject({ ok: false, kind: 'refused' });
    }
  });

  it('reads odd IPv4 spellings as the address they mean (127.0.0.1 and 169.254.169.254)', async () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001', '017700000001', '127.0.1', '0251.0376.0251.0376', '0xa9.0xfe.0xa9.0xfe', '2852039166', '0XA9FEA9FE']) {
      expect(await checkWebhookUrl(`http://${host}/hook`, strictPolicy), host).toMatchObject({ ok: false, kind: 'refused' });
      expect(isForbiddenAddress(host), host).toBe(true);
    }
  });

  it('unwraps every carrier of an IPv4 address', () => {
    expect(embeddedIPv4(ipaddr.IPv6.parse('2001:0:4136:e378:8000:63bf:f5ff:fffe')).map(String)).toEqual(['65.54.227.120', '10.0.0.1']);
    expect(embeddedIPv4(ipaddr.IPv6.parse('2002:a9fe:a9fe::')).map(String)).toEqual(['169.254.169.254']);
    expect(embeddedIPv4(ipaddr.IPv6.parse('64:ff9b::a9fe:a9fe')).map(String)).toEqual(['169.254.169.254']);
  });

  it('generated: every IPv4 address is classified as the independent list says (dotted, and as a URL in any spelling)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(internalV4, publicV4, fc.integer({ min: 0, max: 0xffffffff })).chain((n) => fc.tuple(fc.constant(n), v4Spelling(n))), async ([n, spelled]) => {
        const internal = isInternalV4(n);
        expect(isForbiddenAddress(ip4(n)), ip4(n)).toBe(internal);
        const check = await checkWebhookUrl(`http://${spelled}/hook`, strictPolicy);
        if (internal) expect(check, spelled).toMatchObject({ ok: false, kind: 'refused' });
        else expect(check, spelled).toMatchObject({ ok: true, address: { address: ip4(n), family: 4 } });
      }),
      { numRuns: 1500 },
    );
  });

  it('generated: an internal IPv4 address inside any IPv6 carrier, in any spelling, is refused', async () => {
    await fc.assert(
      fc.asyncProperty(carried(internalV4), fc.boolean(), async ({ n, name, spelled }, dotted) => {
        // the mixed notation (…:a.b.c.d) where the carrier ends in the IPv4 address
        const host = dotted && !name.startsWith('teredo') && name !== '6to4' ? spelled.replace(/[0-9a-f]+:[0-9a-f]+$/i, ip4(n)) : spelled;
        expect(isForbiddenAddress(host), `${name} ${host}`).toBe(true);
        expect(await checkWebhookUrl(`http://[${host}]/hook`, strictPolicy), `${name} ${host}`).toMatchObject({ ok: false, kind: 'refused' });
      }),
      { numRuns: 1000 },
    );
  });

  it('generated: a public IPv4 address mapped, through NAT64, 6to4 or Teredo passes; the deprecated compatible and translated forms never do', async () => {
    await fc.assert(
      fc.property(carried(publicV4), ({ name, spelled }) => {
        expect(isForbiddenAddress(spelled), `${name} ${spelled}`).toBe(name === 'compatible' || name === 'translated');
      }),
      { numRuns: 1000 },
    );
  });

  it('generated: internal IPv6 blocks are refused and global unicast passes, in any spelling', async () => {
    await fc.assert(
      fc.asyncProperty(internalV6.chain(v6Spelling), async (spelled) => {
        expect(isForbiddenAddress(spelled), spelled).toBe(true);
        expect(await checkWebhookUrl(`http://[${spelled}]/hook`, strictPolicy), spelled).toMatchObject({ ok: false, kind: 'refused' });
      }),
      { numRuns: 1000 },
    );
    await fc.assert(
      fc.property(publicV6.chain(v6Spelling), (spelled) => {
        expect(isForbiddenAddress(spelled), spelled).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses the host's own interface addresses, in any form", async () => {
    vi.spyOn(os, 'networkInterfaces').mockReturnValue({
      eth0: [{ address: '8.8.4.4', netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: '8.8.4.4/24' }],
      eth1: [{ address: '2606:4700::1234', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '00:00:00:00:00:00', internal: false, cidr: '2606:4700::1234/64', scopeid: 0 }],
    });
    for (const ip of ['8.8.4.4', '::ffff:8.8.4.4', '64:ff9b::808:404', '2002:808:404::1', '2606:4700:0:0:0:0:0:1234', '2606:4700::1234']) expect(isForbiddenAddress(ip), ip).toBe(true);
    dnsAnswers({ 'me.example.test': ['8.8.4.4'] });
    expect(await checkWebhookUrl('https://me.example.test/hook', strictPolicy)).toMatchObject({ ok: false, kind: 'refused' });
    expect(isForbiddenAddress('8.8.8.8')).toBe(false);
  });

  it('refuses anything that is not an address, and names resolving to a refused address', async () => {
    for (const s of ['not-an-ip', '', 'fe80::1%eth0', '1.2.3.4.5', '::ffff:999.1.1.1']) expect(isForbiddenAddress(s), s).toBe(true);
    dnsAnswers({ 'nat64.example.test': ['64:ff9b::a9fe:a9fe'], 'mixed.example.test': ['93.184.216.34', '2001:db8::1'], 'teredo.example.test': ['2001:0:4136:e378:8000:63bf:f5ff:fffe'] });
    for (const host of ['nat64.example.test', 'mixed.example.test', 'teredo.example.test']) {
      expect(await checkWebhookUrl(`https://${host}/hook`, strictPolicy), host).toMatchObject({ ok: false, kind: 'refused' });
    }
    // allowed private networks (tests, local development) keep loopback working
    expect(await checkWebhookUrl(`http://127.0.0.1:${port}/`, { allowHttp: true, allowPrivate: true })).toMatchObject({ ok: true });
  });
});

describe('at save', () => {
  it('refuses every spelling named in issue 33 (400 on url), nothing stored', async () => {
    dnsAnswers({ 'loopback.example.test': ['127.0.0.1'], 'nat64.example.test': ['64:ff9b::a9fe:a9fe'], 'v6.example.test': ['::1'] });
    const { agent, input } = await verifiedAgent(t.app);
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[64:ff9b::a9fe:a9fe]/hook',
      'http://[2002:a9fe:a9fe::]/hook',
      'http://[::a9fe:a9fe]/hook',
      'http://[::ffff:0:a9fe:a9fe]/hook',
      'http://[fec0::1]/hook',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook',
      'http://192.0.2.1/hook',
      'http://198.51.100.1/hook',
      'http://203.0.113.1/hook',
      'http://[2001:db8::1]/hook',
      'http://2130706433/hook',
      'http://0177.0.0.1/hook',
      'http://0x7f.1/hook',
      'http://127.1/hook',
      'http://loopback.example.test/hook',
      'http://nat64.example.test/hook',
      'http://v6.example.test/hook',
    ]) {
      const res = await agent.post('/api/webhooks', { url, events: ['lead.created'], password: input.password });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual({ url: WEBHOOK_MESSAGES.refused });
    }
    expect((await agent.get('/api/webhooks')).json().endpoints).toEqual([]);
  });

  it('refuses "localhost" through the real resolver', async () => {
    const { agent, input } = await verifiedAgent(t.app);
    const res = await agent.post('/api/webhooks', { url: `http://localhost:${port}/hook`, events: ['lead.created'], password: input.password });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url).toBe(WEBHOOK_MESSAGES.refused);
  });

  it('accepts only https:// without WEBHOOK_ALLOW_HTTP', async () => {
    const { agent, input } = await verifiedAgent(strict.app);
    const res = await agent.post('/api/webhooks', { url: 'http://93.184.216.34/hook', events: ['lead.created'], password: input.password });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url).toBe(WEBHOOK_MESSAGES.url);
    expect((await agent.post('/api/webhooks', { url: 'https://127.0.0.1/hook', events: ['lead.created'], password: input.password })).statusCode).toBe(400);
  });
});

describe('at delivery', () => {
  it('refuses a stored endpoint whose address is not allowed: generic reason in the log, details in the server log', async () => {
    dnsAnswers({ 'rebound.example.test': ['64:ff9b::a9fe:a9fe'] });
    const info = vi.spyOn(t.app.log, 'info');
    const before = hits;
    for (const url of [`http://[::ffff:7f00:1]:${port}/hook`, `http://[2002:7f00:1::]:${port}/hook`, `http://rebound.example.test:${port}/hook`]) {
      const { deliveryId } = await queuedDelivery(t.app, url);
      const row = await attemptOnce(t.app, deliveryId);
      expect(row, url).toMatchObject({ status: 'pending', responseStatus: null, lastError: DELIVERY_ERRORS.refused });
      const logged = info.mock.calls.find(([o]) => Number((o as { deliveryId?: number | string }).deliveryId) === deliveryId);
      expect(logged, url).toBeTruthy();
      expect(String((logged![0] as { detail?: string }).detail), url).toMatch(/not a public address/);
    }
    expect(hits).toBe(before); // the loopback receiver was never reached
  });

  it('DNS rebinding: resolves once per attempt and connects only to the checked address, with the original Host header', async () => {
    // two receivers on one port: 127.0.0.1 answers the first resolution, 127.0.0.2 any later one
    const seen: Array<{ at: string; host: string | undefined }> = [];
    const make = (at: string) =>
      http.createServer((req, res) => {
        seen.push({ at, host: req.headers.host });
        req.resume();
        res.end('ok');
      });
    const first = make('127.0.0.1');
    await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
    const p = (first.address() as AddressInfo).port;
    const second = make('127.0.0.2');
    const secondUp = await new Promise<boolean>((r) => second.once('error', () => r(false)).listen(p, '127.0.0.2', () => r(true)));
    try {
      const calls = dnsAnswers({ 'rebind.example.test': [['127.0.0.1'], ['127.0.0.2']] });
      const { deliveryId } = await queuedDelivery(open.app, `http://rebind.example.test:${p}/hook`);
      const row = await attemptOnce(open.app, deliveryId);
      expect(row.status).toBe('delivered');
      expect(calls).toEqual(['rebind.example.test']); // one resolution; the operating system's resolver knows no such name
      expect(seen).toEqual([{ at: '127.0.0.1', host: `rebind.example.test:${p}` }]);
      if (secondUp) {
        // the next delivery resolves again and goes where that answer says: no kept-alive socket to the old address
        const next = await queuedDelivery(open.app, `http://rebind.example.test:${p}/hook`);
        expect((await attemptOnce(open.app, next.deliveryId)).status).toBe('delivered');
        expect(calls).toEqual(['rebind.example.test', 'rebind.example.test']);
        expect(seen.map((s) => s.at)).toEqual(['127.0.0.1', '127.0.0.2']);
      }
    } finally {
      await new Promise<void>((r) => first.close(() => r()));
      if (second.listening) await new Promise<void>((r) => second.close(() => r()));
    }
  });

  it('the log shows "could not connect", "timed out", "TLS failed", "HTTP 500": never an error code', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const silent = http.createServer(() => {}); // never answers
    const broken = http.createServer((req, res) => {
      req.resume();
      res.statusCode = 500;
      res.end('stack trace of the receiver');
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    try {
      const info = vi.spyOn(open.app.log, 'info');
      const cases: Array<[string, string, RegExp]> = [
        [`http://127.0.0.1:${closedPort}/`, DELIVERY_ERRORS.connect, /ECONNREFUSED/],
        [`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, DELIVERY_ERRORS.timeout, /no answer/],
        [`https://127.0.0.1:${(broken.address() as AddressInfo).port}/`, DELIVERY_ERRORS.tls, /SSL|TLS|EPROTO/i],
        [`http://127.0.0.1:${(broken.address() as AddressInfo).port}/`, 'HTTP 500', /.*/],
        ['http://nowhere.example.test/', DELIVERY_ERRORS.connect, /ENOTFOUND/],
      ];
      dnsAnswers({});
      for (const [url, shown, detail] of cases) {
        const { deliveryId } = await queuedDelivery(open.app, url);
        const row = await attemptOnce(open.app, deliveryId);
        expect(row.lastError, url).toBe(shown);
        const logged = info.mock.calls.find(([o]) => Number((o as { deliveryId?: number | string }).deliveryId) === deliveryId);
        expect(String((logged?.[0] as { detail?: string } | undefined)?.detail ?? ''), url).toMatch(detail);
      }
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
      await new Promise<void>((r) => broken.close(() => r()));
    }
  });

  it('maps error codes to the generic reasons', () => {
    expect(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', undefined].map(deliveryErrorOf)).toEqual(Array(6).fill(DELIVERY_ERRORS.connect));
    expect(['ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'EPROTO', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_SSL_WRONG_VERSION_NUMBER'].map(deliveryErrorOf)).toEqual(Array(6).fill(DELIVERY_ERRORS.tls));
    expect(deliveryErrorOf('ETIMEDOUT')).toBe(DELIVERY_ERRORS.timeout);
  });

  it('postPinned: a name no resolver knows is reached through the pinned address', async () => {
    const before = hits;
    const r = await postPinned(new URL(`http://pinned.invalid:${port}/x`), { address: '127.0.0.1', family: 4 }, {}, '{}', 2000);
    expect(r).toMatchObject({ ok: true, status: 200, error: null });
    expect(hits).toBe(before + 1);
  });

  it('backs off 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then 4 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(webhookBackoffSeconds)).toEqual([10, 30, 120, 600, 1800, 3600, 7200, 14400, 14400, 14400]);
  });
});
