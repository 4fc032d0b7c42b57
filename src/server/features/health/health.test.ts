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

  it('probes that arrive together share one database ping; the next probe pings again', async () => {
    const database = t.app.ctx.database;
    const original = database.ping.bind(database);
    let pings = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    database.ping = async () => {
      pings++;
      await gate;
      return original();
    };
    try {
      const probes = Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/api/health' }));
      await new Promise((r) => setTimeout(r, 50));
      release();
      const answers = await Promise.all(probes);
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
      expect(pings).toBe(1);
      // nothing is remembered: a later probe pings, and a database that fails answers 503 at once
      database.ping = async () => {
        pings++;
        throw new Error('connection refused');
      };
      const down = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(pings).toBe(2);
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.json()).toEqual({ status: 'unavailable', message: 'Database unreachable' });
    } finally {
      database.ping = original;
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
