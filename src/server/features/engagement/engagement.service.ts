import { and, count, desc, eq, gte, sql, sum, type AnyColumn } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { cardCodes, engagementDaily, leads } from '#server/db/schema/engagement';
import { visitFlusher } from './visit-flusher';
import { VISIT_SOURCES, VISIT_SOURCE_LABELS, saveRate, type EngagementDay, type EngagementStats, type VisitSource } from '#shared/schemas/engagement';
import { findProfileRowByUser } from '#server/features/profile/public-api';

/** The last `days` UTC dates, oldest first (YYYY-MM-DD). */
export function utcDays(days: number, now = new Date()): string[] {
  const base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) out.push(new Date(base - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}

const asSource = (s: string): VisitSource => ((VISIT_SOURCES as readonly string[]).includes(s) ? (s as VisitSource) : 'direct');

function emptyDay(date: string): EngagementDay {
  return { date, views: 0, saves: 0, clicks: 0, leads: 0, saveRate: 0, card: 0, link: 0, direct: 0 };
}

/**
 * GET /api/stats/engagement: the owner's views, saves (contact-file downloads), link clicks and
 * leads per UTC day for the last `days` days, with the save rate and views by source and by card
 * batch code. Events still in the visit buffer are written first so the numbers are current.
 */
export async function getEngagementStats(ctx: AppContext, userId: string, days: number, now = new Date()): Promise<EngagementStats> {
  const dates = utcDays(days, now);
  const result: EngagementStats = {
    days,
    from: dates[0],
    to: dates[dates.length - 1],
    daily: dates.map(emptyDay),
    totals: { views: 0, saves: 0, clicks: 0, leads: 0, saveRate: 0 },
    bySource: VISIT_SOURCES.map((source) => ({ source, label: VISIT_SOURCE_LABELS[source], views: 0 })),
    byCardCode: [],
  };
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) return result;
  await visitFlusher(ctx).flush().catch(() => undefined);

  // views, saves and clicks from the daily rollups (decision 18-02: the same cost at any size);
  // leads are few and counted from their rows
  const since = new Date(`${dates[0]}T00:00:00Z`);
  const day = (col: AnyColumn) => sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD')`;
  const inRange = and(eq(engagementDaily.profileId, profile.id), gte(engagementDaily.day, dates[0]));
  const [rollups, leadRows, codeViews, codes] = await Promise.all([
    ctx.db
      .select({ day: engagementDaily.day, kind: engagementDaily.kind, source: engagementDaily.source, n: sum(engagementDaily.n).mapWith(Number) })
      .from(engagementDaily)
      .where(inRange)
      .groupBy(engagementDaily.day, engagementDaily.kind, engagementDaily.source),
    ctx.db
      .select({ day: day(leads.createdAt), n: count() })
      .from(leads)
      .where(and(eq(leads.profileId, profile.id), gte(leads.createdAt, since)))
      .groupBy(sql`1`),
    ctx.db
      .select({ code: engagementDaily.cardCode, n: sum(engagementDaily.n).mapWith(Number) })
      .from(engagementDaily)
      .where(and(inRange, eq(engagementDaily.kind, 'view'), sql`${engagementDaily.cardCode} <> ''`))
      .groupBy(engagementDaily.cardCode),
    ctx.db
      .select({ code: cardCodes.code, label: cardCodes.label, active: cardCodes.active })
      .from(cardCodes)
      .where(eq(cardCodes.profileId, profile.id))
      .orderBy(desc(cardCodes.createdAt)),
  ]);
  const viewRows = rollups.filter((r) => r.kind === 'view');
  const saveRows = rollups.filter((r) => r.kind === 'save');
  const clickRows = rollups.filter((r) => r.kind === 'click');

  const byDate = new Map(result.daily.map((d) => [d.date, d]));
  for (const r of viewRows) {
    const d = byDate.get(r.day);
    if (!d) continue;
    const n = Number(r.n);
    d.views += n;
    d[asSource(r.source)] += n;
  }
  for (const r of saveRows) {
    const d = byDate.get(r.day);
    if (d) d.saves += Number(r.n);
  }
  for (const r of clickRows) {
    const d = byDate.get(r.day);
    if (d) d.clicks += Number(r.n);
  }
  for (const r of leadRows) {
    const d = byDate.get(r.day);
    if (d) d.leads += Number(r.n);
  }
  for (const d of result.daily) {
    d.saveRate = saveRate(d.saves, d.views);
    result.totals.views += d.views;
    result.totals.saves += d.saves;
    result.totals.clicks += d.clicks;
    result.totals.leads += d.leads;
  }
  result.totals.saveRate = saveRate(result.totals.saves, result.totals.views);
  for (const s of result.bySource) s.views = result.daily.reduce((sum, d) => sum + d[s.source], 0);

  const views = new Map(codeViews.map((r) => [r.code, Number(r.n)]));
  result.byCardCode = codes
    .map((c) => ({ code: c.code, label: c.label, active: c.active, views: views.get(c.code) ?? 0 }))
    .sort((a, b) => b.views - a.views);
  return result;
}
