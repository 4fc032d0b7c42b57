/**
 * Card rendering: front + back JPEG of a filled template (the design submission's render) and a
 * cached thumbnail served through the real app (app.inject, ETag/304 and full body).
 * Bars (guide): render median <= 100 ms; cached thumbnail median < 5 ms.
 * Run alone: `npx tsx bench/card-render.ts` (or from `npm run bench`, which imports `run`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { runSeeds } from '../src/server/seeds';
import { SAMPLE_CARD } from '../src/shared/templates/fields';
import { getTemplate, renderCard } from '../src/server/features/templates/templates.service';

const RUNS = Number(process.env.BENCH_RENDER_RUNS ?? 25);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: Math.round(q(0.5) * 10) / 10, p95: Math.round(q(0.95) * 10) / 10 };
}

export async function run(): Promise<Record<string, { median: number; p95: number }>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-render-'));
  const database = await openDatabase({ memory: true });
  await runMigrations(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, RATE_LIMITS: 'off' });
  const app = await buildApp({ config, database, serveWeb: false });
  await runSeeds(app.ctx);
  await app.ready();
  const out: Record<string, { median: number; p95: number }> = {};
  try {
    for (const id of [15, 16, 17, 18]) {
      const t = await getTemplate(app.ctx, { id });
      const times: number[] = [];
      for (let i = 0; i < RUNS + 2; i++) {
        const t0 = performance.now();
        await renderCard(app.ctx, t, { data: SAMPLE_CARD, qrUrl: 'https://metalcards.example/p/ab3kx9mq' }, 'jpeg');
        times.push(performance.now() - t0);
      }
      out[`front + back JPEG, template ${id} (${t.name})`] = stats(times.slice(2));
    }
    const url = '/api/template-thumbnail/17/front?v=1';
    const first = await app.inject({ method: 'GET', url });
    if (first.statusCode !== 200) throw new Error(`${url}: ${first.statusCode}`);
    const etag = String(first.headers.etag);
    for (const [label, headers] of [
      ['cached thumbnail, full body', {}],
      ['cached thumbnail, If-None-Match (304)', { 'if-none-match': etag }],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < RUNS * 4; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers });
        times.push(performance.now() - t0);
        if (res.statusCode !== 200 && res.statusCode !== 304) throw new Error(`${url}: ${res.statusCode}`);
      }
      out[label] = stats(times.slice(5));
    }
    return out;
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  for (const [k, v] of Object.entries(r)) console.log(`${k.padEnd(48)} median ${String(v.median).padStart(7)} ms   p95 ${String(v.p95).padStart(7)} ms`);
}
