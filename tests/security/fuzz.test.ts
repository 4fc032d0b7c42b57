import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { bodyKeys, collectRoutes, concreteUrl, STATE_CHANGING, type RecordedRoute } from '#tests/helpers/route-table';
import { filesUnder, installWriteCounter } from '#tests/helpers/db-snapshot';
import { exampleOf } from '#tests/helpers/zod-example';
import { hostileBody, hostileParam, hostileString, hostileValue } from './hostile';

/**
 * Property-based fuzzing of EVERY registered route (collected at start-up, so routes added later
 * are covered without edits). State-changing routes get hostile bodies of two kinds: anything at
 * all, and a VALID body (made from the route's zod schema) with one or two fields replaced by
 * hostile values, which reaches past validation into the services. GET routes get hostile path
 * parameters and query strings. Never a 500 or a stack trace; a refused request (4xx) writes
 * nothing: no row inserted, updated or deleted in any table (rate-limit counters aside), no file
 * stored.
 */
const table = collectRoutes();
// the same engine runs under both projects: PostgreSQL gets a lighter pass (PGlite the full one)
const RUNS_BODY = Number(process.env.FUZZ_RUNS ?? (process.env.TEST_DB_KIND === 'postgres' ? 10 : 30));
const RUNS_QUERY = Math.max(5, Math.round(RUNS_BODY / 3));
const DEBUG = !!process.env.FUZZ_DEBUG;

const SKIP = new Set<string>([
  'GET /metrics', // its own suite (src/server/plugins/metrics.test.ts)
]);

let t: TestApp;
let writes: () => Promise<number>;
const agents: Partial<Record<'user' | 'admin', Agent>> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  // something for ":id" parameters to find: an order (id 1) and a review
  await new Agent(t.app).post('/api/order', orderInput());
  await new Agent(t.app).post('/api/reviews', { customerName: 'Ada Lovelace', email: 'ada@example.com', rating: 5, title: 'Lovely card', comment: 'Heavy, sharp and beautifully engraved.' });
  writes = await installWriteCounter(t.app);
});
afterAll(async () => {
  await t.close();
});

/** A signed-in agent of the right kind, replaced when a fuzzed call signed it out (logout, etc.). */
async function agentFor(access: RecordedRoute['access']): Promise<Agent> {
  if (access !== 'user' && access !== 'admin') return new Agent(t.app);
  const current = agents[access];
  if (current && (await current.get('/api/auth/user')).statusCode === 200) return current;
  const fresh = access === 'admin' ? (await adminAgent(t.app)).agent : (await signedInAgent(t.app)).agent;
  // with a profile, the profile routes reach past "create your profile first"
  await fresh.post('/api/profile', { fullName: 'Fuzz Owner', jobTitle: 'Tester' });
  agents[access] = fresh;
  return fresh;
}

