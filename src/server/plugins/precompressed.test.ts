import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';
import { pickCoding, type ContentCoding } from '#server/plugins/precompressed';
import { createTestDatabase } from '#tests/helpers/test-db';

/**
 * Built files sent precompressed (decision 38-01): a small client build in a temp folder with the
 * .br and .gz copies the build writes (scripts/precompress.mjs, tested in tests/build), served by the app. The copy matching Accept-Encoding (brotli, then gzip,
 * else the file), the same Content-Type and caching headers, Vary, HEAD and 304.
 */
let app: FastifyInstance;
let cleanup: () => Promise<void>;
let webDir: string;
const CSS = '/assets/index-abc123.css';
const css = Array.from({ length: 600 }, (_, i) => `.c${i}{margin:${i}px;color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`).join('\n');
const home = `<!doctype html><html><head><title>Metal Cards</title></head><body><div id="root" data-prerendered="/">${'<section><h2>Premium metal cards</h2><p>Stainless steel, engraved.</p></section>'.repeat(60)}</div></body></html>`;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-precompressed-'));
  webDir = path.join(dataDir, 'web');
  fs.mkdirSync(path.join(webDir, 'prerender'), { recursive: true });
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(webDir, 'prerender', 'home.html'), home);
  fs.writeFileSync(path.join(webDir, CSS.slice(1)), css);
  fs.writeFileSync(path.join(webDir, 'assets', 'small-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webDir, 'assets', 'font-abc.woff2'), Buffer.alloc(2048, 7));
  for (const rel of [CSS.slice(1), 'prerender/home.html']) {
    const body = fs.readFileSync(path.join(webDir, rel));
    fs.writeFileSync(path.join(webDir, `${rel}.br`), zlib.brotliCompressSync(body));
    fs.writeFileSync(path.join(webDir, `${rel}.gz`), zlib.gzipSync(body));
  }
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

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers });
const decode = (body: Buffer, coding: unknown) => (coding === 'br' ? zlib.brotliDecompressSync(body) : coding === 'gzip' ? zlib.gunzipSync(body) : body).toString('utf8');

