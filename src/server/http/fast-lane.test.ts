import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';
import { fastLaneOf, type FastLane } from '#server/http/fast-lane';
import { visitFlusher } from '#server/features/engagement/visit-flusher';
import { queryRows } from '#server/db/rows';
import { deviceOf } from '#server/features/profile/visitor';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { createTestDatabase } from '#tests/helpers/test-db';
import { signedInAgent } from '#tests/helpers/factories';

/**
 * The fast lane (decision 38-05): after Fastify answered a built file or a public page once, the
 * same request class is answered in front of Fastify with the same status, headers and bytes;
 * anything else still goes through Fastify. Over real sockets: app.inject never meets the lane.
 */
interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
function rawGet(base: string, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
/** headers that belong to one answer */
const stable = (h: http.IncomingHttpHeaders) => {
  const { date: _d, 'x-request-id': _id, connection: _c, 'keep-alive': _k, ...rest } = h;
  return rest;
};
const listen = async (app: FastifyInstance) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
};

describe('fast lane: built files', () => {
  let app: FastifyInstance;
  let base: string;
  let lane: FastLane;
  let cleanup: () => Promise<void>;
  const CSS = '/assets/index-lane1.css';
  const css = Array.from({ length: 400 }, (_, i) => `.l${i}{padding:${i}px}`).join('\n');

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-fast-lane-'));
    const webDir = path.join(dataDir, 'web');
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    fs.writeFileSync(path.join(webDir, CSS.slice(1)), css);
    fs.writeFileSync(path.join(webDir, `${CSS.slice(1)}.br`), zlib.brotliCompressSync(css));
    fs.writeFileSync(path.join(webDir, `${CSS.slice(1)}.gz`), zlib.gzipSync(css));
    const database = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir });
    app = await buildApp({ config, database, serveWeb: true, webDir });
    base = await listen(app);
    lane = fastLaneOf(app.ctx)!;
    cleanup = async () => {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(() => cleanup?.());

  it('answers a repeated GET with the same status, headers and bytes as Fastify did, for each coding', async () => {
    for (const enc of ['gzip, deflate, br', 'gzip', '']) {
      const headers: Record<string, string> = enc ? { 'accept-encoding': enc } : {};
      const before = lane.answered;
      const first = await rawGet(base, CSS, headers);
      expect(lane.answered).toBe(before);
      const second = await rawGet(base, CSS, headers);
      expect(lane.answered).toBe(before + 1);
      expect(second.status).toBe(200);
      expect(stable(second.headers)).toEqual(stable(first.headers));
      expect(second.body.equals(first.body)).toBe(true);
      expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    }
    // the security headers came along: a stylesheet's (the document policies are a page's, decision 45-02)
    const again = await rawGet(base, CSS, { 'accept-encoding': 'br' });
    expect(again.headers).toMatchObject({ 'content-encoding': 'br', 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', vary: 'accept-encoding' });
    expect(again.headers['content-security-policy']).toBeUndefined();
    expect(zlib.brotliDecompressSync(again.body).toString()).toBe(css);
    // a caller's sane request id is kept, as Fastify keeps it
    expect((await rawGet(base, CSS, { 'x-request-id': 'trace-12345678' })).headers['x-request-id']).toBe('trace-12345678');
  });

  it('leaves conditional, HEAD, proxied and other requests to Fastify', async () => {
    const first = await rawGet(base, CSS, { 'accept-encoding': 'br' });
    const before = lane.answered;
    expect((await rawGet(base, CSS, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    const head = await rawGet(base, CSS, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const proxied = await rawGet(base, CSS, { 'accept-encoding': 'br', 'x-forwarded-proto': 'https' });
    expect(proxied.status).toBe(200);
    expect((await rawGet(base, '/assets/nothing-here.css')).status).toBe(404);
    expect(lane.answered).toBe(before);
  });
});

describe('fast lane: GET /p/{id}', () => {
  let t: TestApp;
  let base: string;
  let lane: FastLane;
  const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    lane = fastLaneOf(t.app.ctx)!;
  });
  afterAll(() => t?.close());

  async function makeProfile() {
    const owner = await signedInAgent(t.app);
    const res = await owner.agent.post('/api/profile', { fullName: 'Lane Person', jobTitle: 'Tester', email: 'lane@example.com', profileTemplate: 'classic', links: [] });
    expect(res.statusCode).toBe(201);
    return { owner, id: (res.json() as { id: string }).id };
  }

  it('replays the page to anonymous callers, counts each view, and never serves a stale page after an edit', async () => {
    const { owner, id } = await makeProfile();
    const headers = { 'accept-encoding': 'gzip, deflate, br', 'user-agent': UA };
    const before = lane.answered;
    const first = await rawGet(base, `/p/${id}`, headers);
    const second = await rawGet(base, `/p/${id}`, headers);
    expect(lane.answered).toBe(before + 1);
    expect(second.status).toBe(200);
    expect(stable(second.headers)).toEqual(stable(first.headers));
    expect(second.body.equals(first.body)).toBe(true);
    expect(zlib.gunzipSync(second.body).toString()).toContain('Lane Person');
    // a bot through the lane is not counted
    await rawGet(base, `/p/${id}`, { ...headers, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    expect(lane.answered).toBe(before + 2);
    const stats = (await owner.agent.get('/api/stats/visits')).json() as { totalVisits: number };
    expect(stats.totalVisits).toBe(2);
    // a lane view from another site's link counts as a link, with the device of its user agent
    await rawGet(base, `/p/${id}`, { ...headers, referer: 'https://mail.example.org/inbox' });
    expect(lane.answered).toBe(before + 3);
    await visitFlusher(t.app.ctx).flush();
    const rows = await queryRows<{ source: string; device: string }>(t.app.ctx.db, sql`select source, device from visits where profile_id = ${id} order by id`);
    expect(rows.map((r) => r.source)).toEqual(['direct', 'direct', 'link']);
    expect(new Set(rows.map((r) => r.device))).toEqual(new Set([deviceOf(UA)]));

    // an edit drops the cached page: the next view shows it
    const edited = await owner.agent.put(`/api/profile/${id}`, { fullName: 'Lane Renamed', jobTitle: 'Tester', email: 'lane@example.com', profileTemplate: 'classic', links: [] });
    expect(edited.statusCode).toBe(200);
    const after = await rawGet(base, `/p/${id}`, headers);
    expect(zlib.gunzipSync(after.body).toString()).toContain('Lane Renamed');
  });

  it('leaves sessions, queries and unknown profiles to the route', async () => {
    const { owner, id } = await makeProfile();
    const headers = { 'accept-encoding': 'gzip', 'user-agent': UA };
    await rawGet(base, `/p/${id}`, headers);
    const before = lane.answered;
    // the owner (a session cookie) is not counted: the route decides
    const cookie = [...owner.agent.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    expect((await rawGet(base, `/p/${id}`, { ...headers, cookie })).status).toBe(200);
    expect((await rawGet(base, `/p/${id}?src=link`, headers)).status).toBe(200);
    expect((await rawGet(base, `/p/${id}?preview=true`, headers)).status).toBe(200);
    expect((await rawGet(base, '/p/zzzz0000', headers)).status).toBe(404);
    expect(lane.answered).toBe(before);
    const stats = (await owner.agent.get('/api/stats/visits')).json() as { totalVisits: number };
    // the first view and the ?src=link one
    expect(stats.totalVisits).toBe(2);
  });
});
