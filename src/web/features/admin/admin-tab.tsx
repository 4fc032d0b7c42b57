import { useState } from 'react';
import { Link } from 'react-router';
import { ArrowRight, CheckCircle2, Clock, DollarSign, Download, Eye, Package, Search } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { useAdminOrders, useAdminStats, useDownloadCard } from './api';
import { AdminGate } from '#web/features/admin/components/admin-gate';
import { OrderDetailDialog } from '#web/features/admin/components/order-detail';
import { NO_ORDERS_MESSAGE } from '#web/features/admin/components/overview-tab';
import { StatTiles } from '#web/components/stat-tile';
import { StatusBadge } from '#web/components/status-badge';
import { SystemStatus } from '#web/features/admin/components/system-status';
import { formatCents, formatDate, formatDollars } from './format';
import { useDebounced } from './use-debounced';
import type { AdminOrder } from '#shared/schemas/admin';

function OrderRow({ order, onView }: { order: AdminOrder; onView: (id: number) => void }) {
  const download = useDownloadCard();
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 text-sm" data-testid={`tab-order-${order.id}`}>
      <span className="font-mono text-muted-foreground">#{order.id}</span>
      <span className="min-w-0 flex-1">
        <span className="block font-medium break-words">{order.customerName}</span>
        <span className="block text-xs break-all text-muted-foreground">
          {order.email} · {order.quantity} × {order.cardTypeLabel} · {formatDate(order.createdAt)}
        </span>
      </span>
      <span className="tabular-nums">{formatCents(order.totalCents)}</span>
      <StatusBadge status={order.status} />
      <div className="flex gap-2">
        <Button size="sm" variant="outline" onClick={() => onView(order.id)} aria-label={`View order #${order.id}`}>
          <Eye aria-hidden="true" />
          View
        </Button>
        <Button size="sm" variant="outline" onClick={() => download.mutate(order)} disabled={download.isPending} aria-label={`Download card for order #${order.id}`}>
          <Download aria-hidden="true" />
          {download.isPending ? 'Downloading...' : 'Download'}
        </Button>
      </div>
    </li>
  );
}

function AdminTabBody() {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const [openOrder, setOpenOrder] = useState<number | null>(null);
  const stats = useAdminStats();
  // with a search the server finds the matches; without one the 5 most recent orders are shown
  const found = useAdminOrders({ q, status: '', page: 1, pageSize: 10 });
  const s = stats.data;
  const list = q ? found.data?.orders : s?.recentOrders;
  const loading = q ? found.isLoading : stats.isLoading;
  const error = q ? found.error : stats.error;
  return (
    <div className="space-y-6" data-testid="admin-tab">
      <div className="flex justify-end">
        <Button asChild variant="outline" size="sm">
          <Link to="/admin">
            Open the full admin dashboard <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input type="search" aria-label="Search orders" placeholder="Search orders by customer name, email or order ID" className="pl-9" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <StatTiles
        loading={stats.isLoading}
        tiles={[
          { label: 'Total Orders', value: s?.totalOrders ?? 0, Icon: Package, testId: 'tile-total-orders' },
          { label: 'Pending Orders', value: s?.pendingOrders ?? 0, Icon: Clock, testId: 'tile-pending-orders' },
          { label: 'Completed Orders', value: s?.completedOrders ?? 0, Icon: CheckCircle2, testId: 'tile-completed-orders' },
          { label: 'Total Revenue', value: formatDollars(s?.totalRevenue ?? 0), Icon: DollarSign, hint: `Money received; ${formatDollars(s?.pendingRevenue ?? 0)} pending`, testId: 'tile-total-revenue' },
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{q ? 'Matching orders' : 'Recent Orders'}</CardTitle>
        </CardHeader>
        <CardContent>
          {loading ? <Skeleton className="h-40" /> : null}
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(error, 'Could not load orders.')}
            </p>
          ) : null}
          {!loading && !error && list && list.length === 0 ? <p className="text-sm text-muted-foreground">{q ? 'No orders match this search.' : NO_ORDERS_MESSAGE}</p> : null}
          <ul className="divide-y divide-border">
            {list?.map((o) => (
              <OrderRow key={o.id} order={o} onView={setOpenOrder} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>System Status</CardTitle>
        </CardHeader>
        <CardContent>
          <SystemStatus compact />
        </CardContent>
      </Card>
      <OrderDetailDialog orderId={openOrder} onClose={() => setOpenOrder(null)} />
    </div>
  );
}

/** The profile page's admin tab (admins only; the profile page lazy-loads this file). */
export default function AdminTab() {
  return (
    <AdminGate>
      <AdminTabBody />
    </AdminGate>
  );
}
