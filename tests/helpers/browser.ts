import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';
import { runSeeds } from '#server/seeds';
import { createTestDatabase } from './test-db';
import { userInput } from './factories';
import { runTask, workerPool } from '#server/infra/worker-pool';
import { warmTemplateThumbnails } from '#server/features/templates/public-api';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROME_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface BrowserServer {
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** The whole app (built client included) on a free loopback port, fresh database and data dir. */
export async function startBrowserServer(env: Record<string, string> = {}): Promise<BrowserServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-e2e-'));
  // staff sign in with a password in browser tests unless a test sets STAFF_TWO_FACTOR=required (issue 39)
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'optional', ...env });
  const database = await createTestDatabase();
  const app = await buildApp({ config, database, serveWeb: true, checkResponses: true });
  await runSeeds(app.ctx);
  // the log is silent: a 5xx (which a test then reports as a console error or a status) says why here
  app.addHook('onError', async (req, _reply, err) => {
    const status = (err as { statusCode?: number }).statusCode;
    // a caller that went away, or a refusal (4xx): nothing to explain
    if ((status !== undefined && status < 500) || /closed before its answer/.test(String((err as Error)?.message))) return;
    process.stderr.write(`[browser server] error on ${req.method} ${req.url}: ${String((err as Error)?.stack ?? err).slice(0, 600)}\n`);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode >= 500) process.stderr.write(`[browser server] ${reply.statusCode} to ${req.method} ${req.url}: ${typeof payload === 'string' ? payload.slice(0, 300) : '(a stream or bytes)'}\n`);
    return payload;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // as src/server/server.ts does, the warm worker starts with the server; tests wait until it is
  // ready (from TypeScript source it takes a few seconds to load) so the first step is not timed on it
  await Promise.all([
    runTask('upload', 'sanitizeSvg', { text: '<svg xmlns="http://www.w3.org/2000/svg"/>' }, { timeoutMs: 120_000 }),
    workerPool().run('render', 'renderSvg', { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>', opts: { format: 'png' } }, { timeoutMs: 120_000 }),
  ]);
  // as the server does at start-up: the built-in templates' thumbnails are drawn before the first page
  await warmTemplateThumbnails(app.ctx);
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    async close() {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app (fresh database and data dir) and a browser, for one test file's `beforeAll`. */
export async function openBrowserSuite(env: Record<string, string> = {}): Promise<{ server: BrowserServer; browser: Browser }> {
  const [server, browser] = await Promise.all([startBrowserServer(env), launchBrowser()]);
  return { server, browser };
}

/** Stops what openBrowserSuite started (`afterAll`; either may be missing if starting failed). */
export async function closeBrowserSuite(suite: { server?: BrowserServer; browser?: Browser }): Promise<void> {
  await suite.browser?.close();
  await suite.server?.close();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS, headless: true });
}

export const MOBILE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export async function newContext(browser: Browser, baseUrl: string, opts: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, ...opts });
  // 20 s: two browser files run at once on two cores (decision 36-05); a passing step is no slower for it
  ctx.setDefaultTimeout(20_000);
  return ctx;
}

/** Registers a fresh account through the API in this browser context (its cookie is then set). */
export async function signUpViaApi(context: BrowserContext, overrides: Parameters<typeof userInput>[0] = {}) {
  const input = userInput(overrides);
  const res = await context.request.post('/api/auth/register', { data: input });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  return { input, user: await res.json() };
}

export async function loginViaApi(context: BrowserContext, email: string, password: string) {
  const res = await context.request.post('/api/auth/login', { data: { email, password } });
  if (res.status() !== 200) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** Collects uncaught page errors so a test can assert none happened. */
export function trackPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/** The text of the visible toast (sonner). */
export function toastLocator(page: Page) {
  return page.locator('[data-sonner-toast]');
}
