import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import sharp from 'sharp';
import { createTestApp, type TestApp, type Agent } from '#tests/helpers/test-app';
import { collectRoutes, concreteUrl, type RecordedRoute } from '#tests/helpers/route-table';
import { verifiedAgent } from '#tests/helpers/factories';
import { insertProfile } from '#tests/helpers/admin-factories';
import { exampleOf } from '#tests/helpers/zod-example';
import { multipartBody } from '#tests/helpers/multipart';
import { isDocumented, openApiPath } from '#server/features/developer/openapi';
import { profiles } from '#server/db/schema/index';
import { eq } from 'drizzle-orm';

/**
 * Issue 36: the OpenAPI document agrees with the API, checked by tools we did not write.
 * - Redocly's linter (recommended ruleset) finds no problem in the document;
 * - every documented operation is called (signed out, with a token it does not take, with a
 *   generated valid body or file as its signed-in owner, and on a path that does not exist) and
 *   each real answer's status, media type and JSON body are checked against the document with Ajv
 *   (JSON Schema 2020-12, formats on). An answer whose status is not documented fails.
 */

const collector = collectRoutes();
let t: TestApp;
let doc: any;
let ajv: Ajv2020;
let owner: { agent: Agent; user: { id: string } };
let secret = '';
let profileId = '';
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const verified = await verifiedAgent(t.app);
  owner = verified;
  const own = await insertProfile(t.app, verified.user.id, { fullName: 'Zoë Łukasz', email: 'zoe@example.com' });
  // a lower-case id, as the server makes them (the public routes take only [a-z0-9])
  profileId = own.id.toLowerCase().replace(/[^a-z0-9]/g, 'x');
  await t.app.ctx.db.update(profiles).set({ id: profileId }).where(eq(profiles.id, own.id));
  await verified.agent.post('/api/team', { name: 'Standards Team', companyName: 'Acme Inc.' });
  const tok = await verified.agent.post('/api/tokens', { name: 'Standards', scopes: ['profile:read', 'leads:read'], expiresInDays: 30, team: false, password: verified.input.password });
  expect(tok.statusCode, tok.body).toBe(201);
  secret = tok.json().secret;
});
afterAll(async () => {
  collector.detach();
  await t?.close();
});

/** `#/components/responses/X` resolved. */
function deref(entry: any): any {
  if (entry?.$ref) return entry.$ref.split('/').slice(1).reduce((n: any, k: string) => n?.[k], doc);
  return entry;
}

/** The documented answer for a status: exact code first, then its range (`4XX`), then `default`. */
function documentedAnswer(op: any, status: number): any {
  const r = op.responses ?? {};
  return deref(r[String(status)] ?? r[`${String(status)[0]}XX`] ?? r.default);
}

const compiled = new Map<object, ReturnType<Ajv2020['compile']>>();

/** Problems of one real answer against the document (empty when it agrees). */
function conformance(route: Pick<RecordedRoute, 'method' | 'url'>, res: LightMyRequestResponse): string[] {
  const where = `${route.method} ${route.url} -> ${res.statusCode}`;
  const op = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
  if (!op) return [`${where}: not in the document`];
  const answer = documentedAnswer(op, res.statusCode);
  if (!answer) return [`${where}: status not documented (${Object.keys(op.responses).join(', ')}) body ${res.body.slice(0, 120)}`];
  const media = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
  const hasBody = res.rawPayload.length > 0;
  if (!answer.content) return hasBody ? [`${where}: documented without a body, got ${media} ${res.body.slice(0, 80)}`] : [];
  // an empty text or file (a vCard file of no leads) is still one of the documented text answers
  if (!hasBody) return Object.keys(answer.content).includes('application/json') ? [`${where}: documented with a JSON body, got none`] : [];
  const entry = answer.content[media];
  if (!entry) return [`${where}: media type ${media} not documented (${Object.keys(answer.content).join(', ')})`];
  if (media === 'application/json' || media.endsWith('+json')) {
    let validate = compiled.get(entry.schema);
    if (!validate) compiled.set(entry.schema, (validate = ajv.compile(entry.schema)));
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return [`${where}: not JSON`];
    }
    if (!validate(body)) return [`${where}: body does not match: ${ajv.errorsText(validate.errors).slice(0, 300)} — ${res.body.slice(0, 200)}`];
  }
  return [];
}

const documentedRoutes = () => collector.routes().filter((r) => isDocumented(r));

