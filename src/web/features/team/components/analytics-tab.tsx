import { useState } from 'react';
import { Trophy } from 'lucide-react';
import type { TeamStats } from '#shared/schemas/team';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { StatsTable, type StatsColumn } from '#web/components/stats-table';
import { useTeamStats } from '#web/features/team/api';

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;

type RankedMember = TeamStats['members'][number];
const RANKING_COLUMNS: StatsColumn<RankedMember>[] = [
  { header: '#', cell: (m) => m.rank },
  { header: 'Member', cell: (m) => m.fullName, strong: true },
  { header: 'Views', cell: (m) => m.views, alignRight: true },
  { header: 'Saves', cell: (m) => m.saves, alignRight: true },
  { header: 'Clicks', cell: (m) => m.clicks, alignRight: true },
  { header: 'Leads', cell: (m) => m.leads, alignRight: true },
  { header: 'Save rate', cell: (m) => pct(m.saveRate), alignRight: true },
];
const TILES: { k: keyof TeamStats['totals']; label: string }[] = [
  { k: 'views', label: 'Views' },
  { k: 'saves', label: 'Contacts saved' },
  { k: 'clicks', label: 'Link clicks' },
  { k: 'leads', label: 'Leads' },
  { k: 'saveRate', label: 'Save rate' },
];

function Daily({ stats }: { stats: TeamStats }) {
  const max = Math.max(1, ...stats.byDay.map((d) => d.views));
  return (
    <div className="flex h-32 items-end gap-px" role="img" aria-label={`Views per day over the last ${stats.days} days`}>
      {stats.byDay.map((d) => (
        <div key={d.day} className="flex-1 rounded-t bg-gold/80" style={{ height: `${Math.max(2, (d.views / max) * 100)}%` }} title={`${d.day}: ${d.views} views, ${d.saves} saves, ${d.leads} leads`} />
      ))}
    </div>
  );
}

/** Analytics: the team's views, saves, clicks, leads and save rate, by day, and the members ranked. */
export function AnalyticsTab() {
  const [days, setDays] = useState(30);
  const { data, isLoading } = useTeamStats(days);
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-end gap-2">
        <label htmlFor="team-days" className="text-sm">
          Period
        </label>
        <Select id="team-days" value={String(days)} onChange={(e) => setDays(Number(e.target.value))} className="w-40">
          <option value="7">Last 7 days</option>
          <option value="30">Last 30 days</option>
          <option value="90">Last 90 days</option>
          <option value="365">Last 365 days</option>
        </Select>
      </div>
      {isLoading || !data ? (
        <Skeleton className="h-48 w-full" />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="team-totals">
            {TILES.map((t) => (
              <div key={t.k} className="rounded-lg border p-4">
                <dt className="text-xs uppercase text-muted-foreground">{t.label}</dt>
                <dd className="text-2xl font-bold">{t.k === 'saveRate' ? pct(data.totals.saveRate) : data.totals[t.k].toLocaleString('en-US')}</dd>
              </div>
            ))}
          </dl>
          <Card>
            <CardHeader>
              <CardTitle as="h2">Views by day</CardTitle>
            </CardHeader>
            <CardContent>
              <Daily stats={data} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2" className="flex items-center gap-2">
                <Trophy className="size-4" aria-hidden="true" /> Ranking
              </CardTitle>
            </CardHeader>
            <CardContent className="md:overflow-x-auto" tabIndex={0} role="region" aria-label="Ranking">
              <StatsTable columns={RANKING_COLUMNS} rows={data.members} rowKey={(m) => m.userId} className="md:min-w-[520px]" testId="team-ranking" stacked />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
