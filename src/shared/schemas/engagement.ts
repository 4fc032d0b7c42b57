import { z } from 'zod';

/**
 * Save analytics: GET /api/stats/engagement?days=30. Views, contact-file downloads (saves), link
 * clicks and leads per UTC day, the save rate (saves / views), and views split by where they came
 * from: a card batch's code (card), a link shared elsewhere (link) or typed/scanned directly (direct).
 */
export const VISIT_SOURCES = ['card', 'link', 'direct'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];
export const VISIT_SOURCE_LABELS: Record<VisitSource, string> = {
  card: 'Card batch',
  link: 'Shared link',
  direct: 'Direct',
};

export const ENGAGEMENT_DAYS = { min: 7, max: 365, default: 30 } as const;

export const EngagementQuery = z.strictObject({
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(ENGAGEMENT_DAYS.min, `days must be ${ENGAGEMENT_DAYS.min} to ${ENGAGEMENT_DAYS.max}`)
    .max(ENGAGEMENT_DAYS.max, `days must be ${ENGAGEMENT_DAYS.min} to ${ENGAGEMENT_DAYS.max}`)
    .default(ENGAGEMENT_DAYS.default),
});

/** saves / views, 0 when there were no views (a fraction: 0.25 is 25%). */
export function saveRate(saves: number, views: number): number {
  return views > 0 ? Math.round((saves / views) * 10_000) / 10_000 : 0;
}

export interface EngagementDay {
  date: string;
  views: number;
  saves: number;
  clicks: number;
  leads: number;
  saveRate: number;
  /** views of the day by source */
  card: number;
  link: number;
  direct: number;
}

export interface EngagementStats {
  days: number;
  /** first and last UTC date of the range (YYYY-MM-DD) */
  from: string;
  to: string;
  daily: EngagementDay[];
  totals: { views: number; saves: number; clicks: number; leads: number; saveRate: number };
  bySource: Array<{ source: VisitSource; label: string; views: number }>;
  /** views per card batch code in the range (every code of the profile, busiest first) */
  byCardCode: Array<{ code: string; label: string; active: boolean; views: number }>;
}