/** Real values for path parameters where the test has them, else a value that finds nothing. */
function pathFor(r: RecordedRoute, known: boolean): string {
  return concreteUrl(r.url, (name) => {
    if (!known) return name === 'side' ? 'front' : name === 'id' || name === 'profileId' ? 'zzzzzzzzzzzz' : '00000000-0000-4000-8000-000000000000';
    if (/^\/api\/template-/.test(r.url) && name === 'id') return '17';
    if (name === 'id' || name === 'profileId') return profileId;
    if (name === 'side') return 'front';
    if (name === 'userId') return owner.user.id;
    return '1';
  });
}

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).png().toBuffer();
}

/** Multipart bodies for the operations that document one (the field named by the document). */
async function multipartFor(op: any): Promise<{ payload: Buffer; headers: Record<string, string> } | null> {
  const schema = op.requestBody?.content?.['multipart/form-data']?.schema;
  if (!schema || op.requestBody.content['application/json']) return null;
  const field = (schema.required as string[])[0]!;
  if (field === 'file') return multipartBody(field, Buffer.from('email,name\nada@example.com,Ada Lovelace\n'), { filename: 'members.csv', contentType: 'text/csv' });
  return multipartBody(field, await png(), { filename: 'image.png', contentType: 'image/png' });
}

/** Operations that take no request body (their path names the thing they act on). */
const BODILESS = [
  'POST /api/account/passkeys/options',
  'POST /api/account/sessions/revoke-others',
  'POST /api/account/two-factor/totp',
  'POST /api/auth/logout',
  'POST /api/auth/passkey/options',
  'POST /api/auth/verify-email/resend',
  'POST /api/team/invites/{id}/resend',
  'POST /api/team/invites/{token}/accept',
  'POST /api/team/sso/domains/{id}/verify',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  'POST /api/webhooks/{id}/secret',
  'POST /api/webhooks/{id}/test',
];