describe('built assets: precompressed copies', () => {
  it('sends the brotli copy to a browser, gzip to a gzip-only client, the file to a client without Accept-Encoding', async () => {
    const cases: [Record<string, string>, string | undefined][] = [
      [{ 'accept-encoding': 'gzip, deflate, br, zstd' }, 'br'],
      [{ 'accept-encoding': 'gzip' }, 'gzip'],
      [{ 'accept-encoding': 'br;q=0, gzip;q=0.8' }, 'gzip'],
      [{ 'accept-encoding': 'deflate' }, undefined],
      [{ 'accept-encoding': 'identity' }, undefined],
      [{}, undefined],
    ];
    const etags = new Set<string>();
    for (const [headers, coding] of cases) {
      const res = await get(CSS, headers);
      const what = JSON.stringify(headers);
      expect(res.statusCode, what).toBe(200);
      expect(res.headers['content-encoding'], what).toBe(coding);
      expect(res.headers['content-type'], what).toBe('text/css; charset=utf-8');
      expect(res.headers['cache-control'], what).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary, what).toMatch(/accept-encoding/i);
      expect(res.headers['last-modified'], what).toBeTruthy();
      expect(Number(res.headers['content-length']), what).toBe(res.rawPayload.length);
      expect(decode(res.rawPayload, coding), what).toBe(css);
      etags.add(String(res.headers.etag));
    }
    // one strong tag per coding: a cache never mixes the brotli bytes with the gzip ones
    expect(etags.size).toBe(3);
    for (const tag of etags) expect(tag).toMatch(/^"[^"]+"$/);
  });

  it('answers HEAD with the same headers and no body', async () => {
    for (const ae of ['br', 'gzip', '']) {
      const headers: Record<string, string> = ae ? { 'accept-encoding': ae } : {};
      const got = await get(CSS, headers);
      const head = await get(CSS, headers, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.rawPayload.length).toBe(0);
      for (const h of ['content-type', 'content-encoding', 'content-length', 'etag', 'vary', 'cache-control', 'last-modified']) expect(head.headers[h], `${ae} ${h}`).toBe(got.headers[h]);
    }
  });

  it('answers 304 to a matching If-None-Match or a later If-Modified-Since, 200 to another coding\'s tag', async () => {
    const br = await get(CSS, { 'accept-encoding': 'br' });
    const again = await get(CSS, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    expect((await get(CSS, { 'accept-encoding': 'br', 'if-none-match': `W/${br.headers.etag}, "other"` }, 'HEAD')).statusCode).toBe(304);
    const other = await get(CSS, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    const since = await get(CSS, { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() });
    expect(since.statusCode).toBe(304);
    const before = await get(CSS, { 'if-modified-since': new Date(0).toUTCString() });
    expect(before.statusCode).toBe(200);
  });

  it('does not serve the copies as files of their own, and leaves fonts and small files as they were', async () => {
    for (const url of [`${CSS}.br`, `${CSS}.gz`, '/prerender/home.html.br']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-encoding'], url).not.toBe('br');
    }
    const small = await get('/assets/small-abc.js', { 'accept-encoding': 'gzip, br' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(small.body).toBe('console.log(1)');
    const font = await get('/assets/font-abc.woff2', { 'accept-encoding': 'gzip, br' });
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-encoding']).toBeUndefined();
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(font.rawPayload.length).toBe(2048);
  });
});

describe('the prerendered home page arrives compressed', () => {
  it('brotli to a browser, the page itself without Accept-Encoding; HEAD and 304 too', async () => {
    const br = await get('/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(home.length / 3);
    expect(decode(br.rawPayload, 'br')).toBe(home);

    const plain = await get('/?utm_source=card');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(home);

    const head = await get('/', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.rawPayload.length).toBe(0);

    const again = await get('/', { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('an unknown page is still a 404 with the shell, never a 304', async () => {
    const res = await get('/no-such-page', { 'accept-encoding': 'br', 'if-none-match': '*' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.headers.etag).toBeUndefined();
  });

  it('dynamic answers are still compressed on the fly (gzip)', async () => {
    const res = await get('/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(res.rawPayload, 'gzip')).openapi).toBeTruthy();
  });
});

describe('pickCoding (Accept-Encoding)', () => {
  const both = new Set<ContentCoding>(['br', 'gzip']);
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip;q=0', null],
    ['identity', null],
    ['gzip;q=0.5, identity', null],
    ['identity;q=0.1, gzip', 'gzip'],
    ['', null],
    ['br;q=abc, gzip', 'gzip'],
  ])('%j -> %s', (header, expected) => {
    expect(pickCoding(header, both)).toBe(expected);
  });

  it('answers only a coding at hand that the header weighs above zero (generated headers)', () => {
    const coding = fc.constantFrom('br', 'gzip', 'x-gzip', 'deflate', 'identity', '*', 'zstd', 'BR', '');
    const q = fc.option(fc.constantFrom('0', '0.0', '0.5', '1', '1.0', '2', 'x', '-1'), { nil: undefined });
    const header = fc.array(fc.tuple(coding, q, fc.constantFrom('', ' ', '  ')), { maxLength: 6 }).map((parts) => parts.map(([c, w, s]) => `${s}${c}${w === undefined ? '' : `;q=${w}`}`).join(','));
    const available = fc.subarray(['br', 'gzip'] as ContentCoding[]).map((a) => new Set(a));
    fc.assert(
      fc.property(header, available, (h, av) => {
        const got = pickCoding(h, av);
        if (got === null) return;
        expect(av.has(got)).toBe(true);
        expect(h.toLowerCase()).toMatch(got === 'gzip' ? /gzip|\*/ : /br|\*/);
      }),
    );
  });
});
