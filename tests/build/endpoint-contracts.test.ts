import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '#shared/contracts/index';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { collectRoutes, type RecordedRoute } from '#tests/helpers/route-table';

/**
 * One endpoint contract per route (decision 34-04): the routes the app registers and the
 * contracts in `src/shared/contracts` are the same set, and each route carries its contract's
 * access, scopes and schemas (so a route registered by hand, without `route(app, contract, ...)`,
 * fails here).
 */
const collector = collectRoutes();
let t: TestApp;
let routes: RecordedRoute[];
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  routes = collector.routes();
});
afterAll(async () => {
  collector.detach();
  await t?.close();
});

const key = (method: string, url: string) => `${method} ${url}`;

describe('endpoint contracts', () => {
  it('contracts and registered routes are the same set (both directions)', () => {
    const contracts = allEndpoints();
    const declared = contracts.map((c) => key(c.method, c.path));
    expect(new Set(declared).size, 'a method + path is declared twice').toBe(declared.length);
    const registered = routes.map((r) => key(r.method, r.url));
    expect(registered.length).toBeGreaterThan(140);
    expect(registered.filter((k) => !declared.includes(k)), 'routes without a shared contract').toEqual([]);
    expect(declared.filter((k) => !registered.includes(k)), 'contracts no route registers').toEqual([]);
  });

  it('each route is registered from its contract: access, scopes and schemas are the contract\'s', () => {
    const byKey = new Map(allEndpoints().map((c) => [key(c.method, c.path), c]));
    for (const r of routes) {
      const c = byKey.get(key(r.method, r.url))!;
      const what = key(r.method, r.url);
      expect(r.access, what).toBe(c.access);
      expect(r.params, `${what} params`).toBe(c.params);
      expect(r.querystring, `${what} query`).toBe(c.query);
      expect(r.body, `${what} body`).toBe(c.body);
      expect(r.response, `${what} responses`).toBe(c.responses);
    }
  });

  it('no feature registers a route by hand (r.get/post/...): routes go through route(app, contract, handler)', () => {
    const dir = path.resolve(__dirname, '../../src/server/features');
    const offenders: string[] = [];
    for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
      if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      if (/\.(get|post|put|patch|delete|route)\(\s*['`]\//.test(text)) offenders.push(f);
    }
    expect(offenders).toEqual([]);
  });
});

describe('lint: no /api/ address in the web outside its client layer', () => {
  const root = path.resolve(__dirname, '../..');
  const eslint = new ESLint({ cwd: root });
  async function urlErrors(file: string, code: string) {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result.messages.filter((m) => m.ruleId === 'web/no-api-url');
  }

  it('refuses a string, a template literal or a JSX attribute holding /api/ in a web feature, page or component', async () => {
    expect(await urlErrors('src/web/features/orders/x.ts', "export const u = '/api/orders/mine';\n")).toHaveLength(1);
    expect(await urlErrors('src/web/features/orders/x.ts', 'export const u = (id: number) => `/api/orders/${id}`;\n')).toHaveLength(1);
    expect(await urlErrors('src/web/routes/x.tsx', 'export const A = () => <a href="/api/leads.csv">CSV</a>;\n')).toHaveLength(1);
    expect(await urlErrors('src/web/components/x.tsx', "export const k = ['/api/cards'] as const;\n")).toHaveLength(1);
  });

  it('allows the client layer, tests, comments and the contracts\' helpers', async () => {
    expect(await urlErrors('src/web/lib/endpoint.ts', "export const u = '/api/x';\n")).toEqual([]);
    expect(await urlErrors('src/web/features/orders/x.test.ts', "export const u = '/api/x';\n")).toEqual([]);
    expect(await urlErrors('src/web/features/orders/x.ts', "// GET /api/orders/mine\nexport const u = 1;\n")).toEqual([]);
    const call = "import { getOrdersMine } from '#shared/contracts/orders';\nimport { endpointHref } from '#web/lib/endpoint';\nexport const u = endpointHref(getOrdersMine);\n";
    expect(await urlErrors('src/web/features/orders/x.ts', call)).toEqual([]);
  });
});
