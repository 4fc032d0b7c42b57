import { Writable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { createTestDatabase } from '#tests/helpers/test-db';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';
import { enqueueEmail } from '#server/infra/mail/outbox';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await t.close();
});

const metricValue = (text: string, line: RegExp) => {
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').pop()) : undefined;
};

describe('GET /metrics', () => {
  it('answers Prometheus text from loopback with request counts and latency by route pattern', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing-123' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(metricValue(text, /^http_requests_total\{method="GET",route="\/api\/health",status_code="200"\}/)).toBeGreaterThanOrEqual(2);
    expect(metricValue(text, /^http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\}/)).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="\/api\/health",status_code="200"\} \d+/m);
    // unknown paths share one label instead of one series per path
    expect(text).not.toContain('no-such-thing-123');
    expect(text).toMatch(/^db_pool_connections\{state="total"\} \d+/m);
    expect(text).toMatch(/^visit_buffer_events \d+/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^app_info\{database="(pglite|postgres)",storage="disk",rate_limiter="database"\} 1/m);
  });

  it('reports the outbox backlog from the database', async () => {
    const before = metricValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, /^outbox_backlog /);
    await enqueueEmail(t.app.ctx.db, { dedupeKey: `metrics-test:${Date.now()}`, kind: 'test', to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>' });
    const after = metricValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, /^outbox_backlog /);
    expect(after).toBe((before ?? 0) + 1);
  });

  it('is refused to remote callers without the token, and to loopback requests that came through a proxy', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(401);
    expect(remote.json()).toEqual({ message: 'Metrics need a valid bearer token' });
    expect(remote.body).not.toContain('http_requests_total');
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const proxied = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(proxied.statusCode).toBe(401);
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('http_requests_total');
  });

  it('answers 403 to remote callers when no token is configured at all', async () => {
    const other = await createTestApp();
    try {
      const res = await other.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer anything' } });
      expect(res.statusCode).toBe(403);
      expect((await other.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('request ids and structured logs', () => {
  it('echoes a sane X-Request-Id, replaces a hostile one, and makes one when absent', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'lb-1234abcd' } });
    expect(given.headers['x-request-id']).toBe('lb-1234abcd');
    const hostile = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc\u0000def<script>ghijkl' } });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(none.statusCode).toBe(404);
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes one JSON line per event, each carrying the request id, with secrets redacted', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-log-'));
    const database = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'info', NODE_ENV: 'test', DATA_DIR: dataDir });
    const app = await buildApp({ config, database, serveWeb: false, logger: { level: 'info', stream, redact: { paths: ['req.headers.cookie', 'req.headers.authorization'], censor: '[redacted]' } } as never });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/auth/user', headers: { 'x-request-id': 'trace-abcdef01', cookie: 'sid=secret-cookie-value' } });
      expect(res.headers['x-request-id']).toBe('trace-abcdef01');
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const mine = entries.filter((e) => e.reqId === 'trace-abcdef01');
      expect(mine.length).toBeGreaterThanOrEqual(2); // incoming request + request completed
      expect(mine.some((e) => typeof e.responseTime === 'number')).toBe(true);
      expect(lines.join('\n')).not.toContain('secret-cookie-value');
    } finally {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
