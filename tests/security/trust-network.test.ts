import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { loadConfig } from '#server/env';
import { clientAddress, clientKey } from '#server/infra/rate-limit';

/**
 * Issue 33 (decision 33-02): per-address limits hold behind a proxy. TRUST_PROXY names the proxies
 * (a number of hops, or their addresses/CIDRs), never "any"; the limit counts the rightmost address
 * no trusted proxy vouches for, so whatever a client writes into X-Forwarded-For (left of what its
 * proxy appends) changes nothing. With TRUST_PROXY unset the header is not read at all. With an
 * https PUBLIC_URL a state-changing call must come from exactly that origin.
 */

let byHops: TestApp; // TRUST_PROXY=1
let byList: TestApp; // TRUST_PROXY=10.0.0.0/8,127.0.0.1
let direct: TestApp; // TRUST_PROXY unset
beforeAll(async () => {
  byHops = await createTestApp({ env: { TRUST_PROXY: '1' } });
  byList = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8,127.0.0.1' } });
  direct = await createTestApp();
});
afterAll(async () => {
  await byHops?.close();
  await byList?.close();
  await direct?.close();
});

// ---- what a client may write into X-Forwarded-For ----

const octet = fc.integer({ min: 0, max: 255 });
const v4 = fc.tuple(octet, octet, octet, octet).map((p) => p.join('.'));
const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const v6 = fc.array(group, { minLength: 8, maxLength: 8 }).map((g) => g.join(':'));
/** one forged entry: an address in several spellings, IPv6, bracketed, with a port, or garbage */
const forgedEntry = fc.oneof(
  v4,
  v6,
  v4.map((a) => `::ffff:${a}`),
  v6.map((a) => `[${a}]`),
  fc.tuple(v4, fc.integer({ min: 1, max: 65535 })).map(([a, p]) => `${a}:${p}`),
  fc.integer({ min: 0, max: 0xffffffff }).map(String), // a decimal IPv4
  fc.constantFrom('unknown', '', ' ', 'for=1.2.3.4', '127.0.0.1', '::1', '10.0.0.1', 'localhost', '999.1.1.1', '"><script>', '%00'),
  fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);
/** what the client sends: none, one, or many comma-separated entries in one or several header lines */
const forged = fc.array(forgedEntry, { minLength: 0, maxLength: 5 });

let clientSeq = 0;
/** a fresh public client address per run (its own counters) */
const nextClient = () => {
  clientSeq++;
  return `93.${(clientSeq >> 8) & 255}.${clientSeq & 255}.${((clientSeq * 7) % 250) + 1}`;
};
/** a fresh IPv6 client network per run; the client may use any address of its /64 */
const nextClient6 = (iid: string) => {
  clientSeq++;
  return `2a01:${(clientSeq & 0xffff).toString(16)}:7:9:${iid}`;
};

type Send = (headers: Record<string, string>, remoteAddress: string) => Promise<number>;
const login =
  (t: TestApp): Send =>
  async (headers, remoteAddress) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, headers, payload: { email: 'nobody@example.com', password: 'guess-guess' } })).statusCode;
const subscribe =
  (t: TestApp): Send =>
  async (headers, remoteAddress) =>
    (await t.app.inject({ method: 'POST', url: '/api/subscribe', remoteAddress, headers, payload: { email: `s${clientSeq}@example.com` } })).statusCode;

const LIMITS = [
  { name: 'login, 10 per 3 min', send: login, limit: 10, ok: 401 },
  { name: 'public form (subscribe), 5 per minute', send: subscribe, limit: 5, ok: 200 },
] as const;

/** limit + 2 requests, each with its own forged entries; the statuses */
async function burst(send: Send, limit: number, header: (forgedEntries: string[], i: number) => string, remoteAddress: string, forgeries: string[][]) {
  const out: number[] = [];
  for (let i = 0; i < limit + 2; i++) out.push(await send({ 'x-forwarded-for': header(forgeries[i % forgeries.length], i) }, remoteAddress));
  return out;
}
const expected = (limit: number, ok: number) => [...Array(limit).fill(ok), 429, 429];

