import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { featureRoutes } from '#server/routes';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';

/**
 * Walks EVERY route the server registers and proves the access rules hold for each, so a new route
 * can never be forgotten: every /api/admin/* route (and POST /api/svg-files) is admin-only and
 * answers 401 signed out and 403 to a normal user; every route for signed-in users answers 401
 * signed out. Routes are recorded by an onRoute hook placed before every feature's routes.
 */
interface Recorded {
  method: string;
  url: string;
  access: string | undefined;
}
const recorded: Recorded[] = [];
const recorder = Object.assign(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const m of methods) recorded.push({ method: String(m).toUpperCase(), url: route.url, access: route.config?.access });
    });
  },
  // hooks of a plugin marked skip-override land on the root instance, so they see every later route
  { [Symbol.for('skip-override')]: true },
);
featureRoutes.unshift(recorder);

let t: TestApp;
let user: Agent;
beforeAll(async () => {
  t = await createTestApp();
  user = (await signedInAgent(t.app)).agent;
});
afterAll(async () => {
  await t.close();
});

/** A concrete URL for a route pattern: every parameter becomes "1", a wildcard "x". */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, '1').replace(/\*/g, 'x');
const bodyFor = (method: string) => (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? {} : undefined);
const routes = () => {
  const seen = new Set<string>();
  return recorded.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !seen.has(`${r.method} ${r.url}`) && seen.add(`${r.method} ${r.url}`));
};
const mustBeAdmin = (r: Recorded) => r.url.startsWith('/api/admin') || (r.method === 'POST' && r.url === '/api/svg-files');

describe('access rules over every registered route', () => {
  it('recorded the whole route table (the walker itself works)', () => {
    const list = routes();
    expect(list.length).toBeGreaterThan(15);
    const keys = list.map((r) => `${r.method} ${r.url}`);
    for (const k of [
      'GET /api/health',
      'GET /api/admin/stats',
      'GET /api/admin/orders',
      'PATCH /api/admin/orders/:id',
      'PUT /api/admin/business-cards/:id/review',
      'GET /api/admin/testing-summary',
      'POST /api/admin/generate-card',
      'POST /api/svg-files',
    ]) {
      expect(keys).toContain(k);
    }
  });

  it('every /api route declares who may call it', () => {
    const missing = routes().filter((r) => r.url.startsWith('/api/') && !r.access);
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('every /api/admin route and POST /api/svg-files is declared admin-only', () => {
    const wrong = routes().filter((r) => mustBeAdmin(r) && r.access !== 'admin');
    expect(wrong.map((r) => `${r.method} ${r.url} (${r.access})`)).toEqual([]);
  });

  it('every admin route answers 401 signed out and 403 to a normal user, before reading the input', async () => {
    const admins = routes().filter((r) => r.access === 'admin' || mustBeAdmin(r));
    expect(admins.length).toBeGreaterThan(8);
    const failures: string[] = [];
    for (const r of admins) {
      const url = concrete(r.url);
      const anon = await new Agent(t.app).request(r.method, url, bodyFor(r.method));
      if (anon.statusCode !== 401) failures.push(`${r.method} ${url} signed out: ${anon.statusCode}`);
      const asUser = await user.request(r.method, url, bodyFor(r.method));
      if (asUser.statusCode !== 403) failures.push(`${r.method} ${url} as a normal user: ${asUser.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('every route for signed-in users answers 401 signed out', async () => {
    const userRoutes = routes().filter((r) => r.access === 'user');
    const failures: string[] = [];
    for (const r of userRoutes) {
      const url = concrete(r.url);
      const anon = await new Agent(t.app).request(r.method, url, bodyFor(r.method));
      if (anon.statusCode !== 401) failures.push(`${r.method} ${url} signed out: ${anon.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
