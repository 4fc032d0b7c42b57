import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, Agent, type TestApp } from '#tests/helpers/test-app';
import { adminAgent, signedInAgent } from '#tests/helpers/factories';
import { orderInput } from '#tests/helpers/orders';
import { startSmtpServer, waitFor, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { collectRoutes } from '#tests/helpers/route-table';
import { createTestDatabase } from '#tests/helpers/test-db';
import { buildApp } from '#server/app';
import { loadConfig } from '#server/env';

/**
 * CR/LF and injection strings through the fields that reach a contact file, an e-mail, a CSV
 * export or a log. Each field gets the hostile value; the server may refuse it (400) or keep it,
 * but what comes out must be inert: no extra vCard property or card, no extra e-mail header or
 * recipient, no raw markup in e-mail HTML, no spreadsheet formula, no forged log line.
 * Exports are found from the route table (every signed-in GET answering CSV or vCard).
 */
const table = collectRoutes();
let t: TestApp;
let smtp: TestSmtpServer;
let owner: Agent;
let admin: Agent;
let profileId: string;

const CRLF = ['a\r\nBcc: evil@evil.example', 'b\nX-Injected: 1', 'c\rEND:VCARD\rBEGIN:VCARD\rFN:Forged'];
const FORMULAS = ["=HYPERLINK(\"https://evil.example\",\"x\")", '+1+cmd|\' /C calc\'!A0', '-2+3', '@SUM(1+1)', '\t=1+1', ' =1+1'];
const MARKUP = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '</title><svg onload=alert(1)>'];
const VCARD = ['Doe;John;;;', 'x,y:z\\', 'line\nEND:VCARD\nBEGIN:VCARD\nFN:Forged\nEMAIL:evil@evil.example'];

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { RATE_LIMITS: 'off', SMTP_URL: smtp.url } });
  owner = (await signedInAgent(t.app)).agent;
  admin = (await adminAgent(t.app)).agent;
  const p = await owner.post('/api/profile', { fullName: 'Plain Owner' });
  profileId = p.json().id;
  // the owner runs a team, so its leads export is walked too (issue 21)
  await owner.post('/api/team', { name: 'Plain Team' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Tries each hostile value in each field; keeps the ones the server accepted. */
async function plant(send: (field: string, value: string) => Promise<number>, fields: string[], values: string[]) {
  const accepted: string[] = [];
  for (const f of fields) for (const v of values) if ((await send(f, v)) < 300) accepted.push(`${f}=${JSON.stringify(v)}`);
  return accepted;
}

describe('injection through fields that reach contact files, e-mails, CSV exports and logs', () => {
  it('contact files: profile fields with CR/LF and vCard syntax never add a property or a card', async () => {
    const fields = ['fullName', 'jobTitle', 'companyName', 'address', 'email', 'phoneNumber'];
    await plant(
      async (field, value) => (await owner.put(`/api/profile/${profileId}`, { fullName: 'Plain Owner', [field]: value })).statusCode,
      fields,
      [...CRLF, ...VCARD, ...MARKUP],
    );
    const vcfRoutes = table.routes().filter((r) => r.method === 'GET' && /vcard|\.vcf/.test(r.url));
    expect(vcfRoutes.length).toBeGreaterThan(0);
    const res = await new Agent(t.app).get(`/api/vcard/${profileId}`);
    expect(res.statusCode).toBe(200);
    const text = res.body.replace(/\r\n[ \t]/g, ''); // unfold
    const lines = text.split(/\r\n/).filter(Boolean);
    expect(lines.filter((l) => l === 'BEGIN:VCARD').length).toBe(1);
    expect(lines.filter((l) => l === 'END:VCARD').length).toBe(1);
    expect(text).not.toMatch(/\r(?!\n)|(?<!\r)\n/); // no bare CR or LF inside values
    expect(lines.filter((l) => /^(FN|EMAIL)[;:]/.test(l) && /Forged|evil@evil/.test(l))).toEqual([]);
    for (const l of lines) expect(l, `vCard line ${l}`).toMatch(/^([A-Za-z0-9-]+\.)?[A-Za-z-]+(;[^:]*)?:/);
  });

  it('e-mails: hostile order fields never add a header or a recipient, and HTML bodies escape markup', async () => {
    const before = smtp.messages.length;
    // e-mails queued earlier (e.g. sign-up verification links) are not this test's
    const outboxCount = async () => Number(((await t.app.ctx.db.execute(sql`select count(*)::int as n from outbox`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
    const queuedBefore = await outboxCount();
    await waitFor(() => smtp.messages.length >= queuedBefore, 'earlier e-mails delivered', 30_000);
    const delivered = smtp.messages.length;
    const fields = ['customerName', 'companyName', 'position', 'specialRequests', 'phone', 'email'];
    const accepted = await plant(
      async (field, value) => (await new Agent(t.app).post('/api/order', orderInput({ [field]: value }))).statusCode,
      fields,
      [...CRLF, ...MARKUP, ...FORMULAS.slice(0, 2)],
    );
    expect(accepted.length).toBeGreaterThan(0); // some hostile text is legitimately kept (names, notes)
    const n = (await outboxCount()) - queuedBefore;
    await waitFor(() => smtp.messages.length - delivered >= n, 'every queued e-mail delivered', 30_000);
    for (const m of smtp.messages.slice(before)) {
      expect(m.to.every((a) => !/evil/.test(a)), `recipients ${m.to}`).toBe(true);
      expect(m.header('bcc')).toBeUndefined();
      expect(m.header('x-injected')).toBeUndefined();
      const html = m.part('text/html') ?? '';
      expect(html).not.toMatch(/<script|<img src=x|<svg onload/i);
    }
  });

  it('CSV exports: no cell can start a spreadsheet formula', async () => {
    // a lead on the owner's profile, with formula-like text, when the lead form exists
    await owner.put('/api/profile/lead-form', { enabled: true });
    for (const v of FORMULAS) await new Agent(t.app).post('/api/order', orderInput({ customerName: v, companyName: v, position: v }));
    // leads with formula-like text (they reach the owner's and the team's exports), and a phone in international form
    for (const v of FORMULAS) await new Agent(t.app).post(`/api/p/${profileId}/leads`, { name: v, email: 'v@example.com', phone: '+1 646 555 0199', company: v, note: v, consent: true });
    const csvRoutes = table.routes().filter((r) => r.method === 'GET' && !/[:*]/.test(r.url) && r.url.endsWith('.csv'));
    expect(csvRoutes.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/admin/orders.csv', '/api/leads.csv', '/api/team/leads.csv']));
    const failures: string[] = [];
    for (const r of csvRoutes) {
      const agent = r.access === 'admin' ? admin : owner;
      const res = await agent.get(r.url);
      expect(res.statusCode, r.url).toBe(200);
      const rows = parseCsv(res.body.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
      // a number, or a phone number in international form (digits, spaces, + ( ) - . / only: nothing a spreadsheet can call), is data
      const harmless = (cell: string) => /^-?\d+(\.\d+)?$/.test(cell) || /^\+[\d\s().\-/]+$/.test(cell);
      for (const row of rows) for (const cell of row) if (/^\s*[=+\-@\t\r]/.test(cell) && !harmless(cell)) failures.push(`${r.url}: ${JSON.stringify(cell)}`);
    }
    expect(failures).toEqual([]);
  });

  it('logs: CR/LF in paths, query strings and ids never forge a log line', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _e, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-inj-'));
    const database = await createTestDatabase();
    const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'info' }), database, serveWeb: false, logger: { level: 'info', stream } as never });
    try {
      await app.inject({ method: 'GET', url: '/api/health?x=%0d%0a{"level":30,"msg":"FORGED"}' });
      await app.inject({ method: 'GET', url: '/api/%0aFORGED%0d%0a/x' });
      await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc%0d%0aFORGED', 'user-agent': 'ua\u2028FORGED' } });
      await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@example.com\r\n{"msg":"FORGED"}', password: 'pw\nFORGED' } });
      expect(lines.length).toBeGreaterThan(3);
      for (const l of lines) {
        const entry = JSON.parse(l) as { msg?: string };
        expect(entry.msg).not.toBe('FORGED');
      }
    } finally {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
