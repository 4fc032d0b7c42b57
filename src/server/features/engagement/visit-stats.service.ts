import { and, desc, eq, gte, sum } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { engagementDaily, visits } from '#server/db/schema/engagement';
import { profileLinksOf } from '#server/features/profile/reads';
import { findProfileRowByUser } from '#server/features/profile/public-api';
import type { VisitStats } from '#shared/schemas/profile';
import { visitFlusher } from './visit-flusher';

export const STATS_DAYS = 30;
export const STATS_LATEST = 20;

/** The last `days` UTC dates, oldest first, as YYYY-MM-DD. */
export function lastDays(days: number, now = new Date()): string[] {
  const out: string[] = [];
  const base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = days - 1; i >= 0; i--) out.push(new Date(base - i * 86400_000).toISOString().slice(0, 10));
  return out;
}

function asDevice(d: string): 'Mobile' | 'Desktop' | 'Unknown' {
  return d === 'Mobile' || d === 'Desktop' ? d : 'Unknown';
}

/** GET /api/stats/visits: views of the user's own profile only. */
export async function getVisitStats(ctx: AppContext, userId: string): Promise<VisitStats> {
  const days = lastDays(STATS_DAYS);
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) return { totalVisits: 0, visits: [], daily: days.map((date) => ({ date, count: 0 })), linkClicks: [] };
  // views still in the write buffer are included
  await visitFlusher(ctx).flush().catch(() => undefined);

  // counts from the daily rollups (decision 18-02), the latest views from the raw rows (index)
  const views = and(eq(engagementDaily.profileId, profile.id), eq(engagementDaily.kind, 'view'));
  const [[total], latest, perDay, links, clicks] = await Promise.all([
    ctx.db.select({ n: sum(engagementDaily.n).mapWith(Number) }).from(engagementDaily).where(views),
    ctx.db
      .select({ id: visits.id, createdAt: visits.createdAt, userAgent: visits.userAgent, device: visits.device })
      .from(visits)
      .where(eq(visits.profileId, profile.id))
      .orderBy(desc(visits.createdAt), desc(visits.id))
      .limit(STATS_LATEST),
    ctx.db
      .select({ day: engagementDaily.day, n: sum(engagementDaily.n).mapWith(Number) })
      .from(engagementDaily)
      .where(and(views, gte(engagementDaily.day, days[0])))
      .groupBy(engagementDaily.day),
    profileLinksOf(ctx.db, profile.id),
    ctx.db
      .select({ linkId: engagementDaily.linkId, n: sum(engagementDaily.n).mapWith(Number) })
      .from(engagementDaily)
      .where(and(eq(engagementDaily.profileId, profile.id), eq(engagementDaily.kind, 'click')))
      .groupBy(engagementDaily.linkId),
  ]);
  const byDay = new Map(perDay.map((r) => [r.day, Number(r.n)]));
  const byLink = new Map(clicks.map((r) => [r.linkId, Number(r.n)]));
  return {
    totalVisits: Number(total?.n ?? 0),
    visits: latest.map((v) => ({ id: v.id, timestamp: v.createdAt.toISOString(), userAgent: v.userAgent, device: asDevice(v.device) })),
    daily: days.map((date) => ({ date, count: byDay.get(date) ?? 0 })),
    linkClicks: links.map((l) => ({ linkId: l.id, linkType: l.linkType, url: l.url, clicks: byLink.get(l.id) ?? 0 })),
  };
}
