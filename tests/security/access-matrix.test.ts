import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent, verifiedAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { collectRoutes, concreteUrl, STATE_CHANGING, type RecordedRoute } from '#tests/helpers/route-table';
import { installWriteCounter } from '#tests/helpers/db-snapshot';
import { exampleOf } from '#tests/helpers/zod-example';
import { SoftAuthenticator } from '#tests/helpers/soft-authenticator';

/**
 * The access matrix over EVERY registered route (collected at start-up, so routes added later
 * are covered), from its declared `config.access`, for four callers: anonymous, a user, ANOTHER
 * user, an admin. On top of the guards, another user's data must never show through: the other
 * user's ids (harvested from the owner's own answers) are tried in every parameter of every
 * signed-in route, and the owner's private e-mail must never appear in anyone else's answer.
 */
const table = collectRoutes();
const SKIP = (r: RecordedRoute) => r.url === '/metrics' || r.url.startsWith('/files/') || r.url === '*' || r.url === '/*';

let t: TestApp;
let anon: Agent;
let owner: Agent;
let other: Agent;
let admin: Agent;
let ownerEmail: string;
let ownerIds: string[] = [];
let writes: () => Promise<number>;

/** Every id-like value in a JSON answer (keys id, code, token, *Id). */
function harvestIds(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) harvestIds(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((typeof v === 'string' || typeof v === 'number') && /^(id|code|token|slug)$|Id$/.test(k) && String(v).length < 100) out.add(String(v));
      else harvestIds(v, out);
    }
  }
  return out;
}

async function idsSeenBy(agent: Agent, routes: RecordedRoute[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const r of routes) {
    const res = await agent.get(r.url);
    if (res.statusCode === 200 && String(res.headers['content-type']).includes('json')) harvestIds(res.json(), ids);
  }
  return ids;
}

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  anon = new Agent(t.app);
  const tag = crypto.randomBytes(4).toString('hex');
  ownerEmail = `owner_private_${tag}@example.com`;
  const o = await verifiedAgent(t.app, { email: ownerEmail, username: `owner_${tag}` });
  owner = o.agent;
  other = (await signedInAgent(t.app)).agent;
  admin = (await adminAgent(t.app)).agent;
  // the owner's things: a profile (public contact e-mail differs from the private account e-mail),
  // a link, an order placed while signed in; features that land later add theirs to the answers
  const created = await owner.post('/api/profile', {
    fullName: 'Owner Person',
    jobTitle: 'Owner',
    email: `public_${tag}@example.com`,
    links: [{ linkType: 'website', url: 'https://example.com/owner' }],
  });
  expect(created.statusCode).toBe(201);
  await owner.post('/api/order', orderInput({ email: ownerEmail }));
  await owner.put('/api/profile/lead-form', { enabled: true });
  expect((await owner.post('/api/webhooks', { url: 'https://93.184.216.34/owner-hook', events: ['card.rejected'], password: o.input.password })).statusCode).toBe(201);
  // a passkey (issue 39): its id is tried by the other user and by anonymous callers on every route
  const passkeyOptions = (await owner.post('/api/account/passkeys/options')).json().options;
  const passkey = await owner.post('/api/account/passkeys', { name: 'Owner key', credential: new SoftAuthenticator('http://localhost').create(passkeyOptions) });
  expect(passkey.statusCode).toBe(201);
  await other.post('/api/profile', { fullName: 'Other Person' });

  const userGets = table.routes().filter((r) => r.method === 'GET' && r.access === 'user' && !/[:*]/.test(r.url));
  const mine = await idsSeenBy(owner, userGets);
  const theirs = await idsSeenBy(other, userGets);
  ownerIds = [...mine].filter((id) => !theirs.has(id));
  writes = await installWriteCounter(t.app);
});
afterAll(async () => {
  await t.close();
});

const bodyFor = (r: RecordedRoute) => (STATE_CHANGING.has(r.method) ? (exampleOf(r.body) ?? {}) : undefined);

