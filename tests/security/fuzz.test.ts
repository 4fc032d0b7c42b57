import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { bodyKeys, collectRoutes, concreteUrl, STATE_CHANGING, type RecordedRoute } from '#tests/helpers/route-table';
import { diffCounts, filesUnder, rowCounts } from '#tests/helpers/db-snapshot';
import { hostileBody, hostileParam, hostileString } from './hostile';

/**
 * Property-based fuzzing of EVERY registered route (found at start-up, so routes added later are
 * covered without edits): random and hostile JSON bodies, path parameters and query strings.
 * Never a 500, never a stack trace, and a refused request (4xx) writes nothing: the row count of
 * every table (rate-limit counters aside) and the stored files are unchanged.
 */
const table = collectRoutes();
const RUNS_BODY = Number(process.env.FUZZ_RUNS ?? 30);
const RUNS_QUERY = Math.max(5, Math.round(RUNS_BODY / 2));

// routes that talk to the outside world or are covered elsewhere
const SKIP = new Set<string>([
  'GET /metrics', // its own suite (plugins/metrics.test.ts)
]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await t.close();
});

async function agentFor(access: RecordedRoute['access']): Promise<Agent> {
  if (access === 'admin') return (await adminAgent(t.app)).agent;
  if (access === 'user') return (await signedInAgent(t.app)).agent;
  return new Agent(t.app);
}

const STACK = /\bat [\w.<>]+ \(|node_modules|\/src\/server\/|Error: .*\n\s+at /;

function problemsOf(res: { statusCode: number; body: string }, what: string): string[] {
  const out: string[] = [];
  if (res.statusCode >= 500) out.push(`${what} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
  if (STACK.test(res.body)) out.push(`${what} -> stack trace in answer`);
  return out;
}

async function fuzzRoute(r: RecordedRoute): Promise<string[]> {
  const agent = await agentFor(r.access);
  const filesDir = path.join(t.dataDir, 'files');
  const problems: string[] = [];
  const hasParams = /[:*]/.test(r.url);
  const keys = bodyKeys(r.body);
  const statuses = new Map<number, number>();

  if (STATE_CHANGING.has(r.method)) {
    await fc.assert(
      fc.asyncProperty(hostileBody(keys), fc.option(hostileParam, { nil: undefined }), async (body, param) => {
        const url = concreteUrl(r.url, () => (hasParams && param !== undefined ? param : '1'));
        const [beforeRows, beforeFiles] = [await rowCounts(t.app), filesUnder(filesDir)];
        const res = await agent.request(r.method, url, body);
        if (process.env.FUZZ_DEBUG) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const what = `${r.method} ${url.slice(0, 80)} body ${body.slice(0, 120)}`;
        const found = problemsOf(res, what);
        if (res.statusCode >= 400 && res.statusCode < 500) {
          const changed = diffCounts(beforeRows, await rowCounts(t.app));
          const afterFiles = filesUnder(filesDir);
          if (changed.length) found.push(`${what} -> ${res.statusCode} but rows changed: ${changed.join(', ')}`);
          if (afterFiles.length !== beforeFiles.length) found.push(`${what} -> ${res.statusCode} but a file was written`);
        }
        problems.push(...found);
        return found.length === 0;
      }),
      { numRuns: RUNS_BODY, endOnFailure: true },
    ).catch(() => undefined);
  } else {
    const query = fc.dictionary(fc.oneof(hostileString.filter((s) => s.length < 200), fc.constantFrom('id', 'page', 'limit', 'search', 'status', 'v', 'preview')), hostileString.filter((s) => s.length < 2000), {
      maxKeys: 3,
    });
    await fc.assert(
      fc.asyncProperty(query, fc.option(hostileParam, { nil: undefined }), async (q, param) => {
        const url = concreteUrl(r.url, () => (hasParams && param !== undefined ? param : '1'));
        const qs = new URLSearchParams(q as Record<string, string>).toString();
        const full = qs ? `${url}?${qs}` : url;
        const res = await agent.request(r.method, full);
        const found = problemsOf(res, `${r.method} ${full.slice(0, 160)}`);
        problems.push(...found);
        return found.length === 0;
      }),
      { numRuns: RUNS_QUERY, endOnFailure: true },
    ).catch(() => undefined);
  }
  if (process.env.FUZZ_DEBUG && statuses.size) console.log(r.method, r.url, keys.join(','), JSON.stringify([...statuses]));
  return problems;
}

describe('fuzzing every registered route with hostile input', () => {
  it('found the route table (the collector works)', () => {
    const list = table.routes();
    expect(list.length).toBeGreaterThan(20);
    expect(list.some((r) => r.method === 'POST' && r.url === '/api/auth/login' && r.body)).toBe(true);
  });

  it('never answers 500 or a stack trace, and a 4xx writes nothing (JSON bodies, params, query strings)', { timeout: 240_000 }, async () => {
    const routes = table.routes().filter((r) => !SKIP.has(`${r.method} ${r.url}`));
    const problems: string[] = [];
    for (const r of routes) {
      const started = Date.now();
      problems.push(...(await fuzzRoute(r)));
      if (process.env.FUZZ_DEBUG) console.log(`${Date.now() - started} ms ${r.method} ${r.url}`);
    }
    // first problem per route is enough to act on
    const firstPerRoute = [...new Map(problems.map((p) => [p.split(' -> ')[0].split(' body ')[0].replace(/\?.*$/, ''), p])).values()];
    expect(firstPerRoute).toEqual([]);
  });
});
