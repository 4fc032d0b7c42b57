import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, prepareDataDir, startServerProcess, type ServerProcess } from '#tests/helpers/server-process';
import { freePort, startSmtpServer, waitFor } from '#tests/helpers/smtp-server';
import { orderInput } from '#tests/helpers/orders';
import { openDatabase } from '#server/db/client';
import { sql } from 'drizzle-orm';

/**
 * Faults on the real server process (`node dist/server/server.js`, embedded database):
 * SIGTERM under load, kill -9 during a burst of orders, SMTP down then up.
 * Runs once, in the pglite project (each case starts its own process and data dir).
 */
const inPostgresProject = process.env.TEST_DB_KIND === 'postgres';

beforeAll(async () => {
  if (!inPostgresProject) await ensureServerBuilt();
}, 120_000);

/** One raw HTTP request; resolves with status and body, or the connection error's code. */
function request(port: number, method: string, url: string, body?: string, headers: Record<string, string> = {}, agent?: http.Agent): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, agent: agent ?? false, headers: { ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.setTimeout(15_000, () => req.destroy(new Error('ETIMEDOUT')));
    req.end(body);
  });
}

async function countOrdersByKey(dataDir: string, keys: string[]): Promise<Map<string, number>> {
  const db = await openDatabase({ dataDir });
  try {
    const r = await db.db.execute(sql`select idempotency_key as k, count(*)::int as n from orders where idempotency_key is not null group by 1`);
    const wanted = new Set(keys);
    return new Map((r as unknown as { rows: Array<{ k: string; n: number }> }).rows.filter((x) => wanted.has(x.k)).map((x) => [x.k, Number(x.n)]));
  } finally {
    await db.close();
  }
}

describe.skipIf(inPostgresProject)('fault: SIGTERM under load', () => {
  let s: ServerProcess;
  afterAll(async () => {
    await s?.stop('SIGKILL');
  });

  it('answers the requests in flight, refuses new ones with 503 (or a closed door), and exits within 10 s', { timeout: 60_000 }, async () => {
    s = await startServerProcess({ RATE_LIMITS: 'off' });
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });
    // warm keep-alive connections, so some new requests arrive on sockets that are already open
    await Promise.all(Array.from({ length: 4 }, () => request(s.port, 'GET', '/api/health', undefined, {}, keepAlive)));

    // orders whose bodies are still arriving when the signal comes: in flight for sure
    const held = Array.from({ length: 8 }, () => {
      const body = JSON.stringify(orderInput());
      let finish!: () => void;
      const done = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
        const req = http.request(
          { host: '127.0.0.1', port: s.port, method: 'POST', path: '/api/order', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'idempotency-key': `sigterm-${crypto.randomUUID()}` } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          },
        );
        req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
        req.write(body.slice(0, 20));
        finish = () => req.end(body.slice(20));
      });
      return { done, finish: () => finish() };
    });
    // the server has them all once it logged each as an incoming request
    await waitFor(() => s.logs.filter((l) => l.msg === 'incoming request' && (l.req as { url?: string })?.url === '/api/order').length >= held.length, 'the held orders to reach the server', 20_000);
    const signalledAt = Date.now();
    s.proc.kill('SIGTERM');
    await waitFor(() => s.logs.some((l) => /shutting down/.test(l.msg)), 'the server to start shutting down', 5000);
    const late = await Promise.all(Array.from({ length: 4 }, () => request(s.port, 'GET', '/api/health', undefined, {}, keepAlive)));
    for (const h of held) h.finish();

    for (const h of held) expect(await h.done).toMatchObject({ status: 201 });
    for (const r of late) {
      // on an open keep-alive socket Fastify answers 503; a new connection finds the door closed
      if ('status' in r) expect(r.status).toBe(503);
      else expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up']).toContain(r.error);
    }
    const code = await s.exit;
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(code).toBe(0);
    keepAlive.destroy();
    expect(s.stderr.join('')).toBe('');
  });
});

