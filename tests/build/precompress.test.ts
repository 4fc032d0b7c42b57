import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COPY_SUFFIX, PRECOMPRESS_MIN_BYTES, PRECOMPRESSED_EXTENSIONS, precompressDir } from '../../scripts/precompress.mjs';
import { TEXT_CONTENT_TYPES } from '#server/plugins/precompressed';

/**
 * The build's compression step (scripts/precompress.mjs, run last by scripts/build-web.mjs;
 * decision 38-01) on a folder shaped like dist/web: every text file from the small size up gets a
 * brotli and a gzip copy that decompress to the same bytes; fonts, images, small files and dot
 * folders get none.
 */
let dir: string;
const text = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `.${seed}-${i}{color:#${(i * 7919).toString(16).padStart(6, '0').slice(0, 6)}}`).join('\n');
const files: Record<string, string | Buffer> = {
  'assets/index-abc123.css': text(800, 'card'),
  'assets/app-def456.js': `export const rows = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: i, name: `row ${i}` })))};`,
  'assets/inter-latin-wght-normal-xyz.woff2': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256)),
  'prerender/home.html': `<!doctype html><html><body><div id="root" data-prerendered="/">${text(300, 'home')}</div></body></html>`,
  'index.html': `<!doctype html><html><head>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}</head><body><div id="root"></div></body></html>`,
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  '.vite/manifest.json': JSON.stringify({ big: text(200, 'm') }),
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-precompress-'));
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
  // a copy left by an earlier build of a file that is gone
  fs.writeFileSync(path.join(dir, 'assets', 'old-000.js.br'), 'stale');
  await precompressDir(dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('build: precompressed copies', () => {
  it('writes .br and .gz beside every text file from the small size up, decompressing to the same bytes', () => {
    for (const rel of ['assets/index-abc123.css', 'assets/app-def456.js', 'prerender/home.html', 'index.html']) {
      const original = fs.readFileSync(path.join(dir, rel));
      expect(original.length, rel).toBeGreaterThanOrEqual(PRECOMPRESS_MIN_BYTES);
      const br = fs.readFileSync(path.join(dir, rel + COPY_SUFFIX.br));
      const gz = fs.readFileSync(path.join(dir, rel + COPY_SUFFIX.gzip));
      expect(zlib.brotliDecompressSync(br).equals(original), `${rel}.br`).toBe(true);
      expect(zlib.gunzipSync(gz).equals(original), `${rel}.gz`).toBe(true);
      expect(br.length, `${rel}.br is smaller`).toBeLessThan(original.length);
      expect(gz.length, `${rel}.gz is smaller`).toBeLessThan(original.length);
    }
  });

  it('leaves fonts, files under the small size, dot folders and stale copies alone', () => {
    for (const rel of ['assets/inter-latin-wght-normal-xyz.woff2', 'favicon.svg', '.vite/manifest.json']) {
      expect(fs.existsSync(path.join(dir, rel + '.br')), rel).toBe(false);
      expect(fs.existsSync(path.join(dir, rel + '.gz')), rel).toBe(false);
    }
    expect(fs.existsSync(path.join(dir, 'assets', 'old-000.js.br'))).toBe(false);
  });

  it('running it again gives the same copies (a rebuild over an old output)', async () => {
    const before = fs.readFileSync(path.join(dir, 'assets/index-abc123.css.br'));
    await precompressDir(dir);
    expect(fs.readFileSync(path.join(dir, 'assets/index-abc123.css.br')).equals(before)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'assets/index-abc123.css.br.br'))).toBe(false);
  });

  it('the server has a content type for every extension the build compresses', () => {
    for (const ext of PRECOMPRESSED_EXTENSIONS) expect(TEXT_CONTENT_TYPES[ext], ext).toBeTruthy();
  });

  it('the web build runs the step last (after the shell and the prerendered pages are written)', () => {
    const src = fs.readFileSync(path.resolve(__dirname, '../../scripts/build-web.mjs'), 'utf8');
    const step = src.indexOf('await precompressDir(webDir)');
    expect(step).toBeGreaterThan(src.lastIndexOf("fs.writeFileSync(path.join(webDir, 'index.html')"));
    expect(step).toBeGreaterThan(src.indexOf('fs.writeFileSync(path.join(outDir, file), html)'));
  });
});
