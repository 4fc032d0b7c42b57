import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';
import { runSeeds } from '#server/seeds';
import { createTestDatabase } from '#tests/helpers/test-db';
import { Agent } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { multipartBody, pngImage } from '#tests/helpers/orders';

/**
 * Security headers on every KIND of answer: JSON success and errors (400, 401, 403, 404, 413, 415,
 * 429), server-rendered and SPA HTML (200 and 404), static assets, stored files, metrics text.
 * A tiny client build in a temp folder stands in for dist/web, so this runs without a build.
 */
let app: FastifyInstance;
let cleanup: () => Promise<void>;
let profileId: string;
let fileUrl: string;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-headers-'));
  const webDir = path.join(dataDir, 'web');
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Metal Cards</title></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("app")');
  fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.css'), 'body{color:#111}');
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const database = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, TRUST_PROXY: '1' });
  app = await buildApp({ config, database, serveWeb: true, webDir });
  await runSeeds(app.ctx);
  await app.ready();
  const { agent } = await signedInAgent(app);
  const p = await agent.post('/api/profile', { fullName: 'Header Person' });
  profileId = p.json().id;
  const body = multipartBody('profileImage', { name: 'a.png', type: 'image/png', data: await pngImage(40, 40) });
  const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const up = await app.inject({ method: 'POST', url: '/api/upload/profile-image', payload: body.payload, headers: { ...body.headers, cookie } });
  fileUrl = up.json().url;
  cleanup = async () => {
    await app.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await cleanup?.();
});

/**
 * What every answer carries; a page (anything a browser may show as a document) also its CSP and
 * framing protection. A stylesheet, script, font or raster image of the client is never a page, and
 * browsers ignore the document policies there (decision 45-02).
 */
function commonProblems(res: LightMyRequestResponse, kind: 'page' | 'subresource' = 'page'): string[] {
  const h = res.headers;
  const out: string[] = [];
  if (h['x-content-type-options'] !== 'nosniff') out.push('x-content-type-options');
  if (!h['referrer-policy']) out.push('referrer-policy');
  const csp = String(h['content-security-policy'] ?? '');
  if (kind === 'page' && !csp) out.push('content-security-policy');
  if (kind === 'page' && !(h['x-frame-options'] === 'DENY' || /frame-ancestors 'none'|sandbox/.test(csp))) out.push('framing protection');
  if (h['x-powered-by']) out.push('x-powered-by present');
  if (!h['x-request-id']) out.push('x-request-id');
  if (h['strict-transport-security']) out.push('HSTS over plain http');
  if (/\bat \S+ \(|node_modules|\/src\/server\//.test(res.body)) out.push('stack trace in body');
  return out;
}

describe('security headers on every kind of answer', () => {
  const kinds: Array<[string, () => Promise<LightMyRequestResponse>, number, RegExp]> = [
    ['JSON 200', () => app.inject({ method: 'GET', url: '/api/health' }), 200, /application\/json/],
    ['JSON 400 (validation)', () => app.inject({ method: 'POST', url: '/api/auth/login', payload: {} }), 400, /application\/json/],
    ['JSON 401', () => app.inject({ method: 'GET', url: '/api/account' }), 401, /application\/json/],
    ['JSON 403 (foreign Origin)', () => app.inject({ method: 'POST', url: '/api/auth/login', payload: {}, headers: { origin: 'https://evil.example' } }), 403, /application\/json/],
    ['JSON 404 (unknown API path)', () => app.inject({ method: 'GET', url: '/api/no-such-thing' }), 404, /application\/json/],
    [
      'JSON 413',
      () => app.inject({ method: 'POST', url: '/api/auth/login', payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } }),
      413,
      /application\/json/,
    ],
    ['JSON 415', () => app.inject({ method: 'POST', url: '/api/auth/login', payload: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, /application\/json/],
    ['server-rendered profile page', () => app.inject({ method: 'GET', url: `/p/${profileId}` }), 200, /text\/html/],
    ['server-rendered 404 page', () => app.inject({ method: 'GET', url: '/p/nosuchprofile' }), 404, /text\/html/],
    ['SPA page', () => app.inject({ method: 'GET', url: '/' }), 200, /text\/html/],
    ['SPA 404 page', () => app.inject({ method: 'GET', url: '/no-such-page' }), 404, /text\/html/],

    ['static file', () => app.inject({ method: 'GET', url: '/favicon.svg' }), 200, /svg/],
    ['stored file', () => app.inject({ method: 'GET', url: fileUrl }), 200, /image\//],
    ['stored file 404', () => app.inject({ method: 'GET', url: '/files/uploads/2026/nope.png' }), 404, /json/],
    ['metrics text', () => app.inject({ method: 'GET', url: '/metrics' }), 200, /text\/plain/],
  ];

  for (const [name, call, status, type] of kinds) {
    it(`${name}: ${status} with nosniff, referrer policy, CSP, framing protection, request id; no stack, no HSTS on http`, async () => {
      const res = await call();
      expect(res.statusCode).toBe(status);
      expect(String(res.headers['content-type'])).toMatch(type);
      expect(commonProblems(res, 'page')).toEqual([]);
      if (res.statusCode >= 400 && /json/.test(String(res.headers['content-type']))) expect(typeof res.json().message).toBe('string');
    });
  }

  it('a script and a stylesheet of the client: nosniff, referrer policy, request id; no document policies (decision 45-02)', async () => {
    for (const url of ['/assets/app-abc123.js', '/assets/app-abc123.css']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(commonProblems(res, 'subresource'), url).toEqual([]);
      for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'permissions-policy']) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
    // an SVG of the client can be opened as a page that runs scripts: it keeps them (the 'static file' row)
    const svg = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(svg.headers['content-security-policy']).toContain("default-src 'self'");
    expect(svg.headers['x-frame-options']).toBe('DENY');
  });

  it('429 answers carry Retry-After and the same headers', async () => {
    let res: LightMyRequestResponse | undefined;
    for (let i = 0; i < 7; i++) {
      res = await app.inject({ method: 'POST', url: '/api/subscribe', payload: { email: `sub${i}@example.com` }, remoteAddress: '198.51.100.20' });
      if (res.statusCode === 429) break;
    }
    expect(res!.statusCode).toBe(429);
    expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
    expect(commonProblems(res!)).toEqual([]);
  });

  it('stored files are served with the sandboxing CSP', async () => {
    const res = await app.inject({ method: 'GET', url: fileUrl });
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('over HTTPS (behind the configured proxy): HSTS on every answer and Secure session cookies', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    for (const url of ['/api/health', '/api/no-such-thing', `/p/${profileId}`, '/']) {
      const res = await app.inject({ method: 'GET', url, headers: https });
      expect(String(res.headers['strict-transport-security']), url).toMatch(/max-age=\d{7,}/);
    }
    const agent = new Agent(app);
    const { input } = await signedInAgent(app);
    const login = await agent.post('/api/auth/login', { email: input.email, password: input.password }, https);
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
  });

  it('session cookies over plain HTTP are HttpOnly and SameSite=Lax (not Secure, or the browser drops them)', async () => {
    const { input } = await signedInAgent(app);
    const res = await new Agent(app).post('/api/auth/login', { email: input.email, password: input.password });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sid=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });
});
