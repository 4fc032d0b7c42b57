/**
 * Print files (issue 22): the print PDF of one card, both sides, made like staff and the ZIP export
 * ask for it (`renderPrintFiles`: the card read, filled, simplified by usvg, written by pdfkit on the
 * worker pool, the SVG beside it). Bar: median <= 300 ms over 30 runs after 3 warm-ups. The card is
 * a Modern design (template 18) with a full profile and a logo, on Standard Metal.
 * Run alone: `npx tsx bench/print.ts` (--write merges the bars into bench/report.json and re-renders
 * report.md), or from `npm run bench`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { runSeeds } from '../src/server/seeds';
import { profiles } from '../src/server/db/schema/index';
import { saveFile } from '../src/server/infra/files';
import { renderPrintFiles } from '../src/server/features/print/public-api';
import { signedInAgent } from '../tests/helpers/factories';
import { insertDesignWithOrder, insertProfile } from '../tests/helpers/admin-factories';

const RUNS = Number(process.env.BENCH_PRINT_RUNS ?? 30);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
interface Bar {
  db?: string;
  what: string;
  bar: string;
  figure: string;
  status: 'pass' | 'fail' | 'n/a';
}

const quantile = (ms: number[], p: number) => {
  const s = [...ms].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10;
};

export async function run(): Promise<{ bars: Bar[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-print-'));
  const database = await openDatabase({ memory: true });
  await runMigrations(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, RATE_LIMITS: 'off', PUBLIC_URL: 'https://cards.bench.test' });
  const app = await buildApp({ config, database, serveWeb: false });
  try {
    await app.ready();
    await runSeeds(app.ctx);
    const { user } = await signedInAgent(app, { firstName: 'Bench', lastName: 'Printer' });
    const profile = await insertProfile(app, user.id, { fullName: 'Alexandra Bench-Printer', email: 'alexandra@bench.test', jobTitle: 'Head of Production' });
    // a 1,200 px logo, stored like an upload
    const logo = await sharp({ create: { width: 1200, height: 800, channels: 4, background: { r: 240, g: 240, b: 240, alpha: 1 } } })
      .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><circle cx="600" cy="400" r="300" fill="#000"/></svg>') }])
      .png()
      .toBuffer();
    const f = await saveFile(app.ctx, { userId: user.id, kind: 'logo', prefix: 'logos', data: logo, mimeType: 'image/png', ext: 'png', width: 1200, height: 800 });
    await app.ctx.db.update(profiles).set({ logoUrl: f.url }).where(eq(profiles.id, profile.id));
    const { design } = await insertDesignWithOrder(app, {
      userId: user.id,
      profileId: profile.id,
      templateId: 18,
      qrCodeUrl: `https://cards.bench.test/p/${profile.id}`,
      customerProfile: {
        fullName: 'Alexandra Bench-Printer',
        jobTitle: 'Head of Production',
        companyName: 'Metal Cards NYC',
        email: 'alexandra@bench.test',
        phoneNumber: '+1 212 555 0147',
        website: 'https://metalcards.example',
        address: '1 Broadway, New York, NY',
      },
    });
    for (let i = 0; i < 3; i++) await renderPrintFiles(app.ctx, design.id);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const out = await renderPrintFiles(app.ctx, design.id);
      times.push(performance.now() - t0);
      bytes = out.pdf.length;
    }
    const median = quantile(times, 0.5);
    return {
      bars: [
        {
          what: 'Print: print PDF of one card, both sides (renderPrintFiles, worker pool)',
          bar: 'median <= 300 ms',
          figure: `median ${median} ms, p90 ${quantile(times, 0.9)} ms (${RUNS} runs; PDF ${Math.round(bytes / 1024)} KB with the SVG beside it)`,
          status: median <= 300 ? 'pass' : 'fail',
        },
      ],
    };
  } finally {
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  run()
    .then(({ bars }) => {
      for (const b of bars) console.log(`${b.status.toUpperCase()} ${b.what}: ${b.figure} (bar ${b.bar})`);
      if (process.argv.includes('--write')) {
        const file = path.join(root, 'bench/report.json');
        const report = JSON.parse(fs.readFileSync(file, 'utf8'));
        report.bars = [...(report.bars as Bar[]).filter((b) => !b.what.startsWith('Print:')), ...bars];
        report.features = { ...(report.features ?? {}), print: { bars, measuredAt: new Date().toISOString() } };
        fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
        spawnSync('npx', ['tsx', 'bench/run.ts', '--report-only'], { cwd: root, stdio: 'inherit' });
      }
      process.exit(0);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
