import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRoutes } from '#tests/helpers/route-table';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
// @ts-expect-error: a plain .mjs dev script without type declarations
import { devProxyPaths } from '../../scripts/dev-proxy.mjs';

/**
 * `npm run dev` serves the front end from Vite and sends the server's paths to the API server.
 * Vite matches proxy keys as plain prefixes: "/fonts" once caught Vite's "/fonts.css" module and
 * the page never rendered. These checks keep the list and the server's routes in step.
 */
const paths = devProxyPaths as string[];
const proxied = (url: string) => paths.some((p) => (p.startsWith('^') ? new RegExp(p).test(url) : url.startsWith(p)));
const webRoot = path.resolve(__dirname, '../../src/web');

const routes = collectRoutes();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  routes.detach();
  await t.close();
});

describe('npm run dev proxy paths', () => {
  it("never catch a file Vite serves from the web app's top level or public folder", () => {
    const files = [...readdirSync(webRoot), ...readdirSync(path.join(webRoot, 'public'))].map((f) => `/${f}`);
    expect(files).toContain('/fonts.css');
    expect(files.filter(proxied)).toEqual([]);
    for (const page of ['/', '/templates', '/product', '/pricing', '/login', '/dashboard', '/admin', '/@vite/client', '/@react-refresh', '/node_modules/.vite/deps/react.js']) {
      expect(proxied(page), page).toBe(false);
    }
  });

  it('send every server route there (API, profiles, card codes in both cases, files, fonts, SVGs, metrics)', () => {
    const urls = routes
      .routes()
      .map((r) => r.url)
      .filter((u) => u !== '*' && u !== '/*')
      .map((u) => u.replace(/:[a-zA-Z]+/g, 'x'));
    expect(urls.length).toBeGreaterThan(20);
    expect(urls.filter((u) => !proxied(u))).toEqual([]);
    for (const u of ['/@ada-lovelace', '/c/abc123', '/C/ABC123', '/p/x', '/fonts/Inter.woff2', '/files/a/b.png', '/templates/svg/f/x.svg', '/metrics', '/api/health']) {
      expect(proxied(u), u).toBe(true);
    }
  });
});
