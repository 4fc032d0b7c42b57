import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { collectRoutes } from '#tests/helpers/route-table';
import { signedInAgent } from '#tests/helpers/factories';
import { insertProfile } from '#tests/helpers/admin-factories';
import { allEndpoints } from '#shared/contracts/index';
import { buildOpenApiDocument, isDocumented, mediaTypesOf, openApiPath, toJsonSchema } from './openapi';

const collector = collectRoutes();
let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(async () => {
  collector.detach();
  await t?.close();
});

describe('GET /api/openapi.json', () => {
  it('is generated from the shared endpoint contracts alone (no app needed): the served document is that one', () => {
    const staticDoc = buildOpenApiDocument(allEndpoints(), { serverUrl: '/', sessionCookie: 'sid' });
    expect(JSON.parse(JSON.stringify(staticDoc))).toEqual(doc);
  });

  it('is a valid OpenAPI 3.1 document (independent validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 3000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('holds every public and signed-in route, and no staff or internal route', () => {
    const routes = collector.routes();
    const documented = routes.filter((r) => isDocumented(r));
    expect(documented.length).toBeGreaterThan(60);
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (isDocumented(r)) expect(op, `${r.method} ${r.url} is documented`).toBeTruthy();
      else expect(op, `${r.method} ${r.url} is left out`).toBeUndefined();
    }
    for (const r of routes.filter((x) => x.access === 'admin')) expect(doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]).toBeUndefined();
    expect(JSON.stringify(Object.keys(doc.paths))).not.toContain('/api/admin');
    expect(doc.paths['/api/health']).toBeUndefined();
    // path parameters in OpenAPI form
    expect(doc.paths['/api/tokens/{id}'].delete.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const ids = Object.values(doc.paths).flatMap((p: any) => Object.values(p).map((op: any) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("documents each route's real answers: the 200/201 schema is its zod response schema", () => {
    let compared = 0;
    for (const r of collector.routes().filter((x) => isDocumented(x))) {
      const op = doc.paths[openApiPath(r.url)][r.method.toLowerCase()];
      for (const [status, schema] of Object.entries(r.response ?? {})) {
        if (!['200', '201'].includes(status)) continue;
        const documented = op.responses[status];
        expect(documented, `${r.method} ${r.url} ${status}`).toBeTruthy();
        const json = toJsonSchema(schema, 'output');
        // a file or text document, or a choice of them (the QR code as SVG or PNG): its media type(s)
        const media = (Array.isArray(json.anyOf) ? (json.anyOf as Array<Record<string, unknown>>) : [json]).flatMap((v) => mediaTypesOf(v));
        if (media.length) {
          expect(Object.keys(documented.content), `${r.method} ${r.url}`).toEqual(media);
        } else if (json.type !== 'null') {
          expect(documented.content['application/json'].schema, `${r.method} ${r.url}`).toEqual(json);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('states security and scopes per operation', () => {
    const leads = doc.paths['/api/leads'].get;
    expect(leads['x-scopes']).toEqual(['leads:read']);
    expect(leads.security).toEqual([{ cookieAuth: [] }, { bearerAuth: ['leads:read'] }]);
    expect(leads.tags).toEqual(['engagement']);
    expect(leads.summary).toBe('List your leads');
    // every operation a token may call has a readable name
    for (const r of collector.routes().filter((x) => isDocumented(x) && (x.url.startsWith('/api/tokens') || doc.paths[openApiPath(x.url)][x.method.toLowerCase()]['x-scopes'].length))) {
      expect(doc.paths[openApiPath(r.url)][r.method.toLowerCase()].summary, `${r.method} ${r.url}`).not.toMatch(new RegExp(`^(Read|Send|Save|Update|Delete) ${r.url.replace(/^\/api\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
    expect(doc.paths['/api/leads.csv'].get.responses['200'].content).toHaveProperty(['text/csv']);
    expect(doc.paths['/api/account'].get.security).toEqual([{ cookieAuth: [] }]);
    expect(doc.paths['/api/account'].get.description).toMatch(/not available to API tokens/);
    expect(doc.paths['/api/reviews'].get.security).toEqual([]);
    expect(doc.paths['/api/team/members'].get['x-scopes']).toEqual(['team:read']);
    expect(doc.paths['/api/tokens'].post.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['name', 'scopes', 'expiresInDays']));
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('real answers of the test app validate against the documented schemas', async () => {
    const { agent, user } = await signedInAgent(t.app);
    await insertProfile(t.app, user.id);
    const sample = ['/api/profile', '/api/leads', '/api/stats/visits', '/api/stats/engagement', '/api/tokens', '/api/account', '/api/auth/user', '/api/reviews/summary', '/api/templates', '/api/profile/lead-form'];
    for (const url of sample) {
      const res = await agent.get(url);
      expect(res.statusCode, url).toBe(200);
      const schema = doc.paths[url].get.responses['200'].content['application/json'].schema;
      const check = z.fromJSONSchema(schema);
      const r = check.safeParse(res.json());
      expect(r.success, `${url}: ${r.error?.message}`).toBe(true);
    }
  });
});

describe('GET /api/docs', () => {
  it('serves the reference page and its renderer from our own server, under our CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const srcs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.every((s) => s.startsWith('/'))).toBe(true);
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    for (const s of srcs.filter((x) => x.startsWith('/api/docs/'))) {
      const res = await t.app.inject({ method: 'GET', url: s });
      expect(res.statusCode, s).toBe(200);
      expect(res.body.length).toBeGreaterThan(10);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/init.js' })).body).toContain('/api/openapi.json');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/package.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/..%2Fpackage.json' })).statusCode).toBe(404);
    for (const name of ['__proto__', 'constructor', 'toString']) expect((await t.app.inject({ method: 'GET', url: `/api/docs/${name}` })).statusCode).toBe(404);
  });
});
