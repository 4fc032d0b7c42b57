import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';
import { createTestDatabase } from '#tests/helpers/test-db';

// A tiny client build in a temp folder stands in for dist/web (runs without a build).
let app: FastifyInstance;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-spa-'));
  const webDir = path.join(dataDir, 'web');
  fs.mkdirSync(path.join(webDir, 'prerender'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(webDir, 'prerender', 'home.html'), '<!doctype html><html><body><div id="root" data-prerendered="/"><h1>Home</h1></div></body></html>');
  const database = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir });
  app = await buildApp({ config, database, serveWeb: true, webDir });
  await app.ready();
  cleanup = async () => {
    await app.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => cleanup?.());

describe('SPA serving with a prerendered home page', () => {
  it('answers "/" (with or without a query) with the prerendered page', async () => {
    for (const url of ['/', '/?utm_source=card']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('data-prerendered="/"');
    }
  });

  it('answers other pages with the empty shell, unknown ones with it and a 404', async () => {
    const faq = await app.inject({ method: 'GET', url: '/faq' });
    expect(faq.statusCode).toBe(200);
    expect(faq.body).toContain('<div id="root"></div>');
    const missing = await app.inject({ method: 'GET', url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('data-prerendered');
  });

  it('does not serve the prerendered files as static files', async () => {
    const res = await app.inject({ method: 'GET', url: '/prerender/home.html' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('data-prerendered');
  });
});
