import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { adminAgent } from '#tests/helpers/factories';
import { freePort, startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { linkChecks, outbox } from '#server/db/schema/index';
import type { TestingSummary } from '#shared/schemas/admin';
import type { Storage } from '#server/infra/storage';
import { crawlSite, extractLinks } from './link-checker';

const apps: TestApp[] = [];
let smtp: TestSmtpServer | undefined;
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
  await smtp?.close();
  smtp = undefined;
});
afterAll(async () => {
  await smtp?.close();
});

async function summaryOf(t: TestApp): Promise<TestingSummary> {
  const { agent } = await adminAgent(t.app);
  const res = await agent.get('/api/admin/testing-summary');
  expect(res.statusCode).toBe(200);
  return res.json();
}
const check = (s: TestingSummary, id: string) => s.checks.find((c) => c.id === id)!;

describe('testing summary: real checks', () => {
  it('with nothing configured: database and storage pass, e-mail and store are "not configured", link check unknown', async () => {
    const t = await createTestApp();
    apps.push(t);
    const s = await summaryOf(t);
    expect(check(s, 'database')).toMatchObject({ status: 'pass', ms: expect.any(Number) });
    expect(check(s, 'storage')).toMatchObject({ status: 'pass' });
    expect(check(s, 'email')).toMatchObject({ status: 'off' });
    expect(check(s, 'email').detail).toMatch(/outbox/);
    expect(check(s, 'store')).toMatchObject({ status: 'off' });
    expect(check(s, 'outbox')).toMatchObject({ status: 'pass' });
    expect(check(s, 'links')).toMatchObject({ status: 'unknown' });
    expect(s.lastUpdated).toBe('Unknown');
    expect(s.systemHealth).toBe('Healthy');
    expect(s.linkCheck).toBeNull();
  });

  it('verifies a real SMTP server, and reports a dead one as failing', async () => {
    smtp = await startSmtpServer();
    const ok = await createTestApp({ env: { SMTP_URL: smtp.url } });
    apps.push(ok);
    expect(check(await summaryOf(ok), 'email')).toMatchObject({ status: 'pass' });

    const deadPort = await freePort();
    const dead = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${deadPort}` } });
    apps.push(dead);
    const s = await summaryOf(dead);
    expect(check(s, 'email').status).toBe('fail');
    expect(check(s, 'email').detail).toMatch(/SMTP check failed/);
    expect(s.systemHealth).toBe('Failing');
  });

  it('reports a broken storage and failed e-mails', async () => {
    const broken: Storage = {
      kind: 'disk',
      async put() {
        throw new Error('disk full');
      },
      async get() {
        return null;
      },
      async delete() {},
      async check() {},
    };
    const t = await createTestApp({ storage: broken });
    apps.push(t);
    await t.app.ctx.db.insert(outbox).values({ dedupeKey: 'x:1', kind: 'test', toAddress: 'a@example.com', subject: 's', textBody: 't', htmlBody: 'h', status: 'failed' });
    const s = await summaryOf(t);
    expect(check(s, 'storage')).toMatchObject({ status: 'fail' });
    expect(check(s, 'storage').detail).toContain('disk full');
    expect(check(s, 'outbox')).toMatchObject({ status: 'fail' });
    expect(s.outbox.failed).toBe(1);
    expect(s.systemHealth).toBe('Failing');
  });

  it('names the store when it is configured', async () => {
    const t = await createTestApp({ env: { SHOPIFY_STORE_DOMAIN: 'metal-cards.myshopify.com', SHOPIFY_STOREFRONT_TOKEN: 'token-123' } });
    apps.push(t);
    expect(check(await summaryOf(t), 'store')).toMatchObject({ status: 'pass', detail: expect.stringContaining('metal-cards.myshopify.com') });
  });

  it('link check crawls the site and becomes the last update of the summary', async () => {
    const t = await createTestApp();
    apps.push(t);
    const { agent } = await adminAgent(t.app);
    const run = await agent.post('/api/admin/link-check');
    expect(run.statusCode).toBe(200);
    const result = run.json();
    expect(result.totalPages).toBeGreaterThan(10);
    const [row] = await t.app.ctx.db.select().from(linkChecks).orderBy(desc(linkChecks.id)).limit(1);
    expect(row.totalPages).toBe(result.totalPages);
    const urls = ((row.details as any).entries as Array<{ url: string }>).map((e) => e.url);
    expect(urls).toContain('/');
    expect(urls).toContain('/admin');
    const s = (await agent.get('/api/admin/testing-summary')).json() as TestingSummary;
    expect(s.lastUpdated).toBe(row.checkedAt.toISOString());
    expect(s.linkCheck).toMatchObject({ id: row.id, totalPages: row.totalPages, okPages: row.okPages });
  });
});

describe('link crawler', () => {
  const site: Record<string, { status: number; html?: string; type?: string }> = {
    '/': { status: 200, html: '<a href="/about">About</a> <a href="https://elsewhere.example/x">out</a> <a href="mailto:a@b.c">m</a> <script src="/assets/app.js"></script> <a href="#top">top</a>' },
    '/about': { status: 200, html: "<a href='/team?x=1&amp;y=2'>Team</a> <a href=/missing>gone</a> <img src=\"logo.png\"> <a href=\"//elsewhere.example/y\">proto</a>" },
    '/team?x=1&y=2': { status: 200, html: '<a href="/">home</a>' },
    '/assets/app.js': { status: 200, type: 'text/javascript' },
    '/logo.png': { status: 200, type: 'image/png' },
  };
  const fetchPage = async (p: string) => {
    const page = site[p];
    if (!page) return { statusCode: 404, contentType: 'text/html', body: '<h1>Not found</h1><a href="/never-followed">x</a>' };
    return { statusCode: page.status, contentType: page.type ?? 'text/html; charset=utf-8', body: page.html ?? '' };
  };

  it('follows same-origin links once, never leaves the site, records broken ones with the page that linked them', async () => {
    const r = await crawlSite(fetchPage, { start: ['/'], origin: 'http://site.test' });
    const urls = r.entries.map((e) => e.url).sort();
    expect(urls).toEqual(['/', '/about', '/assets/app.js', '/logo.png', '/missing', '/team?x=1&y=2']);
    expect(r.totalPages).toBe(6);
    expect(r.okPages).toBe(5);
    expect(r.entries.find((e) => e.url === '/missing')).toEqual({ url: '/missing', status: 404, from: '/about' });
  });

  it('stops at the page limit', async () => {
    const many = async (p: string) => ({ statusCode: 200, contentType: 'text/html', body: `<a href="${p}x">next</a>` });
    const r = await crawlSite(many, { start: ['/a'], origin: 'http://site.test', maxPages: 20 });
    expect(r.totalPages).toBe(20);
    expect(r.truncated).toBe(true);
  });

  it('extracts links relative to the page', () => {
    expect(extractLinks('<a href="b">b</a><a href="../c">c</a><link rel="stylesheet" href="/s.css">', '/x/y', 'http://site.test').sort()).toEqual(['/c', '/s.css', '/x/b']);
  });
});
