import { useState } from 'react';
import { Download, Eye } from 'lucide-react';
import { ORDER_STATUSES } from '#shared/catalogue';
import type { AdminOrder } from '#shared/schemas/admin';
import { STATUS_MOVES, emailsCustomer } from '#shared/orders/status-machine';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Select } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api';
import { cn } from '#web/lib/utils';
import { useAdminOrders, useExportOrders, useUpdateOrderStatus } from '#web/features/admin/api';
import { formatDate, orderStatusLabel } from '#web/features/admin/format';
import { useDebounced } from '#web/features/admin/use-debounced';
import { FilterSelect, PageNav, SearchField, pageCount, useListPage } from './list-controls';
import { StatusBadge } from '#web/components/status-badge';
import { Badge } from '#web/components/ui/badge';

/**
 * The row's status dropdown offers the current status and the moves the status machine allows from
 * it (issue 35, decision 35-04; shared with the server). Shipping (carrier and tracking number) and
 * ready for pickup (its code) are done in the order's detail or the Production tab; a move whose
 * prerequisites are missing is refused by the server with what is missing (toast). A move that
 * e-mails the customer is confirmed first.
 */
const PAGE_SIZE = 25;

/** A table cell that becomes a labelled row on a phone (its label from data-label). */
const STACKED_CELL =
  'max-md:flex max-md:items-start max-md:gap-3 max-md:px-3 max-md:py-1.5 max-md:before:w-20 max-md:before:shrink-0 max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

export function StatusSelect({ order, className }: { order: AdminOrder; className?: string }) {
  const update = useUpdateOrderStatus();
  const moves = ((STATUS_MOVES as Record<string, readonly string[]>)[order.status] ?? []).filter((s) => s !== 'shipped' && s !== 'ready-for-pickup');
  return (
    <Select
      aria-label={`Status of order #${order.id}`}
      className={className ?? 'h-9 w-40'}
      value={order.status}
      disabled={update.isPending || moves.length === 0}
      onChange={(e) => {
        const to = e.target.value;
        if (emailsCustomer(order.status, to) && !window.confirm(`Move order #${order.id} to ${orderStatusLabel(to)}? The customer gets an e-mail about it.`)) return;
        update.mutate({ id: order.id, status: to });
      }}
    >
      {[order.status, ...moves].map((s) => (
        <option key={s} value={s}>
          {orderStatusLabel(s)}
        </option>
      ))}
    </Select>
  );
}

export function OrderPreview({ order }: { order: AdminOrder }) {
  if (!order.previewUrl) return <span className="text-xs text-muted-foreground">No preview</span>;
  return <img src={order.previewUrl} alt={`Design of order #${order.id}`} loading="lazy" className="h-10 w-16 rounded border border-border bg-black object-contain" />;
}

export function OrdersTab({ onView }: { onView: (id: number) => void }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const { page, setPage, backToFirstPage } = useListPage();
  const q = useDebounced(search.trim(), 300);
  const orders = useAdminOrders({ q, status, page, pageSize: PAGE_SIZE });
  const exportCsv = useExportOrders();
  const data = orders.data;
  const pages = pageCount(data);

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SearchField label="Search orders" placeholder="Search by customer name, email or order ID" className="flex-1" value={search} onChange={backToFirstPage(setSearch)} />
        <FilterSelect label="Filter by status" className="sm:w-44" value={status} onChange={backToFirstPage(setStatus)} allLabel="All statuses" values={ORDER_STATUSES} valueLabel={orderStatusLabel} />
        <Button variant="outline" onClick={() => exportCsv.mutate({ q, status })} disabled={exportCsv.isPending}>
          <Download aria-hidden="true" />
          {exportCsv.isPending ? 'Exporting...' : 'Export'}
        </Button>
      </div>

      {/* on a phone each order is a stacked block of labelled rows (the header row is for screen readers) */}
      <Card className="md:overflow-x-auto">
        <table className="w-full text-sm md:min-w-[860px]">
          <thead className="border-b border-border text-left text-muted-foreground max-md:sr-only">
            <tr>
              <th scope="col" className="p-3 font-medium">Order ID</th>
              <th scope="col" className="p-3 font-medium">Customer</th>
              <th scope="col" className="p-3 font-medium">Email</th>
              <th scope="col" className="p-3 font-medium">Date</th>
              <th scope="col" className="p-3 font-medium">Status</th>
              <th scope="col" className="p-3 font-medium">Preview</th>
              <th scope="col" className="p-3 font-medium">Actions</th>
            </tr>
          </thead>
          <tbody>
            {orders.isLoading
              ? Array.from({ length: 5 }, (_, i) => (
                  <tr key={i}>
                    <td colSpan={7} className="p-3">
                      <Skeleton className="h-8 w-full" />
                    </td>
                  </tr>
                ))
              : null}
            {orders.isError ? (
              <tr>
                <td colSpan={7} className="p-6 text-center text-destructive" role="alert">
                  {errorMessage(orders.error, 'Could not load orders.')}
                </td>
              </tr>
            ) : null}
            {data && data.orders.length === 0 ? (
              <tr>
                <td colSpan={7} className="p-6 text-center text-muted-foreground">
                  {q || status ? 'No orders match this search.' : 'No orders found. Orders will appear here once customers start placing orders.'}
                </td>
              </tr>
            ) : null}
            {data?.orders.map((o) => (
              <tr key={o.id} className="border-b border-border last:border-0 max-md:block max-md:py-2" data-testid={`order-row-${o.id}`}>
                <td data-label="Order ID" className={cn(STACKED_CELL, 'p-3 font-mono')}>#{o.id}</td>
                <td data-label="Customer" className={cn(STACKED_CELL, 'p-3')}>
                  <div className="font-medium">{o.customerName}</div>
                  {o.company ? <div className="text-xs text-muted-foreground">{o.company}</div> : null}
                </td>
                <td data-label="Email" className={cn(STACKED_CELL, 'p-3 break-all')}>{o.email}</td>
                <td data-label="Date" className={cn(STACKED_CELL, 'p-3 whitespace-nowrap')}>{formatDate(o.createdAt)}</td>
                <td data-label="Status" className={cn(STACKED_CELL, 'p-3')}>
                  <StatusBadge status={o.status} />
                  {o.waitsForProfile ? (
                    <Badge variant="grey" className="ml-1 whitespace-nowrap" title="Its cards' QR code opens a profile once the buyer claims the order">
                      Waits for profile
                    </Badge>
                  ) : null}
                </td>
                <td data-label="Preview" className={cn(STACKED_CELL, 'p-3')}>
                  <OrderPreview order={o} />
                </td>
                <td data-label="Actions" className={cn(STACKED_CELL, 'p-3')}>
                  <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
                    <Button variant="outline" size="sm" onClick={() => onView(o.id)} aria-label={`View order #${o.id}`}>
                      <Eye aria-hidden="true" />
                      View
                    </Button>
                    <StatusSelect order={o} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      {data && data.total > 0 ? (
        <PageNav
          summary={
            <>
              {data.total} order{data.total === 1 ? '' : 's'} · page {data.page} of {pages}
            </>
          }
          announce
          page={page}
          pages={pages}
          setPage={setPage}
        />
      ) : null}
    </div>
  );
}