describe('access matrix: anonymous, user, other user, admin on every route', () => {
  it('collected the route table and the owner has ids to steal', () => {
    expect(table.routes().length).toBeGreaterThan(20);
    expect(ownerIds.length).toBeGreaterThan(0);
    if (process.env.ACCESS_DEBUG) console.log(ownerIds);
  });

  it('signed-in routes answer 401 to anonymous callers, admin routes 403 to users, before any input is read', async () => {
    const failures: string[] = [];
    for (const r of table.routes().filter((x) => !SKIP(x) && (x.access === 'user' || x.access === 'admin'))) {
      const url = concreteUrl(r.url);
      const a = await anon.request(r.method, url, bodyFor(r));
      if (a.statusCode !== 401) failures.push(`${r.method} ${r.url} anonymous: ${a.statusCode}`);
      if (r.access === 'admin') {
        for (const [who, agent] of [
          ['user', owner],
          ['other user', other],
        ] as const) {
          const res = await agent.request(r.method, url, bodyFor(r));
          if (res.statusCode !== 403) failures.push(`${r.method} ${r.url} ${who}: ${res.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('every caller the route admits gets past the guard (no 401/403) and never a 500', async () => {
    const failures: string[] = [];
    const admitted = (r: RecordedRoute): Array<[string, Agent]> =>
      r.access === 'admin' ? [['admin', admin]] : r.access === 'user' ? [['user', other], ['admin', admin]] : [['anonymous', anon], ['user', other]];
    for (const r of table.routes().filter((x) => !SKIP(x) && !/logout|revoke|account$/.test(x.url))) {
      for (const [who, agent] of admitted(r)) {
        const res = await agent.request(r.method, concreteUrl(r.url), bodyFor(r));
        // public routes may refuse on their own terms (e.g. "who am I" signed out), never with a 500
        if (res.statusCode >= 500) failures.push(`${r.method} ${r.url} ${who}: ${res.statusCode}`);
        if (r.access !== 'public' && (res.statusCode === 401 || res.statusCode === 403)) failures.push(`${r.method} ${r.url} ${who}: ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("another user (or anyone) trying the owner's ids gets nothing of the owner's and changes nothing", async () => {
    const failures: string[] = [];
    const routes = table.routes().filter((r) => !SKIP(r) && /[:*]/.test(r.url) && r.access !== 'admin');
    for (const r of routes) {
      for (const id of ownerIds.slice(0, 8)) {
        const url = concreteUrl(r.url, (name) => (name === 'side' ? 'front' : id));
        for (const [who, agent] of [
          ['other user', other],
          ['anonymous', anon],
        ] as const) {
          const before = await writes();
          const res = await agent.request(r.method, url, bodyFor(r));
          const text = res.rawPayload.toString('latin1');
          if (text.includes(ownerEmail)) failures.push(`${r.method} ${url} (${who}) shows the owner's private e-mail`);
          if (r.access === 'user' && STATE_CHANGING.has(r.method) && who === 'other user') {
            if (res.statusCode < 400) failures.push(`${r.method} ${url} (${who}) answered ${res.statusCode} on the owner's id`);
            if ((await writes()) !== before) failures.push(`${r.method} ${url} (${who}) wrote to the database on the owner's id`);
          }
        }
      }
    }
    // and no route without parameters shows the owner's e-mail to another user or to anonymous
    for (const r of table.routes().filter((x) => !SKIP(x) && x.method === 'GET' && !/[:*]/.test(x.url) && x.access !== 'admin')) {
      for (const [who, agent] of [
        ['other user', other],
        ['anonymous', anon],
      ] as const) {
        const res = await agent.get(r.url);
        if (res.rawPayload.toString('latin1').includes(ownerEmail)) failures.push(`GET ${r.url} (${who}) shows the owner's private e-mail`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("the owner's own answers do carry the marker (the leak check can see it)", async () => {
    const res = await owner.get('/api/auth/user');
    expect(res.body).toContain(ownerEmail);
  });
});
