/**
 * The public profile page behind every metal card, under load: `GET /p/{id}` (server-rendered,
 * gzip, visit recorded) against `GET /api/health` in the same run, both at 50 connections, on a
 * real listening server (loopback). Also the page weight (HTML with its inlined CSS, gzip).
 * Bars (guide): throughput >= 40% of health, p99 <= 50 ms, weight <= 30 KB gzip.
 * Run alone: `npx tsx bench/public-profile.ts` (or from `npm run bench`, which imports `run`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { signedInAgent } from '../tests/helpers/factories';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
// a phone: the page counts the visit (bots are not counted)
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Load {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

function load(url: string): Promise<Load> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: DURATION_S, headers: { 'user-agent': PHONE_UA, 'accept-encoding': 'gzip' } },
      (err: Error | null, r: any) => {
        if (err) return reject(err);
        resolve({ requestsPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, total: r.requests.total });
      },
    );
  });
}

export async function run() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-profile-'));
  const database = await openDatabase({ memory: true });
  await runMigrations(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'production', DATA_DIR: dataDir, RATE_LIMITS: 'off' });
  const app = await buildApp({ config, database, serveWeb: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const { agent } = await signedInAgent(app);
    const created = await agent.post('/api/profile', {
      fullName: 'Benchmark Person',
      jobTitle: 'Head of Performance',
      email: 'bench@example.com',
      phoneNumber: '+1 (212) 555-0100',
      address: '350 5th Ave, New York, NY 10118',
      companyName: 'Load & Co.',
      profileTemplate: 'modern',
      links: [
        { linkType: 'website', url: 'https://bench.example.com' },
        { linkType: 'linkedin', url: 'https://www.linkedin.com/in/bench' },
        { linkType: 'github', url: 'https://github.com/bench' },
      ],
    });
    if (created.statusCode !== 201) throw new Error(`profile: ${created.statusCode} ${created.body}`);
    const id = created.json().id as string;

    // page weight: HTML + inlined CSS, as a browser receives it
    const page = await fetch(`${base}/p/${id}`, { headers: { 'user-agent': PHONE_UA } });
    const html = Buffer.from(await page.arrayBuffer());
    const weightGzipBytes = zlib.gzipSync(html, { level: 9 }).length;

    // warm up, then measure the two in the same run
    await load(`${base}/api/health`);
    const health = await load(`${base}/api/health`);
    const profile = await load(`${base}/p/${id}`);

    // every view was recorded (flushed by the visit job)
    await app.close();
    const visits = Number(((await database.db.execute(sql`select count(*)::int n from visits where profile_id = ${id}`)) as any).rows[0].n);

    const ratio = profile.requestsPerSec / Math.max(1, health.requestsPerSec);
    return {
      health,
      profilePage: profile,
      throughputRatio: Math.round(ratio * 1000) / 1000,
      pageWeightGzipKB: Math.round((weightGzipBytes / 1024) * 10) / 10,
      pageWeightRawKB: Math.round((html.length / 1024) * 10) / 10,
      visitsRecorded: visits,
      everyViewRecorded: visits === profile.total,
      bars: {
        throughputAtLeast40Percent: ratio >= 0.4,
        p99AtMost50ms: profile.p99 <= 50,
        weightAtMost30KB: weightGzipBytes <= 30 * 1024,
      },
    };
  } finally {
    await app.close().catch(() => undefined);
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  run()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
