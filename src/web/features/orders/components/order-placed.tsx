import { Link } from 'react-router';
import { CheckCircle2, CreditCard, Factory, Mail, QrCode } from 'lucide-react';
import type { ShippingAddressView } from '#shared/schemas/orders';
import { INVOICE_NOTE, TAX_NOTE } from '#shared/orders/checkout-terms';
import { Button } from '#web/components/ui/button';
import { AddressLines } from '#web/components/address-fields';
import { StepList } from './step-list';

/** What the order form hands to /order-success (router state: the order page's link holds its key). */
export interface OrderSuccessState {
  order: {
    total: string;
    statusUrl: string;
    checkoutUrl: string | null;
    /** the one delivery promise (issue 35): "Ships by Fri, Nov 27" */
    promise?: string;
    /** the delivery address; null for pickup */
    shipTo?: ShippingAddressView | null;
  };
}

export function orderSuccessState(state: unknown): OrderSuccessState['order'] | null {
  const o = (state as Partial<OrderSuccessState> | null)?.order;
  return o && typeof o.total === 'string' && typeof o.statusUrl === 'string' ? o : null;
}

/** Same origin only: the order page's link is followed inside the app. */
function pathOf(url: string): string | null {
  try {
    const u = new URL(url, window.location.origin);
    return u.origin === window.location.origin ? u.pathname + u.search : null;
  } catch {
    return null;
  }
}

/**
 * The confirmation after a plain order from /order (decision 20-03): what was ordered and what
 * happens next for an order, not for a design in review.
 */
export function OrderPlaced({ orderId, order }: { orderId: string | null; order: OrderSuccessState['order'] }) {
  const statusPath = pathOf(order.statusUrl);
  const steps = [
    order.checkoutUrl
      ? { icon: CreditCard, title: 'Checkout', text: 'We e-mailed you a secure checkout link. Your order goes ahead once it is paid.' }
      : { icon: Mail, title: 'Confirmation', text: `We e-mailed you a confirmation with a link to your order page. ${INVOICE_NOTE}.` },
    { icon: QrCode, title: 'Your QR code', text: 'Every card carries a QR code that opens your digital profile; the e-mail shows how to set it up.' },
    { icon: Factory, title: 'Production', text: `Our New York shop makes your metal cards.${order.promise ? ` ${order.promise}.` : ''}` },
    { icon: Mail, title: 'Email updates', text: 'We e-mail you at each stage, from production to shipping.' },
  ];
  return (
    <div className="mx-auto max-w-3xl px-4 py-14 sm:py-20">
      <div className="text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-14 text-green-500" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Order Placed Successfully!</h1>
        <p className="mt-3 text-muted-foreground">Thank you for your order. Here is what happens next.</p>
        <div className="mt-5 flex flex-wrap justify-center gap-3 text-sm">
          {orderId ? (
            <p className="rounded-lg border border-border bg-card px-4 py-2" data-testid="order-id">
              Order ID: <span className="font-mono font-semibold">#{orderId}</span>
            </p>
          ) : null}
          <p className="rounded-lg border border-border bg-card px-4 py-2" data-testid="order-total">
            Total: <span className="font-semibold">{order.total}</span> <span className="text-muted-foreground">{TAX_NOTE}</span>
          </p>
        </div>
      </div>
      {order.promise || order.shipTo ? (
        <div className="mx-auto mt-8 grid max-w-xl gap-4 rounded-lg border border-border bg-card p-4 text-sm sm:grid-cols-2">
          {order.promise ? (
            <div>
              <h2 className="font-semibold">Delivery</h2>
              <p data-testid="order-promise">{order.promise}</p>
            </div>
          ) : null}
          {order.shipTo ? (
            <div>
              <h2 className="font-semibold">Ship to</h2>
              <AddressLines address={order.shipTo} testId="order-ship-to" />
            </div>
          ) : (
            <div>
              <h2 className="font-semibold">Pickup</h2>
              <p>At our New York studio: the order page gives the address and hours.</p>
            </div>
          )}
        </div>
      ) : null}
      <StepList steps={steps} />
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        {statusPath ? (
          <Button asChild variant="gold">
            <Link to={statusPath}>View your order</Link>
          </Button>
        ) : null}
        <Button asChild variant={statusPath ? 'outline' : 'gold'}>
          <Link to="/">Back to Home</Link>
        </Button>
      </div>
    </div>
  );
}
