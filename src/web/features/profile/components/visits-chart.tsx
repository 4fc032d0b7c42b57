import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { VisitStats } from '#shared/schemas/profile';

function shortDate(iso: string) {
  const d = new Date(`${iso}T00:00:00Z`);
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** Views per day for the last 30 days. */
export default function VisitsChart({ daily }: { daily: VisitStats['daily'] }) {
  const data = daily.map((d) => ({ ...d, label: shortDate(d.date) }));
  const total = daily.reduce((s, d) => s + d.count, 0);
  return (
    <figure className="space-y-2" aria-label="Views per day, last 30 days">
      <div className="h-56 w-full" role="img" aria-label={`Bar chart: ${total} views in the last 30 days`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border)" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }} interval={4} tickLine={false} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }} tickLine={false} axisLine={false} />
            <Tooltip
              cursor={{ fill: 'var(--muted)' }}
              contentStyle={{ background: 'var(--card)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--foreground)' }}
              formatter={(v) => [String(v), 'Views']}
            />
            <Bar dataKey="count" name="Views" fill="#d4af37" radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-muted-foreground">Views per day, last 30 days</figcaption>
    </figure>
  );
}
