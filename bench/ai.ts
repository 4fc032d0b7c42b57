/**
 * The design assistant's built-in engine: palette, suggestions and feedback (pure functions, and
 * through the real app with app.inject), and local background removal of a 1024 px picture.
 * Bars (issue 9): palette and suggestions median <= 20 ms; background removal of 1024 px median <= 2 s.
 * Run alone: `npx tsx bench/ai.ts` (or from `npm run bench`, which imports `run`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/env';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { generateColorPalette } from '../src/server/features/ai/engine/palette';
import { generateDesignSuggestions } from '../src/server/features/ai/engine/suggestions';
import { generateDesignFeedback } from '../src/server/features/ai/engine/feedback';
import { AiPaletteCreateBody, AiFeedbackCreateBody, AiSuggestionCreateBody, INDUSTRIES, MOODS } from '../src/shared/schemas/ai';
import { removeBackgroundLocally } from '../src/server/features/ai/ai.service';
import { signedInAgent } from '../tests/helpers/factories';
import { logoImage } from '../tests/helpers/ai-images';
import { multipartBody } from '../tests/helpers/multipart';

const RUNS = Number(process.env.BENCH_AI_RUNS ?? 60);
const IMAGE_RUNS = Number(process.env.BENCH_AI_IMAGE_RUNS ?? 9);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: Math.round(q(0.5) * 100) / 100, p95: Math.round(q(0.95) * 100) / 100 };
}

async function time(n: number, fn: (i: number) => unknown | Promise<unknown>, warmup = 3) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return stats(out);
}

export async function run(): Promise<Record<string, { median: number; p95: number }>> {
  const out: Record<string, { median: number; p95: number }> = {};

  // ---- pure engine (varied inputs so nothing is cached) ----
  const paletteInputs = Array.from({ length: RUNS }, (_, i) =>
    AiPaletteCreateBody.parse({ baseColor: '#' + ((i * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6), mood: MOODS[i % MOODS.length], industry: INDUSTRIES[i % INDUSTRIES.length] }),
  );
  out['engine: color palette'] = await time(RUNS, (i) => generateColorPalette(paletteInputs[i % RUNS]));
  const suggestionInputs = Array.from({ length: RUNS }, (_, i) =>
    AiSuggestionCreateBody.parse({ companyName: `Company ${i}`, industry: INDUSTRIES[i % INDUSTRIES.length], role: ['CEO', 'Software Engineer', 'Real Estate Agent', 'Attorney'][i % 4], targetAudience: 'small businesses', existingColors: i % 2 ? '#0A2540' : '' }),
  );
  out['engine: design suggestions'] = await time(RUNS, (i) => generateDesignSuggestions(suggestionInputs[i % RUNS]));
  const feedbackInput = AiFeedbackCreateBody.parse({
    currentDesign: {
      template: 18,
      cardType: 'luxury_titanium',
      cardStyle: 'Brushed',
      colors: { background: '#222222', text: '#777777', accents: ['#C9A227'] },
      fonts: ['Playfair Display', 'Inter'],
      businessInfo: { fullName: 'Alexandra Reed', jobTitle: 'Creative Director', email: 'alex@northwind.studio', address: '350 Fifth Avenue, New York, NY 10118' },
      qr: { margin: 2, sizeMm: 18 },
    },
    userQuestion: 'Is my text readable and will the QR code scan?',
  });
  out['engine: design feedback'] = await time(RUNS, () => generateDesignFeedback(feedbackInput));

  // ---- through the app (session, validation, rate-limit row, JSON) ----
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-ai-'));
  const database = await openDatabase({ memory: true });
  await runMigrations(database);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATA_DIR: dataDir, RATE_LIMITS: 'off' });
  const app = await buildApp({ config, database, serveWeb: false });
  await app.ready();
  try {
    const { agent } = await signedInAgent(app);
    out['POST /api/ai/color-palette'] = await time(RUNS, async (i) => {
      const res = await agent.post('/api/ai/color-palette', { baseColor: paletteInputs[i % RUNS].baseColor, mood: MOODS[i % MOODS.length], industry: INDUSTRIES[i % INDUSTRIES.length] });
      if (res.statusCode !== 200) throw new Error(`palette: ${res.statusCode} ${res.body}`);
    });
    out['POST /api/ai/design-suggestions'] = await time(RUNS, async (i) => {
      const res = await agent.post('/api/ai/design-suggestions', { companyName: `Company ${i}`, industry: INDUSTRIES[i % INDUSTRIES.length], role: 'Founder' });
      if (res.statusCode !== 200) throw new Error(`suggestions: ${res.statusCode} ${res.body}`);
    });

    // ---- background removal of a 1024 px logo on a near-flat studio background ----
    const img = await logoImage({ width: 1024, height: 768, background: ['#F6F6F6', '#D2D2D2'], noise: 4, format: 'jpeg' });
    out['background removal 1024x768 (local algorithm)'] = await time(IMAGE_RUNS, () => removeBackgroundLocally(img), 1);
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    out['POST /api/photoroom/remove-background 1024x768'] = await time(
      IMAGE_RUNS,
      async () => {
        const { payload, headers } = multipartBody('image', img, { filename: 'logo.jpg', contentType: 'image/jpeg' });
        const res = await app.inject({ method: 'POST', url: '/api/photoroom/remove-background', payload, headers: { ...headers, cookie } });
        if (res.statusCode !== 200) throw new Error(`remove-background: ${res.statusCode} ${res.body}`);
      },
      1,
    );
    return out;
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  for (const [k, v] of Object.entries(r)) console.log(`${k.padEnd(50)} median ${String(v.median).padStart(8)} ms   p95 ${String(v.p95).padStart(8)} ms`);
}
