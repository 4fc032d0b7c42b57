import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Brush, PackageOpen, RotateCcw } from 'lucide-react';
import { formatUsd } from '#shared/catalogue';
import type { MyOrder } from '#shared/schemas/orders';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { usePageTitle } from '#web/lib/use-page-title';
import { RequireAuth } from '#web/components/require-auth';
import { useAuth } from '#web/lib/session/use-auth';
import { useMyOrders } from '#web/features/orders/api';
import { ReorderConfirm } from '#web/features/orders/components/reorder-confirm';
import { ORDER_STATUS_COLOURS, OrderCardLink, OrderDesign, OrderFulfilment, OrderTimeline, orderWhen } from '#web/features/orders/components/order-timeline';

function OrderItem({ order }: { order: MyOrder }) {
  const navigate = useNavigate();
  const { user } = useAuth();
  const [confirming, setConfirming] = useState(false);
  // an approved design is repeated in one confirm (issue 35); otherwise the order form, prefilled
  const reorder = () =>
    order.design?.status === 'approved'
      ? setConfirming(true)
      : navigate('/order', {
      state: {
        reorder: {
          customerName: order.customerName,
          email: user?.email ?? '',
          companyName: order.companyName ?? '',
          quantity: order.quantity,
          cardType: order.cardType,
          cardStyle: order.cardStyle,
          deliveryOption: order.deliveryOption,
        },
      },
    });
  return (
    <Card data-testid="my-order">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold">Order #{order.id}</h2>
          <p className="text-sm text-muted-foreground">
            Placed {orderWhen(order.createdAt)} · {order.quantity.toLocaleString('en-US')} × {order.cardTypeLabel} · {formatUsd(order.totalCents)}
          </p>
        </div>
        <Badge variant={ORDER_STATUS_COLOURS[order.status] ?? 'grey'} data-testid="my-order-status">
          {order.statusLabel}
        </Badge>
      </CardHeader>
      <CardContent className="space-y-4">
        {order.design ? <OrderDesign design={order.design} /> : null}
        <OrderFulfilment order={order} />
        <OrderCardLink order={order} />
        <details>
          <summary className="cursor-pointer text-sm font-medium">Timeline ({order.timeline.length})</summary>
          <div className="mt-3">
            <OrderTimeline timeline={order.timeline} />
          </div>
        </details>
        <div className="flex flex-wrap gap-2">
          {order.designPath ? (
            <Button asChild variant="gold">
              <Link to={order.designPath}>
                <Brush /> Design your card
              </Link>
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link to={order.statusPath}>View order</Link>
          </Button>
          <Button variant="outline" onClick={reorder} aria-expanded={order.design?.status === 'approved' ? confirming : undefined}>
            <RotateCcw /> Reorder
          </Button>
        </div>
        {confirming ? <ReorderConfirm order={order} onClose={() => setConfirming(false)} onPlaced={() => setConfirming(false)} /> : null}
      </CardContent>
    </Card>
  );
}

function MyOrdersList() {
  const { data, isLoading, error, refetch } = useMyOrders();
  if (isLoading) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (error || !data) {
    return (
      <div className="space-y-3 text-center">
        <p className="text-muted-foreground">Could not load your orders.</p>
        <Button variant="outline" onClick={() => refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!data.orders.length) {
    return (
      <div className="space-y-4 py-8 text-center">
        <PackageOpen className="mx-auto size-12 text-muted-foreground" aria-hidden="true" />
        <p className="text-muted-foreground">You have no orders yet. Orders placed with your verified e-mail appear here too.</p>
        <Button asChild variant="gold">
          <Link to="/order">Order Cards</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {data.orders.map((o) => (
        <OrderItem key={o.id} order={o} />
      ))}
    </div>
  );
}

/** My orders: every order of the signed-in customer with its status, timeline and design, and reorder. */
export default function MyOrdersPage() {
  usePageTitle('My Orders', 'Your metal card orders: status, design review and reorder.');
  return (
    <RequireAuth>
      <section className="mx-auto max-w-3xl space-y-6 px-4 py-12">
        <header>
          <h1 className="text-3xl font-bold tracking-tight">My Orders</h1>
          <p className="mt-1 text-muted-foreground">Every order of your account, newest first.</p>
        </header>
        <MyOrdersList />
      </section>
    </RequireAuth>
  );
}
