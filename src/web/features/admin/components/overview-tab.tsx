import { Clock, DollarSign, Package, TrendingUp } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { useAdminStats } from '#web/features/admin/api';
import { formatCents, formatDate, formatDollars, formatRate } from '#web/features/admin/format';
import { StatTiles } from '#web/components/stat-tile';
import { StatusBadge } from '#web/components/status-badge';

export const NO_ORDERS_MESSAGE = 'No orders found. Orders will appear here once customers start placing orders.';

export function OverviewTab({ onView }: { onView: (id: number) => void }) {
  const stats = useAdminStats();
  const s = stats.data;
  const maxOrders = Math.max(1, ...(s?.cardTypePopularity.map((p) => p.orders) ?? [1]));
  return (
    <div className="space-y-6">
      {stats.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(stats.error, 'Could not load the figures.')}
        </p>
      ) : null}
      <StatTiles
        loading={stats.isLoading}
        tiles={[
          { label: 'Total Orders', value: s?.totalOrders ?? 0, Icon: Package, testId: 'tile-total-orders' },
          { label: 'Pending Orders', value: s?.pendingOrders ?? 0, Icon: Clock, testId: 'tile-pending-orders' },
          { label: 'Total Revenue', value: formatDollars(s?.totalRevenue ?? 0), Icon: DollarSign, hint: `Money received less refunds; ${formatDollars(s?.pendingRevenue ?? 0)} pending`, testId: 'tile-total-revenue' },
          { label: 'Success Rate', value: formatRate(s?.successRate), Icon: TrendingUp, hint: 'Completed of the orders no longer pending', testId: 'tile-success-rate' },
        ]}
      />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Orders</CardTitle>
          </CardHeader>
          <CardContent>
            {stats.isLoading ? <Skeleton className="h-48" /> : null}
            {s && s.recentOrders.length === 0 ? <p className="text-sm text-muted-foreground">{NO_ORDERS_MESSAGE}</p> : null}
            <ul className="divide-y divide-border">
              {s?.recentOrders.map((o) => (
                <li key={o.id}>
                  <button
                    type="button"
                    onClick={() => onView(o.id)}
                    className="flex w-full items-center gap-3 py-3 text-left text-sm hover:bg-accent/50 cursor-pointer"
                    aria-label={`Open order #${o.id} of ${o.customerName}`}
                  >
                    <span className="font-mono text-muted-foreground">#{o.id}</span>
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium break-words">{o.customerName}</span>
                      <span className="block text-xs break-words text-muted-foreground">
                        {o.quantity} × {o.cardTypeLabel} · {formatDate(o.createdAt)}
                      </span>
                    </span>
                    <span className="tabular-nums">{formatCents(o.totalCents)}</span>
                    <StatusBadge status={o.status} />
                  </button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Card types</CardTitle>
          </CardHeader>
          <CardContent>
            {stats.isLoading ? <Skeleton className="h-40" /> : null}
            <ul className="space-y-3">
              {s?.cardTypePopularity.map((p) => (
                <li key={p.cardType} className="text-sm">
                  <div className="flex justify-between">
                    <span>{p.label}</span>
                    <span className="text-muted-foreground tabular-nums">
                      {p.orders} order{p.orders === 1 ? '' : 's'} · {p.cards} cards
                    </span>
                  </div>
                  <div className="mt-1 h-2 rounded bg-muted" aria-hidden="true">
                    <div className="h-2 rounded bg-gold" style={{ width: `${(p.orders / maxOrders) * 100}%` }} />
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
