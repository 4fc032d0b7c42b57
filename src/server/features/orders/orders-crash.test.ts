import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { orderInput } from '#tests/helpers/orders';
import { freePort, startSmtpServer, waitFor, type TestSmtpServer } from '#tests/helpers/smtp-server';
import { sql } from 'drizzle-orm';
import { projectRoot } from '#server/infra/paths';
import { openDatabase } from '#server/db/client';

/**
 * kill -9 of the real server during a burst of orders, then a restart on the same data dir:
 * every acknowledged order is stored exactly once with its e-mail queued once; the client's
 * retries (same Idempotency-Key) of the unanswered ones make no duplicates; after the restart the
 * e-mails go out over SMTP exactly once each.
 */

const root = projectRoot();
let work: string;
let serverJs: string;
let dataDir: string;
const children: ChildProcess[] = [];
// in the "postgres" project the server runs on a scratch database of that server instead of PGlite
const pgBase = process.env.TEST_DB_KIND === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
let databaseUrl: string | undefined;
let scratchDb: string | undefined;

beforeAll(async () => {
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  work = fs.mkdtempSync(path.join(root, '.tmp', 'h6-crash-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-crash-'));
  // the production bundle, built the way scripts/build.mjs does it (kept apart from dist/), the
  // aliases read from package.json `imports` by the same plugin (decision 34-03)
  const { packageImportsPlugin } = (await import(pathToFileURL(path.join(root, 'scripts/package-imports.mjs')).href)) as { packageImportsPlugin(root: string): import('esbuild').Plugin };
  await build({
    plugins: [packageImportsPlugin(root)],
    // with the embedded database's thread beside it (decision 18-05): acknowledged orders must
    // survive kill -9 when PGlite runs on its own thread, as the server runs it
    entryPoints: { server: path.join(root, 'src/server/server.ts'), 'pglite-thread': path.join(root, 'src/server/db/pglite-thread.ts') },
    outdir: work,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    jsx: 'automatic',
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  serverJs = path.join(work, 'server.js');
  if (pgBase) {
    scratchDb = `crash_${crypto.randomBytes(6).toString('hex')}`;
    const admin = await openDatabase({ databaseUrl: pgBase, poolSize: 1 });
    await admin.db.execute(sql.raw(`create database ${scratchDb}`));
    await admin.close();
    const u = new URL(pgBase);
    u.pathname = `/${scratchDb}`;
    databaseUrl = u.toString();
  }
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgBase && scratchDb) {
    const admin = await openDatabase({ databaseUrl: pgBase, poolSize: 1 });
    await admin.db.execute(sql.raw(`drop database if exists ${scratchDb} with (force)`)).catch(() => undefined);
    await admin.close();
  }
});

async function startServer(port: number, env: Record<string, string>): Promise<{ child: ChildProcess; base: string; log: () => string }> {
  let output = '';
  const child = spawn(process.execPath, [serverJs], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output}`);
      try {
        return (await fetch(`${base}/api/health`)).ok;
      } catch {
        return false;
      }
    },
    'the server to answer /api/health',
    150_000,
  );
  return { child, base, log: () => output };
}

interface Attempt {
  key: string;
  input: ReturnType<typeof orderInput>;
  acked?: { orderId: number };
}

async function submit(base: string, a: Attempt): Promise<void> {
  try {
    const res = await fetch(`${base}/api/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': a.key },
      body: JSON.stringify(a.input),
      signal: AbortSignal.timeout(20_000),
    });
    if (res.status === 201 || res.status === 200) a.acked = { orderId: (await res.json()).orderId };
  } catch {
    // connection reset by the kill: not acknowledged
  }
}

describe('kill -9 during a burst of orders', () => {
  let smtp: TestSmtpServer;
  afterAll(async () => {
    await smtp?.close();
  });

  it('keeps every acknowledged order once and sends each e-mail once after the restart', async () => {
    const port = await freePort();
    const first = await startServer(port, {});

    const attempts: Attempt[] = Array.from({ length: 60 }, (_, i) => ({
      key: `crash-${crypto.randomUUID()}`,
      input: orderInput({ email: `crash_${i}_${crypto.randomBytes(3).toString('hex')}@example.com`, quantity: 100 + i }),
    }));

    // a bounded burst: 6 at a time; kill -9 once 15 orders have been acknowledged
    let next = 0;
    let killed = false;
    const acked = () => attempts.filter((a) => a.acked).length;
    const worker = async () => {
      while (!killed && next < attempts.length) {
        const a = attempts[next++];
        await submit(first.base, a);
        if (!killed && acked() >= 15) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    await waitFor(() => first.child.signalCode === 'SIGKILL' || first.child.exitCode !== null, 'the killed server to exit');
    const ackedBefore = attempts.filter((a) => a.acked);
    expect(ackedBefore.length).toBeGreaterThanOrEqual(15);
    expect(ackedBefore.length).toBeLessThan(attempts.length); // the kill came mid-burst

    // restart on the same data dir, now with SMTP
    smtp = await startSmtpServer();
    const second = await startServer(port, { SMTP_URL: smtp.url });

    // the client retries everything it has no answer for, with the same keys (and sends the rest)
    for (const a of attempts.filter((x) => !x.acked)) await submit(second.base, a);
    expect(attempts.every((a) => a.acked), second.log()).toBe(true);
    // answers before and after the crash agree
    for (const a of ackedBefore) {
      const again: Attempt = { key: a.key, input: a.input };
      await submit(second.base, again);
      expect(again.acked!.orderId).toBe(a.acked!.orderId);
    }

    // e-mails: one per order, none twice (the outbox queued each once; SMTP gets each once)
    await waitFor(() => smtp.messages.length >= attempts.length, `${attempts.length} e-mails`, 60_000);
    const ids = new Set<number>(attempts.map((a) => a.acked!.orderId));
    expect(ids.size).toBe(attempts.length);
    for (const a of attempts) {
      const got = smtp.messages.filter((m) => m.to.includes(a.input.email));
      expect(got, a.input.email).toHaveLength(1);
      expect(got[0].subject).toBe(`Order #${a.acked!.orderId} received - Metal Cards NYC`);
    }
    expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(smtp.messages.length);

    second.child.kill('SIGTERM');
    await waitFor(() => second.child.exitCode !== null || second.child.signalCode !== null, 'the server to stop', 15_000);

    // the database itself: each order once, each with one history row and one outbox e-mail, all sent
    const db = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir });
    try {
      const rows = (await db.db.execute(sql`
        select o.id, o.email, o.idempotency_key as key,
          (select count(*)::int from order_status_history h where h.order_id = o.id) as history,
          (select count(*)::int from outbox m where m.dedupe_key = 'order-received:' || o.id) as mails,
          (select min(m.status) from outbox m where m.dedupe_key = 'order-received:' || o.id) as mail_status
        from orders o order by o.id`)) as any;
      const list = rows.rows as Array<{ id: number; email: string; key: string; history: number; mails: number; mail_status: string }>;
      expect(list).toHaveLength(attempts.length);
      for (const a of attempts) {
        const mine = list.filter((r) => r.key === a.key);
        expect(mine, a.key).toHaveLength(1);
        expect(mine[0]).toMatchObject({ id: a.acked!.orderId, email: a.input.email, history: 1, mails: 1, mail_status: 'sent' });
      }
    } finally {
      await db.close();
    }
  }, 420_000);
});