describe.skipIf(inPostgresProject)('fault: kill -9 during a burst of orders, then restart (embedded database)', () => {
  let dataDir: string;
  let s: ServerProcess | undefined;
  afterAll(async () => {
    await s?.stop('SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every acknowledged order is there after the restart, and client retries never make a second one', { timeout: 120_000 }, async () => {
    dataDir = await prepareDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-kill9-')));
    const port = String(await freePort());
    s = await startServerProcess({ RATE_LIMITS: 'off', DATA_DIR: dataDir, PORT: port });
    const N = 40;
    const keys = Array.from({ length: N }, (_, i) => `kill9-${i}-${crypto.randomBytes(6).toString('hex')}`);
    const bodies = keys.map(() => JSON.stringify(orderInput()));
    const acked = new Set<string>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < N) {
        const i = next++;
        if (!killed && acked.size >= 12) {
          killed = true;
          s!.proc.kill('SIGKILL');
        }
        const r = await request(Number(port), 'POST', '/api/order', bodies[i], { 'idempotency-key': keys[i] });
        if ('status' in r && r.status === 201) acked.add(keys[i]);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    expect(killed).toBe(true);
    await s.exit;
    expect(acked.size).toBeGreaterThanOrEqual(12);

    // restart on the same data dir
    s = await startServerProcess({ RATE_LIMITS: 'off', DATA_DIR: dataDir, PORT: port });
    // the client retries every order it sent, acknowledged or not, with the same key
    for (let i = 0; i < N; i++) {
      const r = await request(Number(port), 'POST', '/api/order', bodies[i], { 'idempotency-key': keys[i] });
      expect(r, `retry of order ${i}`).toMatchObject({ status: acked.has(keys[i]) ? 200 : expect.any(Number) });
      if ('status' in r) expect([200, 201]).toContain(r.status);
      if (acked.has(keys[i]) && 'status' in r) expect(JSON.parse(r.body).replayed).toBe(true);
    }
    await s.stop('SIGTERM');
    s = undefined;
    const counts = await countOrdersByKey(dataDir, keys);
    const lost = [...acked].filter((k) => !counts.has(k));
    const doubled = [...counts].filter(([, n]) => n > 1);
    expect(lost).toEqual([]);
    expect(doubled).toEqual([]);
    expect(counts.size).toBe(N);
  });
});

describe.skipIf(inPostgresProject)('fault: SMTP down, then up', () => {
  let s: ServerProcess | undefined;
  afterAll(async () => {
    await s?.stop('SIGKILL');
  });

  it('orders succeed while SMTP is down; once it is back every e-mail arrives exactly once', { timeout: 90_000 }, async () => {
    const smtpPort = await freePort(); // nothing listens there yet: SMTP is down
    s = await startServerProcess({ RATE_LIMITS: 'off', SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    const N = 6;
    for (let i = 0; i < N; i++) {
      const r = await request(s.port, 'POST', '/api/order', JSON.stringify(orderInput({ email: `down${i}@example.com` })), { 'idempotency-key': `smtp-down-${i}-${crypto.randomUUID()}` });
      expect(r).toMatchObject({ status: 201 });
    }
    // the worker tries, fails and backs off
    await waitFor(() => s!.logs.some((l) => /e-mail send failed/.test(l.msg)), 'a failed send attempt', 15_000);
    const smtp = await startSmtpServer(smtpPort);
    try {
      await waitFor(() => new Set(smtp.messages.flatMap((m) => m.to)).size >= N, `${N} e-mails after SMTP came back`, 45_000);
      // quiet period: nothing more arrives
      const count = smtp.messages.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(smtp.messages.length).toBe(count);
      const ids = smtp.messages.map((m) => m.messageId);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 0; i < N; i++) expect(smtp.messages.filter((m) => m.to.includes(`down${i}@example.com`)).length).toBe(1);
    } finally {
      await s.stop('SIGTERM');
      s = undefined;
      await smtp.close();
    }
  });
});
