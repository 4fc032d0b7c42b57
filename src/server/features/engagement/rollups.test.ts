import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, gte, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { signedInAgent } from '#tests/helpers/factories';
import { contactSaves, linkClicks, visits } from '#server/db/schema/index';
import { visitFlusher } from './visit-flusher';
import { getEngagementStats, utcDays } from './engagement.service';
import { getVisitStats } from './visit-stats.service';

/**
 * Issue 18 (decision 18-02): the stats endpoints read daily rollups; on random events (around UTC
 * midnight, some still in the write buffer when asked) their answers equal counts of the raw rows.
 */
let t: TestApp;
let userId: string;
let profileId: string;
let linkId: number;

beforeAll(async () => {
  t = await createTestApp();
  const { agent, user } = await signedInAgent(t.app);
  const created = await agent.post('/api/profile', { fullName: 'Rollup Person', links: [{ linkType: 'website', url: 'https://rollup.example.com' }] });
  expect(created.statusCode).toBe(201);
  profileId = created.json().id;
  linkId = created.json().links[0].id;
  userId = user.id;
});
afterAll(async () => {
  await t?.close();
});

const MIDNIGHT = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
// within two minutes of the last few UTC midnights (and a few days back), never in the future
const instant = fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: -120_000, max: 120_000 })).map(([d, ms]) => new Date(Math.min(Date.now() - 1, MIDNIGHT - d * 86_400_000 + ms)));
const event = fc.oneof(
  fc.record({ kind: fc.constant('visit' as const), at: instant, source: fc.constantFrom('card', 'link', 'direct'), cardCode: fc.constantFrom(null, 'AAAAAA', 'BBBBBB') }),
  fc.record({ kind: fc.constant('click' as const), at: instant }),
  fc.record({ kind: fc.constant('save' as const), at: instant }),
);

describe('analytics rollups', () => {
  it('answer like raw counts on random data, buffered events included', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), fc.nat({ max: 40 }), async (events, flushAfter) => {
        // the app's own flusher: events after `flushAfter` are still in its buffer when the stats
        // are asked for (the endpoints write them first)
        const flusher = visitFlusher(t.app.ctx);
        events.forEach((e, i) => {
          if (e.kind === 'visit') flusher.record({ kind: 'visit', profileId, at: e.at, userAgent: 'test', device: 'Mobile', source: e.source, cardCode: e.source === 'card' ? e.cardCode : null });
          else if (e.kind === 'click') flusher.record({ kind: 'click', profileId, at: e.at, linkId, linkType: 'website' });
          else flusher.record({ kind: 'save', profileId, at: e.at });
          if (i === flushAfter) void flusher.flush();
        });
        const stats = await getEngagementStats(t.app.ctx, userId, 7);
        const dates = utcDays(7);
        const since = new Date(`${dates[0]}T00:00:00Z`);
        const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
        const rawViews = await t.app.ctx.db
          .select({ day, source: visits.source, n: count() })
          .from(visits)
          .where(and(eq(visits.profileId, profileId), gte(visits.createdAt, since)))
          .groupBy(sql`1`, visits.source);
        const rawSaves = await t.app.ctx.db.select({ day, n: count() }).from(contactSaves).where(and(eq(contactSaves.profileId, profileId), gte(contactSaves.createdAt, since))).groupBy(sql`1`);
        const rawClicks = await t.app.ctx.db.select({ day, n: count() }).from(linkClicks).where(and(eq(linkClicks.profileId, profileId), gte(linkClicks.createdAt, since))).groupBy(sql`1`);
        for (const d of stats.daily) {
          const views = rawViews.filter((r) => r.day === d.date);
          expect(d.views, d.date).toBe(views.reduce((s, r) => s + Number(r.n), 0));
          for (const src of ['card', 'link', 'direct'] as const) expect(d[src], `${d.date} ${src}`).toBe(Number(views.find((r) => r.source === src)?.n ?? 0));
          expect(d.saves, d.date).toBe(Number(rawSaves.find((r) => r.day === d.date)?.n ?? 0));
          expect(d.clicks, d.date).toBe(Number(rawClicks.find((r) => r.day === d.date)?.n ?? 0));
        }
        const [all] = await t.app.ctx.db.select({ n: count() }).from(visits).where(eq(visits.profileId, profileId));
        const [allClicks] = await t.app.ctx.db.select({ n: count() }).from(linkClicks).where(and(eq(linkClicks.profileId, profileId), eq(linkClicks.linkId, linkId)));
        const visitStats = await getVisitStats(t.app.ctx, userId);
        expect(visitStats.totalVisits).toBe(Number(all.n));
        expect(visitStats.linkClicks.find((l) => l.linkId === linkId)?.clicks).toBe(Number(allClicks.n));
        const last30 = visitStats.daily.reduce((s, d) => s + d.count, 0);
        const [raw30] = await t.app.ctx.db
          .select({ n: count() })
          .from(visits)
          .where(and(eq(visits.profileId, profileId), gte(visits.createdAt, new Date(`${visitStats.daily[0].date}T00:00:00Z`))));
        expect(last30).toBe(Number(raw30.n));
      }),
      { numRuns: 15 },
    );
  });

  it('counts rows written straight to the tables too (the triggers, not only the flusher)', async () => {
    const at = new Date(MIDNIGHT - 3 * 86_400_000 + 1000);
    const before = await getEngagementStats(t.app.ctx, userId, 7);
    await t.app.ctx.db.insert(visits).values([{ profileId, source: 'direct', createdAt: at }, { profileId, source: 'card', cardCode: 'CCCCCC', createdAt: at }]);
    const after = await getEngagementStats(t.app.ctx, userId, 7);
    expect(after.totals.views).toBe(before.totals.views + 2);
  });
});
