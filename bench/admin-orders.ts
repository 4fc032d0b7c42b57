/**
 * Staff area at scale: 100,000 orders on the embedded database, then the admin calls an admin makes,
 * each timed over several runs through the real app (app.inject). Prints medians and p95 in ms.
 * Run alone: `npx tsx bench/admin-orders.ts` (or from `npm run bench`, which imports `run`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { Agent } from '../tests/helpers/test-app';
import { adminAgent } from '../tests/helpers/factories';
import { insertManyOrders } from '../tests/helpers/admin-factories';

const ORDERS = Number(process.env.BENCH_ADMIN_ORDERS ?? 100_000);
const RUNS = 7;

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: Math.round(q(0.5) * 10) / 10, p95: Math.round(q(0.95) * 10) / 10 };
}

export async function run(): Promise<Record<string, { median: number; p95: number }>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-admin-'));
  const database = await openDatabase({ memory: true });
  await runMigrations(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, RATE_LIMITS: 'off', STAFF_TWO_FACTOR: 'optional' });
  const app = await buildApp({ config, database, serveWeb: false });
  await app.ready();
  try {
    await insertManyOrders(app, ORDERS, 'bench.example.org');
    const { agent } = await adminAgent(app);
    const calls: Record<string, string> = {
      'orders, first page (no search)': '/api/admin/orders',
      'orders, page 200 (no search)': '/api/admin/orders?page=200',
      'search: part of one e-mail': `/api/admin/orders?q=${encodeURIComponent(`bulk${Math.floor(ORDERS / 2)}@`)}`,
      'search: common term (every row)': '/api/admin/orders?q=bench.example',
      'search: no match': '/api/admin/orders?q=nobody-has-this',
      'search: order id': `/api/admin/orders?q=%23${Math.floor(ORDERS / 3)}`,
      'stats (overview, polled 60 s)': '/api/admin/stats',
      'customers, first page': '/api/admin/customers',
      'customers, search': '/api/admin/customers?q=bulk4242@',
      'CSV export of a search (1 row)': `/api/admin/orders.csv?q=bulk4242@`,
    };
    const out: Record<string, { median: number; p95: number }> = {};
    for (const [label, url] of Object.entries(calls)) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const res = await (agent as Agent).get(url);
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      out[label] = stats(times.slice(1)); // the first run warms caches
    }
    return out;
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await run();
  console.log(`Admin calls with ${ORDERS.toLocaleString('en-US')} orders (embedded PGlite), ms:`);
  for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(36)} median ${String(v.median).padStart(7)}   p95 ${String(v.p95).padStart(7)}`);
}
