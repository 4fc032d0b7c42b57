import { useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { VISIT_SOURCE_LABELS, type EngagementStats } from '#shared/schemas/engagement';
import { errorMessage } from '#web/lib/api';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { StatsTable, type StatsColumn } from '#web/components/stats-table';
import { useEngagement } from '#web/features/engagement/api';

const RANGES = [7, 30, 90] as const;
const COLORS = { card: '#d4af37', link: '#3b82f6', direct: '#9ca3af', saves: '#16a34a', clicks: '#e11d48', rate: '#7c3aed' };

export const percent = (fraction: number) => `${(fraction * 100).toFixed(fraction > 0 && fraction < 0.1 ? 1 : 0)}%`;

const DAILY_COLUMNS: StatsColumn<EngagementStats['daily'][number]>[] = [
  { header: 'Date', cell: (d) => d.date },
  { header: 'Views', cell: (d) => d.views },
  { header: 'Card', cell: (d) => d.card },
  { header: 'Link', cell: (d) => d.link },
  { header: 'Direct', cell: (d) => d.direct },
  { header: 'Saves', cell: (d) => d.saves },
  { header: 'Clicks', cell: (d) => d.clicks },
  { header: 'Leads', cell: (d) => d.leads },
  { header: 'Save rate', cell: (d) => percent(d.saveRate) },
];

function shortDate(iso: string) {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-md border border-border p-3">
      <p className="text-xs uppercase tracking-wide text-muted-foreground">{label}</p>
      <p className="text-2xl font-bold" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

function Chart({ stats }: { stats: EngagementStats }) {
  const data = stats.daily.map((d) => ({ ...d, label: shortDate(d.date), ratePct: Math.round(d.saveRate * 1000) / 10 }));
  const tooltipStyle = { background: 'var(--card)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--foreground)' };
  return (
    <div
      className="h-72 w-full"
      role="img"
      aria-label={`Chart of the last ${stats.days} days: ${stats.totals.views} views, ${stats.totals.saves} saves, ${stats.totals.clicks} link clicks, save rate ${percent(stats.totals.saveRate)}`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border)" />
          <XAxis dataKey="label" tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }} interval="preserveStartEnd" minTickGap={16} tickLine={false} />
          <YAxis yAxisId="n" allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }} tickLine={false} axisLine={false} />
          <YAxis yAxisId="pct" orientation="right" unit="%" domain={[0, (max: number) => Math.max(100, Math.ceil(max / 10) * 10)]} tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }} tickLine={false} axisLine={false} />
          <Tooltip cursor={{ fill: 'var(--muted)' }} contentStyle={tooltipStyle} formatter={(v, name) => [name === 'Save rate' ? `${v}%` : String(v), String(name)]} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="n" dataKey="card" name={`Views: ${VISIT_SOURCE_LABELS.card}`} stackId="views" fill={COLORS.card} />
          <Bar yAxisId="n" dataKey="link" name={`Views: ${VISIT_SOURCE_LABELS.link}`} stackId="views" fill={COLORS.link} />
          <Bar yAxisId="n" dataKey="direct" name={`Views: ${VISIT_SOURCE_LABELS.direct}`} stackId="views" fill={COLORS.direct} radius={[3, 3, 0, 0]} />
          <Line yAxisId="n" type="monotone" dataKey="saves" name="Saves" stroke={COLORS.saves} strokeWidth={2} dot={false} />
          <Line yAxisId="n" type="monotone" dataKey="clicks" name="Link clicks" stroke={COLORS.clicks} strokeWidth={2} dot={false} />
          <Line yAxisId="pct" type="monotone" dataKey="ratePct" name="Save rate" stroke={COLORS.rate} strokeDasharray="4 3" strokeWidth={2} dot={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/**
 * Save analytics for the dashboard: views (stacked by source), contact saves, link clicks and the
 * save rate per day, with totals, views by source and by card batch, and the numbers as a table.
 */
function EngagementPanel() {
  const [days, setDays] = useState<number>(30);
  const q = useEngagement(days);
  const s = q.data;

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="space-y-1.5">
          <CardTitle as="h2">Engagement</CardTitle>
          <CardDescription>Views, saved contacts and link clicks per day, and where your visitors come from.</CardDescription>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <span className="text-muted-foreground">Range</span>
          <Select aria-label="Range" value={days} onChange={(e) => setDays(Number(e.target.value))} className="w-auto min-w-40">
            {RANGES.map((r) => (
              <option key={r} value={r}>
                Last {r} days
              </option>
            ))}
          </Select>
        </label>
      </CardHeader>
      <CardContent className="space-y-6">
        {q.isLoading ? (
          <Skeleton className="h-72 w-full" />
        ) : q.isError || !s ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(q.error, 'Could not load your statistics.')}
          </p>
        ) : (
          <>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              <Tile label="Views" value={String(s.totals.views)} testId="engagement-views" />
              <Tile label="Saves" value={String(s.totals.saves)} testId="engagement-saves" />
              <Tile label="Link clicks" value={String(s.totals.clicks)} testId="engagement-clicks" />
              <Tile label="Save rate" value={percent(s.totals.saveRate)} testId="engagement-save-rate" />
            </div>
            <Chart stats={s} />
            <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
              <section aria-labelledby="by-source">
                <h3 id="by-source" className="mb-2 text-sm font-semibold">
                  Views by source
                </h3>
                <ul className="space-y-2">
                  {s.bySource.map((b) => {
                    const share = s.totals.views ? b.views / s.totals.views : 0;
                    return (
                      <li key={b.source} className="text-sm" data-testid={`source-${b.source}`}>
                        <div className="flex justify-between">
                          <span>{b.label}</span>
                          <span className="font-medium">{b.views}</span>
                        </div>
                        <div className="mt-1 h-2 rounded bg-muted">
                          <div className="h-2 rounded" style={{ width: `${share * 100}%`, background: COLORS[b.source] }} />
                        </div>
                      </li>
                    );
                  })}
                </ul>
              </section>
              <section aria-labelledby="by-code">
                <h3 id="by-code" className="mb-2 text-sm font-semibold">
                  Views by card batch
                </h3>
                {s.byCardCode.length ? (
                  <ul className="divide-y divide-border rounded-md border border-border text-sm">
                    {s.byCardCode.map((c) => (
                      <li key={c.code} className="flex items-center justify-between gap-2 px-3 py-2" data-testid={`code-views-${c.code}`}>
                        <span className="min-w-0 break-words">
                          <span className="font-mono font-semibold">{c.code}</span> <span className="text-muted-foreground">{c.label}</span>
                          {c.active ? null : <span className="text-destructive"> (off)</span>}
                        </span>
                        <span className="font-medium">{c.views}</span>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-sm text-muted-foreground">Your card batches appear here once you order cards.</p>
                )}
              </section>
            </div>
            <details className="text-sm">
              <summary className="cursor-pointer text-muted-foreground">Show the numbers per day</summary>
              <div className="mt-2 max-h-72 overflow-auto">
                <StatsTable columns={DAILY_COLUMNS} rows={[...s.daily].reverse()} rowKey={(d) => d.date} size="dense" />
              </div>
            </details>
          </>
        )}
      </CardContent>
    </Card>
  );
}

export default EngagementPanel;
