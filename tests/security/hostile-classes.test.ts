import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACK_CLASSES, attrNameRunSvg, corpusSeed, hostileSvgArb, scaledMorphologyLogo, SVG_CAP_BYTES, type HostileSvg } from '#tests/helpers/hostile-svg';
import { ENTRY_POINTS, quantile, sendSvg, startProbes, timeToQuiet, type EntryPoint } from '#tests/helpers/hostile-storm';
import { startHostileFixture, type HostileFixture } from '#tests/helpers/hostile-fixture';

/**
 * Issue 32: every attack class of hostile SVG, through the HTTP entry points of the built server
 * (its own process): each generated file (fast-check, the grammar of tests/helpers/hostile-svg.ts)
 * is answered, accepted or refused with a 4xx, in time (a refusal or any signed-out answer within
 * ANSWER_BOUND_MS, a stored signed-in file within the deadline + 1 s), never a 5xx, while
 * GET /api/health stays quick. The report's named files are refused with a 4xx.
 * On the old code the 40 KB attribute-name run took 7-13 s and the scaled filter logo left a core
 * burning: these tests fail there (run them with HOSTILE_SERVER_JS set to the old build).
 */
const inPostgresProject = process.env.TEST_DB_KIND === 'postgres';
/**
 * A refusal, and any answer signed out: the bars are < 200 ms for a refusal and < 1 s for a
 * 1 MB file signed out; doubled and more for a busy two-core CI machine.
 */
const ANSWER_BOUND_MS = 2000;
/** a signed-in file that is stored is drawn once in the sandbox: within the task deadline + 1 s */
const STORED_BOUND_MS = 5000 + 1000;
/** health while one hostile file at a time arrives (the bench holds the 50 ms bar) */
const HEALTH_P99_MS = 250;
const RUNS_PER_CLASS = Number(process.env.HOSTILE_RUNS_PER_CLASS ?? 3);
const seed = corpusSeed();

const artworkSignedOut = ENTRY_POINTS.find((e) => e.who === 'signed out')!;
const logo = ENTRY_POINTS.find((e) => e.name === 'POST /api/upload/logo')!;

describe.skipIf(inPostgresProject)('hostile SVG classes through HTTP (built server)', () => {
  let f: HostileFixture;
  beforeAll(async () => {
    console.log(`hostile-classes: fast-check seed ${seed} (replay with HOSTILE_SEED=${seed})`);
    f = await startHostileFixture();
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  /** one file to one entry point: the answer, or a failure naming the file and the time */
  async function expectAnswered(entry: EntryPoint, h: Pick<HostileSvg, 'cls' | 'variant' | 'svg'>, opts: { refused?: boolean } = {}) {
    const a = await sendSvg(f.server.base, entry, h.svg, f.cookies, STORED_BOUND_MS + 3000);
    const what = `${h.cls} (${h.variant}, ${h.svg.length} bytes) to ${entry.name} (${entry.who}): ${a.status || a.error} in ${Math.round(a.ms)} ms ${a.message ?? ''}`;
    expect(a.status, what).toBeGreaterThan(0);
    expect(a.status, what).toBeLessThan(500);
    if (opts.refused || h.svg.length > SVG_CAP_BYTES) expect(a.status, what).toBeGreaterThanOrEqual(400);
    if (a.status === 429 || a.status === 503) expect(a.retryAfter, what).toBeTruthy();
    expect(a.ms, what).toBeLessThan(entry.who !== 'signed out' && a.status < 300 ? STORED_BOUND_MS : ANSWER_BOUND_MS);
    return a;
  }

  /** runs `fn` while /api/health is polled; fails on fn's own failure first, then on health */
  async function withHealth<T>(fn: () => Promise<T>): Promise<T> {
    const probes = startProbes(f.server.base, { qrGapMs: 200 });
    let out: T;
    try {
      out = await fn();
    } catch (e) {
      const p = await probes.stop();
      if (e instanceof Error) e.message += ` (health meanwhile: p99 ${quantile(p.health.ms, 0.99)} ms, max ${Math.round(Math.max(...p.health.ms))} ms, ${JSON.stringify(p.health.statuses)})`;
      throw e;
    }
    const p = await probes.stop();
    const p99 = quantile(p.health.ms, 0.99);
    expect(Object.keys(p.health.statuses), 'every health answer 200').toEqual(['200']);
    expect(p99, `health p99 ${p99} ms while hostile files arrived`).toBeLessThanOrEqual(HEALTH_P99_MS);
    return out;
  }

  it('the report’s files: 40 KB and 400 KB attribute-name runs signed out are refused with a 4xx in time', { timeout: 60_000 }, async () => {
    await withHealth(async () => {
      for (const bytes of [40_000, 60_000, 400_000]) {
        await expectAnswered(artworkSignedOut, { cls: 'attr-name-run', variant: `named ${bytes / 1000} KB`, svg: attrNameRunSvg(bytes) }, { refused: true });
      }
    });
  });

  it('the report’s 253-byte scaled feMorphology logo, signed in: a 4xx in time, and no CPU left burning', { timeout: 60_000 }, async () => {
    const svg = scaledMorphologyLogo();
    expect(svg.length).toBe(253);
    await withHealth(() => expectAnswered(logo, { cls: 'scaled-filter', variant: 'named 253-byte logo', svg }, { refused: true }));
    const quiet = await timeToQuiet(f.server.pid, performance.now(), { maxMs: 6000 });
    expect(quiet.quietAfterMs, `server CPU after the answer (cores per 500 ms): ${quiet.windows.join(', ')}`).not.toBeNull();
    expect(quiet.quietAfterMs!).toBeLessThanOrEqual(2000);
  });

  for (const cls of ATTACK_CLASSES) {
    it(`${cls}: generated files answered (stored or 4xx) in time, health unaffected`, { timeout: 60_000 }, async () => {
      await withHealth(async () => {
        await fc.assert(
          fc.asyncProperty(hostileSvgArb(cls), fc.boolean(), async (h, signedIn) => {
            // signed out through the order form, or signed in as a logo (both parse and check SVG)
            await expectAnswered(signedIn ? logo : artworkSignedOut, h);
          }),
          // every run is a real upload: a few a class, no shrinking (each step would be another upload)
          { numRuns: RUNS_PER_CLASS, seed, endOnFailure: true },
        );
      });
    });
  }
});
