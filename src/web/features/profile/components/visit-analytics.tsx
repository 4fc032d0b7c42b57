import { lazy, Suspense } from 'react';
import { BarChart3, ExternalLink, Eye, HelpCircle, Monitor, Smartphone } from 'lucide-react';
import { LINK_TYPE_LABELS, type VisitStats } from '#shared/schemas/profile';
import { StatTiles } from '#web/components/stat-tile';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { SUMMARY_GRID } from './dashboard-overview';

const VisitsChart = lazy(() => import('./visits-chart'));

const LATEST_VISITS_SHOWN = 5;

function DeviceIcon({ device }: { device: string }) {
  if (device === 'Mobile') return <Smartphone className="size-4" aria-hidden="true" />;
  if (device === 'Desktop') return <Monitor className="size-4" aria-hidden="true" />;
  return <HelpCircle className="size-4" aria-hidden="true" />;
}

/**
 * Dashboard tab Analytics: views, views per day, link clicks and the latest visits. `totals`: the
 * three figure tiles, left out when the engagement panel above already shows views and clicks.
 */
export function VisitAnalytics({ stats, isLoading, totals = true }: { stats: VisitStats | undefined; isLoading: boolean; totals?: boolean }) {
  if (isLoading || !stats) return <Skeleton className="h-64" />;
  const latest = stats.visits.slice(0, LATEST_VISITS_SHOWN);
  return (
    <div className="space-y-6">
      {totals ? (
        <StatTiles
          className={SUMMARY_GRID}
          tiles={[
            { testId: 'total-views', label: 'Total views', value: String(stats.totalVisits), Icon: BarChart3, iconClassName: 'text-muted-foreground' },
            { testId: 'views-30d', label: 'Last 30 days', value: String(stats.daily.reduce((s, d) => s + d.count, 0)), Icon: Eye, iconClassName: 'text-muted-foreground' },
            {
              testId: 'link-clicks-total',
              label: 'Link clicks',
              value: String(stats.linkClicks.reduce((s, l) => s + l.clicks, 0)),
              Icon: ExternalLink,
              iconClassName: 'text-muted-foreground',
            },
          ]}
        />
      ) : null}
      <Card className="p-6">
        <h2 className="mb-4 text-lg font-semibold">Views per day</h2>
        <Suspense fallback={<Skeleton className="h-56" />}>
          <VisitsChart daily={stats.daily} />
        </Suspense>
      </Card>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <Card className="p-6">
          <h2 className="mb-4 text-lg font-semibold">Link clicks</h2>
          {stats.linkClicks.length ? (
            <ul className="space-y-2" data-testid="link-clicks">
              {stats.linkClicks.map((l) => (
                <li key={l.linkId} className="flex items-center justify-between gap-3 text-sm">
                  <span className="min-w-0">
                    <span className="font-medium">{LINK_TYPE_LABELS[l.linkType as keyof typeof LINK_TYPE_LABELS] ?? 'Link'}</span>
                    <span className="block text-xs break-all text-muted-foreground">{l.url}</span>
                  </span>
                  <span className="shrink-0 font-semibold tabular-nums">
                    {l.clicks} {l.clicks === 1 ? 'click' : 'clicks'}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Add links to your profile to see how often they are opened.</p>
          )}
        </Card>
        <Card className="p-6">
          <h2 className="mb-4 text-lg font-semibold">Latest visits</h2>
          {latest.length ? (
            <ul className="divide-y divide-border" data-testid="latest-visits">
              {latest.map((v) => {
                const d = new Date(v.timestamp);
                return (
                  <li key={v.id} className="flex items-center justify-between py-2 text-sm">
                    <span>
                      {d.toLocaleDateString()} <span className="text-muted-foreground">{d.toLocaleTimeString()}</span>
                    </span>
                    <span className="inline-flex items-center gap-1.5" title={v.userAgent}>
                      <DeviceIcon device={v.device} />
                      {v.device}
                    </span>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No visits yet. Share your link or QR code to get your first views.</p>
          )}
        </Card>
      </div>
    </div>
  );
}