const STACK = /\bat [\w.<>]+ \(|node_modules|\/src\/server\/|Error: .*\n\s+at /;

function problemsOf(res: { statusCode: number; body: string }, what: string): string[] {
  const out: string[] = [];
  if (res.statusCode >= 500) out.push(`${what} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
  if (STACK.test(res.body)) out.push(`${what} -> stack trace in answer`);
  return out;
}

// short payloads appended to valid text, so the result often still passes validation and reaches
// the services, the database, the e-mails, the contact files and the CSV exports
const TAILS = ["<script>alert(1)</script>", "' OR 1=1 --", "=cmd|' /C calc'!A0", '\r\nBcc: x@evil.example', '{{7*7}}', '\u0000', '😀', '../../etc/passwd', '"><img src=x onerror=alert(1)>', '; DROP TABLE users'];

/** A valid body with one or two fields made hostile (replaced, or valid text with a hostile tail). */
function mutatedBody(seed: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(seed);
  if (!keys.length) return hostileValue.map((v) => JSON.stringify({ extra: v }));
  const replaced = fc
    .tuple(fc.subarray(keys, { minLength: 1, maxLength: Math.min(2, keys.length) }), fc.array(fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: hostileValue }), { minLength: 2, maxLength: 2 }))
    .map(([chosen, values]) => JSON.stringify({ ...seed, ...Object.fromEntries(chosen.map((k, i) => [k, values[i]])) }));
  const textKeys = keys.filter((k) => typeof seed[k] === 'string');
  if (!textKeys.length) return replaced;
  const tailed = fc
    .tuple(fc.constantFrom(...textKeys), fc.constantFrom(...TAILS))
    .map(([k, tail]) => JSON.stringify({ ...seed, [k]: `${String(seed[k]).slice(0, 40)} ${tail}` }));
  return fc.oneof({ weight: 2, arbitrary: replaced }, { weight: 2, arbitrary: tailed }, { weight: 1, arbitrary: fc.constant(JSON.stringify(seed)) });
}

async function fuzzRoute(r: RecordedRoute): Promise<string[]> {
  const agent = await agentFor(r.access);
  const filesDir = path.join(t.dataDir, 'files');
  const problems: string[] = [];
  const hasParams = /[:*]/.test(r.url);
  const statuses = new Map<number, number>();

  if (STATE_CHANGING.has(r.method)) {
    const seed = exampleOf(r.body);
    const bodies =
      seed && typeof seed === 'object' && !Array.isArray(seed)
        ? fc.oneof({ weight: 1, arbitrary: hostileBody(bodyKeys(r.body)) }, { weight: 2, arbitrary: mutatedBody(seed as Record<string, unknown>) })
        : hostileBody(bodyKeys(r.body));
    await fc
      .assert(
        fc.asyncProperty(bodies, fc.option(hostileParam, { nil: undefined, freq: 3 }), async (body, param) => {
          const url = concreteUrl(r.url, () => (hasParams && param !== undefined ? param : '1'));
          const [w0, f0] = [await writes(), filesUnder(filesDir).length];
          const res = await agent.request(r.method, url, body);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const what = `${r.method} ${r.url} <- ${url.slice(0, 60)} ${body.slice(0, 160)}`;
          const found = problemsOf(res, what);
          if (res.statusCode >= 400 && res.statusCode < 500) {
            const w = (await writes()) - w0;
            if (w) found.push(`${what} -> ${res.statusCode} ${res.body.slice(0, 80)} but ${w} row(s) were written`);
            if (filesUnder(filesDir).length !== f0) found.push(`${what} -> ${res.statusCode} but a file was stored`);
          }
          problems.push(...found);
          return found.length === 0;
        }),
        { numRuns: RUNS_BODY, endOnFailure: true },
      )
      .catch((err: Error) => {
        // a property that threw (rather than returned false) is a problem too
        if (!problems.length) problems.push(`${r.method} ${r.url} <- threw: ${String(err.message).slice(0, 300)}`);
      });
  } else {
    const query = fc.dictionary(
      fc.oneof(hostileString.filter((s) => s.length < 200), fc.constantFrom('id', 'page', 'limit', 'search', 'status', 'v', 'preview', 'from', 'to')),
      hostileString.filter((s) => s.length < 2000),
      { maxKeys: 3 },
    );
    await fc
      .assert(
        fc.asyncProperty(query, fc.option(hostileParam, { nil: undefined, freq: 3 }), async (q, param) => {
          const url = concreteUrl(r.url, () => (hasParams && param !== undefined ? param : '1'));
          const qs = new URLSearchParams(q as Record<string, string>).toString();
          const full = qs ? `${url}?${qs}` : url;
          const res = await agent.request(r.method, full);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const found = problemsOf(res, `${r.method} ${r.url} <- ${full.slice(0, 160)}`);
          problems.push(...found);
          return found.length === 0;
        }),
        { numRuns: RUNS_QUERY, endOnFailure: true },
      )
      .catch((err: Error) => {
        // a property that threw (rather than returned false) is a problem too
        if (!problems.length) problems.push(`${r.method} ${r.url} <- threw: ${String(err.message).slice(0, 300)}`);
      });
  }
  if (DEBUG) console.log(`${r.method} ${r.url} ${JSON.stringify([...statuses].sort())}`);
  return problems;
}

describe('fuzzing every registered route with hostile input', () => {
  it('found the route table and can make valid bodies from the route schemas', () => {
    const list = table.routes();
    expect(list.length).toBeGreaterThan(20);
    const login = list.find((r) => r.method === 'POST' && r.url === '/api/auth/login');
    expect(login?.body).toBeTruthy();
    expect(login!.body!.safeParse(exampleOf(login!.body)).success).toBe(true);
    // every route states its answers (the app checks each answer against them: a broken contract is a 500 here)
    expect(list.filter((r) => !r.response && !SKIP.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    // and its path parameters with a zod schema (no TypeScript-only generics)
    expect(list.filter((r) => /[:*]/.test(r.url) && !r.params).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('never answers 500 or a stack trace, and a 4xx writes nothing', { timeout: 300_000 }, async () => {
    const routes = table.routes().filter((r) => !SKIP.has(`${r.method} ${r.url}`));
    const problems: string[] = [];
    for (const r of routes) {
      const started = Date.now();
      problems.push(...(await fuzzRoute(r)));
      if (DEBUG) console.log(`${Date.now() - started} ms ${r.method} ${r.url}`);
    }
    // the first problem per route is enough to act on
    const firstPerRoute = [...new Map(problems.map((p) => [p.split(' <- ')[0], p])).values()];
    expect(firstPerRoute).toEqual([]);
  });
});
