/**
 * `POST /api/order` under load: 20 connections for a fixed time against a real listening server on
 * the embedded database kept on disk (as in production), each request a new order with its own
 * Idempotency-Key. Afterwards every acknowledged order must be in the database once, with its
 * e-mail in the outbox once.
 * Bar (guide): p99 <= 250 ms at 20 connections; every acknowledged order stored.
 * Run alone: `npx tsx bench/order.ts` (or from `npm run bench`, which imports `run`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { CARD_STYLES, CARD_TYPES, DELIVERY_OPTIONS } from '../src/shared/catalogue';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_ORDER_SECONDS ?? 10);
export const ORDER_P99_BAR_MS = 250;
const WARMUP = 60;

export interface OrderBenchResult {
  connections: number;
  durationSeconds: number;
  requestsPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  acknowledged: number;
  warmupOrders: number;
  non2xx: number;
  errors: number;
  storedOrders: number;
  queuedEmails: number;
  everyAcknowledgedOrderStored: boolean;
  p99Bar: number;
  pass: boolean;
}

let seq = 0;
function orderBody(): string {
  const i = seq++;
  return JSON.stringify({
    customerName: `Bench Customer ${i}`,
    email: `bench${i}@bench-orders.example`,
    phone: '+1 212 555 0100',
    companyName: 'Load & Co.',
    position: 'Buyer',
    quantity: 100 + (i % 400),
    cardType: CARD_TYPES[i % CARD_TYPES.length].id,
    cardStyle: CARD_STYLES[i % CARD_STYLES.length],
    deliveryOption: DELIVERY_OPTIONS[i % DELIVERY_OPTIONS.length].id,
    specialRequests: 'Benchmark order',
    // every delivery but pickup carries an address (issue 35)
    shippingAddress: { name: 'Bench Customer', line1: '1 Bench Street', city: 'Brooklyn', state: 'NY', postalCode: '11205', country: 'US' },
  });
}

export async function run(): Promise<OrderBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-order-'));
  // on disk, like production (commits reach the file system); BENCH_ORDER_DB=memory for comparison
  const database = await openDatabase(process.env.BENCH_ORDER_DB === 'memory' ? { memory: true } : { dataDir });
  await runMigrations(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'production', DATA_DIR: dataDir, RATE_LIMITS: 'off' });
  const app = await buildApp({ config, database, serveWeb: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    // warm up (JIT, lazily loaded code, database caches): a running server is warm
    for (let i = 0; i < WARMUP; i++) {
      const res = await fetch(`${url}/api/order`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }, body: orderBody() });
      if (res.status !== 201) throw new Error(`warm-up order: ${res.status} ${await res.text()}`);
    }
    const r: any = await new Promise((resolve, reject) => {
      autocannon(
        {
          url,
          connections: CONNECTIONS,
          duration: DURATION_S,
          requests: [
            {
              method: 'POST',
              path: '/api/order',
              setupRequest: (req: any) => ({
                ...req,
                headers: { ...req.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
                body: orderBody(),
              }),
            },
          ],
        },
        (err: Error | null, result: any) => (err ? reject(err) : resolve(result)),
      );
    });
    const count = async (q: ReturnType<typeof sql>) => Number(((await app.ctx.db.execute(q)) as any).rows[0].n);
    const storedOrders = await count(sql`select count(*)::int as n from orders where email like '%@bench-orders.example'`);
    const queuedEmails = await count(sql`select count(*)::int as n from outbox where kind = 'order-received' and to_address like '%@bench-orders.example'`);
    const acknowledged = r['2xx'] as number;
    // stored may exceed acknowledged by the requests still in flight when the run stopped
    const everyAcknowledgedOrderStored = storedOrders >= acknowledged + WARMUP && queuedEmails === storedOrders;
    return {
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      requestsPerSec: Math.round(r.requests.average),
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      acknowledged,
      warmupOrders: WARMUP,
      non2xx: r.non2xx,
      errors: r.errors,
      storedOrders,
      queuedEmails,
      everyAcknowledgedOrderStored,
      p99Bar: ORDER_P99_BAR_MS,
      pass: r.latency.p99 <= ORDER_P99_BAR_MS && everyAcknowledgedOrderStored && r.non2xx === 0,
    };
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const res = await run();
  console.log(`POST /api/order, ${res.connections} connections, ${res.durationSeconds} s (embedded PGlite ${process.env.BENCH_ORDER_DB === 'memory' ? 'in memory' : 'on disk'}):`);
  console.log(`  ${res.requestsPerSec} req/s   p50 ${res.p50} ms   p90 ${res.p90} ms   p99 ${res.p99} ms   (bar: p99 <= ${res.p99Bar} ms)`);
  console.log(`  acknowledged ${res.acknowledged} (+${res.warmupOrders} warm-up), stored ${res.storedOrders}, e-mails queued ${res.queuedEmails}, non-2xx ${res.non2xx}, errors ${res.errors}`);
  console.log(`  ${res.pass ? 'PASS' : 'FAIL'}`);
}