describe('the OpenAPI document', () => {
  it('passes the Redocly linter (recommended ruleset) with no problem', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? ''}`);
    expect(lines).toEqual([]);
  });

  it('declares the real formats and bodies of the operations found to disagree (issue 36)', () => {
    const qr = doc.paths['/api/qrcode'].get.responses['200'].content;
    expect(Object.keys(qr).sort()).toEqual(['image/png', 'image/svg+xml']);
    expect(doc.paths['/api/account/export'].get.responses['200'].content['application/json'].schema.type).toBe('object');
    for (const [path, field] of [
      ['/api/upload/profile-image', 'profileImage'],
      ['/api/upload/logo', 'logoImage'],
      ['/api/upload/banner-logo', 'bannerLogoImage'],
      ['/api/upload/artwork', 'artwork'],
      ['/api/photoroom/remove-background', 'image'],
      ['/api/team/invites/import', 'file'],
    ] as const) {
      expect(doc.paths[path].post.requestBody?.content['multipart/form-data'].schema.required, path).toEqual([field]);
    }
    expect(Object.keys(doc.paths['/api/p/{id}/leads'].post.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    // every operation that takes a body documents it: the ones without a body are exactly these
    const bodiless: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [m, op] of Object.entries<any>(ops)) if (['post', 'put', 'patch'].includes(m) && !op.requestBody) bodiless.push(`${m.toUpperCase()} ${path}`);
    }
    expect(bodiless.sort()).toEqual(BODILESS);
    const unavailable = doc.components.responses.ServiceUnavailable;
    expect(unavailable.headers['Retry-After']).toBeTruthy();
    for (const ops of Object.values<any>(doc.paths)) for (const op of Object.values<any>(ops)) expect(op.responses['503']).toEqual({ $ref: '#/components/responses/ServiceUnavailable' });
    expect(doc.paths['/api/reviews'].get.responses['403']).toBeTruthy();
    expect(doc.info.license.name).toBeTruthy();
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.info.description).toMatch(/405.*Allow/);
  });
});

describe('every documented operation answers as documented (Ajv against the document)', () => {
  it('the check sees an undocumented status, a wrong media type and a body that does not match', () => {
    const r = { method: 'GET', url: '/api/reviews/summary' };
    const fake = (statusCode: number, type: string, body: string) => ({ statusCode, headers: { 'content-type': type }, body, rawPayload: Buffer.from(body) }) as unknown as LightMyRequestResponse;
    expect(conformance(r, fake(200, 'application/json', '{"nope":1}')).join()).toMatch(/does not match/);
    expect(conformance(r, fake(200, 'text/plain', 'x')).join()).toMatch(/media type/);
    expect(conformance(r, fake(302, 'application/json', '{}')).join()).toMatch(/not documented/);
  });

  it('signed out: each operation answers a documented status and body (401 for the signed-in ones)', async () => {
    const problems: string[] = [];
    for (const r of documentedRoutes()) {
      const res = await t.app.inject({ method: r.method as 'GET', url: pathFor(r, false), ...(r.body ? { payload: {} } : {}) });
      if (r.access !== 'public') expect.soft(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      problems.push(...conformance(r, res));
    }
    expect(problems).toEqual([]);
  });

  it('with an API token: scoped operations answer as documented; public and session-only ones answer the documented 403', async () => {
    const problems: string[] = [];
    for (const r of documentedRoutes()) {
      const res = await t.app.inject({ method: r.method as 'GET', url: pathFor(r, true), headers: { authorization: `Bearer ${secret}` }, ...(r.body ? { payload: exampleOf(r.body) ?? {} } : {}) });
      const op = doc.paths[openApiPath(r.url)][r.method.toLowerCase()];
      if (op['x-scopes'].length === 0) expect.soft(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      problems.push(...conformance(r, res));
    }
    expect(problems).toEqual([]);
  });

  it('as the signed-in owner with a generated valid body (or file): every answer documented; most succeed; a missing resource is a documented 404', async () => {
    const problems: string[] = [];
    let succeeded = 0;
    let notFound = 0;
    // destructive operations last, so the ones before them find the data
    // (and the public profile's operations first: saving the profile gives it a new id)
    const order = (r: RecordedRoute) => (/^\/api\/(p|vcard)\//.test(r.url) ? 0 : r.method === 'DELETE' ? 2 : /transfer|account$/.test(r.url) ? 3 : 1);
    for (const r of [...documentedRoutes()].sort((a, b) => order(a) - order(b))) {
      // deleting the account or the team would end the walk (the signed-out walk covers them)
      if (r.method === 'DELETE' && (r.url === '/api/account' || r.url === '/api/team')) continue;
      const op = doc.paths[openApiPath(r.url)][r.method.toLowerCase()];
      // signing up, in or out starts or ends a session: sent without the owner's cookie
      const cookie = /^\/api\/auth\/(register|login|logout)$/.test(r.url) ? '' : [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const multipart = await multipartFor(op);
      const res = multipart
        ? await t.app.inject({ method: r.method as 'POST', url: pathFor(r, true), payload: multipart.payload, headers: { ...multipart.headers, cookie } })
        : await t.app.inject({ method: r.method as 'GET', url: pathFor(r, true), headers: { cookie }, ...(r.body ? { payload: exampleOf(r.body) ?? {} } : {}) });
      if (res.statusCode < 300) succeeded++;
      problems.push(...conformance(r, res));
      if (r.params) {
        const missing = await t.app.inject({ method: r.method as 'GET', url: pathFor(r, false), headers: { cookie }, ...(r.body ? { payload: exampleOf(r.body) ?? {} } : {}) });
        if (missing.statusCode === 404) notFound++;
        problems.push(...conformance(r, missing));
      }
    }
    expect(problems).toEqual([]);
    expect(succeeded).toBeGreaterThan(documentedRoutes().length / 2);
    expect.soft(succeeded).toBeGreaterThan(0);
    expect(notFound).toBeGreaterThan(5);
  });

  it('a request the API refuses (bad JSON body, unknown query) is a documented 400', async () => {
    const cookie = [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const problems: string[] = [];
    for (const r of documentedRoutes().filter((x) => x.body || x.querystring)) {
      const res = r.body
        ? await t.app.inject({ method: r.method as 'POST', url: pathFor(r, true), headers: { cookie, 'content-type': 'application/json' }, payload: '{"unexpected":' })
        : await t.app.inject({ method: 'GET', url: `${pathFor(r, true)}?size=not-a-number&limit=-1&data=` });
      problems.push(...conformance(r, res));
    }
    expect(problems).toEqual([]);
  });

  it("who is signed in: /api/auth/session answers a visitor 200 with user null (no failed request in the browser); /api/auth/user keeps the spec's 401", async () => {
    const visitor = await t.app.inject({ method: 'GET', url: '/api/auth/session' });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ user: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const signedIn = await owner.agent.get('/api/auth/session');
    expect(signedIn.json().user.id).toBe(owner.user.id);
    expect(conformance({ method: 'GET', url: '/api/auth/session' }, signedIn)).toEqual([]);
  });

  it('a wrong method on a known path is 405 with Allow (RFC 9110), an unknown path 404', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/reviews/summary' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toEqual({ message: 'Method not allowed' });
    const put = await t.app.inject({ method: 'PUT', url: `/api/p/${profileId}/leads`, payload: {} });
    expect(put.statusCode).toBe(405);
    expect(String(put.headers.allow)).toContain('POST');
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-thing' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/no-such-thing' })).statusCode).toBe(404);
  });
});
