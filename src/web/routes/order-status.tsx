import { Link, useParams } from 'react-router';
import { ExternalLink, PackageSearch } from 'lucide-react';
import { BUSINESS, formatUsd } from '#shared/catalogue';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { ApiError } from '#web/lib/api';
import { useNoIndex, usePageTitle } from '#web/lib/use-page-title';
import { useOrderStatus } from '#web/features/orders/api';
import { OrderDelivery } from '#web/features/orders/components/order-address';
import { OrderPaymentNote, OrderProof } from '#web/features/orders/components/order-proof';
import { OrderDesignInvite } from '#web/features/orders/components/order-design-invite';
import { ORDER_STATUS_COLOURS as COLOURS, OrderCardLink, OrderDesign, OrderFulfilment, OrderTimeline, orderWhen as when } from '#web/features/orders/components/order-timeline';

/** The customer's order page (the e-mailed link): summary, total, the design and the order's timeline. */
export default function OrderStatusPage() {
  const { token } = useParams();
  const { data: order, isLoading, error } = useOrderStatus(token);
  usePageTitle(order ? `Order #${order.id}` : 'Your order');
  useNoIndex();

  if (isLoading) {
    return (
      <section className="mx-auto max-w-3xl space-y-4 px-4 py-12" aria-busy="true">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-48 w-full" />
        <Skeleton className="h-32 w-full" />
      </section>
    );
  }

  if (error || !order) {
    const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <PackageSearch className="mx-auto mb-4 size-12 text-muted-foreground" aria-hidden="true" />
        <h1 className="text-2xl font-bold">{notFound ? 'Order not found' : 'Could not load your order'}</h1>
        <p className="mt-2 text-muted-foreground">
          {notFound
            ? 'This order link is not valid. Please use the complete link from your order e-mail.'
            : 'Please try again in a moment.'}{' '}
          Questions? Write to <a className="underline" href={`mailto:${BUSINESS.email}`}>{BUSINESS.email}</a>.
        </p>
        <Button asChild variant="outline" className="mt-6">
          <Link to="/">Return to Home</Link>
        </Button>
      </section>
    );
  }

  const rows: Array<[string, string]> = [
    ['Cards', `${order.quantity.toLocaleString('en-US')} × ${order.cardTypeLabel}`],
    ['Style', order.cardStyle],
    ['Price per card', formatUsd(order.unitPriceCents)],
    ['Cards subtotal', formatUsd(order.subtotalCents)],
    ['Delivery', `${order.deliveryLabel} (${order.deliveryFeeCents ? formatUsd(order.deliveryFeeCents) : 'free'})`],
    ['Artwork', order.hasArtwork ? 'Received' : 'None attached'],
  ];
  // the one delivery promise (issue 35), while the cards are still to leave the studio
  const promised = !['shipped', 'ready-for-pickup', 'completed', 'cancelled'].includes(order.status);

  return (
    <section className="mx-auto max-w-3xl space-y-6 px-4 py-12">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm text-muted-foreground">Placed {when(order.createdAt)}</p>
          <h1 className="text-3xl font-bold tracking-tight">Order #{order.id}</h1>
          <p className="mt-1 text-muted-foreground">
            For {order.customerName}
            {order.companyName ? `, ${order.companyName}` : ''}
          </p>
        </div>
        <Badge variant={COLOURS[order.status] ?? 'grey'} className="px-3 py-1 text-sm" data-testid="order-status">
          {order.statusLabel}
        </Badge>
      </header>

      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Summary</h2>
        </CardHeader>
        <CardContent>
          <dl className="divide-y divide-border text-sm">
            {rows.map(([k, v]) => (
              <div key={k} className="flex justify-between gap-4 py-2">
                <dt className="text-muted-foreground">{k}</dt>
                <dd className="text-right font-medium">{v}</dd>
              </div>
            ))}
            {promised ? (
              <div className="flex justify-between gap-4 py-2">
                <dt className="text-muted-foreground">Estimated</dt>
                <dd className="text-right font-medium" data-testid="order-status-promise">
                  {order.deliveryPromise}
                </dd>
              </div>
            ) : null}
            <div className="flex justify-between gap-4 py-3 text-base font-semibold">
              <dt>Total</dt>
              <dd data-testid="order-status-total">{formatUsd(order.totalCents)}</dd>
            </div>
          </dl>
          <OrderPaymentNote order={order} />
          {order.checkoutUrl ? (
            <Button asChild variant="gold" className="mt-4 w-full sm:w-auto">
              <a href={order.checkoutUrl} rel="noopener noreferrer">
                Complete checkout <ExternalLink />
              </a>
            </Button>
          ) : null}
        </CardContent>
      </Card>

      <OrderProof order={order} token={token ?? ''} />

      <OrderDelivery order={order} token={token ?? ''} />

      {order.design ? (
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold">Your card design</h2>
          </CardHeader>
          <CardContent>
            <OrderDesign design={order.design} />
          </CardContent>
        </Card>
      ) : (
        <OrderDesignInvite order={order} />
      )}

      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Status history</h2>
        </CardHeader>
        <CardContent className="space-y-4">
          <OrderFulfilment order={order} />
          <OrderCardLink order={order} />
          <OrderTimeline timeline={order.timeline} />
          <p className="text-xs text-muted-foreground">
            We e-mail you at each stage. Keep this link private: anyone with it can see this order.
          </p>
        </CardContent>
      </Card>
    </section>
  );
}
