import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers ok with the database kind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: t.app.ctx.database.kind });
  });

  it('answers 503 with Retry-After when the database does not answer, and ok again once it does', async () => {
    const database = t.app.ctx.database;
    const original = database.ping.bind(database);
    database.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const down = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.json()).toEqual({ status: 'unavailable', message: 'Database unreachable' });
    } finally {
      database.ping = original;
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