describe('settings', () => {
  const base = { LOG_LEVEL: 'silent', NODE_ENV: 'test' };
  it('refuses a blanket "true" at start-up, pointing to the README', () => {
    for (const v of ['true', 'TRUE', 'yes', 'on', '*']) expect(() => loadConfig({ ...base, TRUST_PROXY: v }), v).toThrow(/TRUST_PROXY[\s\S]*README\.md, "Behind a proxy"/);
  });
  it('takes a number of hops or a list of addresses/CIDRs; unset, empty or false is off', () => {
    expect(loadConfig({ ...base }).TRUST_PROXY).toBe(false);
    for (const v of ['', 'false', '0', 'no']) expect(loadConfig({ ...base, TRUST_PROXY: v }).TRUST_PROXY, v).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8,loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback']);
  });
  it('refuses anything else with a clear message', () => {
    for (const v of ['11', 'proxy.example.com', '10.0.0.0/99', '10.0.0.0/8,nonsense', ',', '0x7f.1', 'true,10.0.0.1']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: v }), v).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('one address function', () => {
  it('counts an IPv4 caller by its address in any form, an IPv6 caller by its /64, garbage as one "unknown"', () => {
    expect(clientKey({ ip: '::ffff:93.184.216.34' })).toBe('93.184.216.34');
    expect(clientKey({ ip: '2A01:DB8:0001:0002:aaaa::1' })).toBe('2a01:db8:1:2::/64');
    expect(clientKey({ ip: '2a01:db8:1:2:ffff:ffff:ffff:ffff' })).toBe('2a01:db8:1:2::/64');
    expect(clientAddress({ ip: '2a01:db8:1:2:0:0:0:1' })).toBe('2a01:db8:1:2::1');
    for (const ip of ['', 'unknown', 'not an address', '"><script>']) expect(clientKey({ ip }), ip).toBe('unknown');
  });
});

describe('TRUST_PROXY=1: the proxy appends the real client; the limit keys on the rightmost entry', () => {
  for (const { name, send, limit, ok } of LIMITS) {
    it(`${name}: rotated forged X-Forwarded-For (several entries, spellings, IPv6, garbage) never escapes it`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(forged, { minLength: limit + 2, maxLength: limit + 2 }), async (forgeries) => {
          const client = nextClient();
          const statuses = await burst(send(byHops), limit, (f) => [...f, client].join(', '), '10.1.2.3', forgeries);
          expect(statuses, client).toEqual(expected(limit, ok));
        }),
        { numRuns: 6 },
      );
    });
  }

  it('an IPv6 client rotating through its own /64 (the proxy appends each address) shares one count', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(group, group, group, group).map((g) => g.join(':')), { minLength: 12, maxLength: 12 }), forged, async (iids, f) => {
        const net = nextClient6('0:0:0:0');
        const statuses: number[] = [];
        for (const iid of iids) statuses.push(await login(byHops)({ 'x-forwarded-for': [...f, net.replace(/0:0:0:0$/, iid)].join(',') }, '10.1.2.3'));
        expect(statuses).toEqual(expected(10, 401));
      }),
      { numRuns: 3 },
    );
  });
});

describe('TRUST_PROXY=10.0.0.0/8,127.0.0.1: trusted proxies are skipped from the right', () => {
  for (const { name, send, limit, ok } of LIMITS) {
    it(`${name}: forged entries left of the client, trusted hops right of it, never escape it`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(forged, { minLength: limit + 2, maxLength: limit + 2 }), fc.array(fc.constantFrom('10.0.0.7', '10.200.1.1', '127.0.0.1'), { maxLength: 2 }), async (forgeries, hops) => {
          const client = nextClient();
          const statuses = await burst(send(byList), limit, (f) => [...f, client, ...hops].join(', '), '10.9.8.7', forgeries);
          expect(statuses, client).toEqual(expected(limit, ok));
        }),
        { numRuns: 6 },
      );
    });
  }

  it('a caller that is not one of the proxies is counted by its own address, whatever it forwards', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(forged, { minLength: 12, maxLength: 12 }), async (forgeries) => {
        const caller = nextClient();
        const statuses = await burst(login(byList), 10, (f) => f.join(', ') || '203.0.113.9', caller, forgeries);
        expect(statuses).toEqual(expected(10, 401));
      }),
      { numRuns: 3 },
    );
  });
});

describe('TRUST_PROXY unset: X-Forwarded-For is ignored', () => {
  for (const { name, send, limit, ok } of LIMITS) {
    it(`${name}: counted by the peer address`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(forged, { minLength: limit + 2, maxLength: limit + 2 }), async (forgeries) => {
          const peer = nextClient();
          const statuses = await burst(send(direct), limit, (f, i) => [...f, nextClient(), `93.0.0.${i}`].join(', '), peer, forgeries);
          expect(statuses).toEqual(expected(limit, ok));
        }),
        { numRuns: 4 },
      );
    });
  }
});

describe('Origin check with an https PUBLIC_URL', () => {
  let site: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    site = await createTestApp({ env: { PUBLIC_URL: 'https://cards.example', RATE_LIMITS: 'off' } });
    plain = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await site?.close();
    await plain?.close();
  });
  const post = (t: TestApp, origin: string, host = 'cards.example') =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin, host }, payload: { email: 'nobody@example.com', password: 'guess-guess' } });

  it('accepts exactly that origin; http:// of the same host, another port or another host get 403', async () => {
    expect((await post(site, 'https://cards.example')).statusCode).toBe(401);
    for (const origin of ['http://cards.example', 'http://cards.example:443', 'https://cards.example:8443', 'https://www.cards.example', 'https://evil.example', 'null']) {
      const res = await post(site, origin);
      expect(res.statusCode, origin).toBe(403);
      expect(res.json().message, origin).toBe('Cross-site request refused');
    }
    // the request addressed to a plain-http host name of the same site is refused too
    expect((await post(site, 'http://localhost', 'localhost')).statusCode).toBe(403);
  });

  it('without PUBLIC_URL keeps the rule of the address the request came to', async () => {
    expect((await post(plain, 'http://cards.example')).statusCode).toBe(401);
    expect((await post(plain, 'https://evil.example')).statusCode).toBe(403);
  });
});
