import { useState } from 'react';
import { ClipboardCheck, Factory, PackageCheck, Store, Truck } from 'lucide-react';
import type { ProductionOrder } from '#shared/schemas/production';
import { STATUS_MOVES, emailsCustomer } from '#shared/orders/status-machine';
import { Button } from '#web/components/ui/button';
import { useMarkPickupReady, useSetProductionStatus } from '#web/features/production/api';
import { ShipmentForm } from './shipment-form';

/** The floor's steps for one order: In production, Quality check, Shipped (with tracking) or Ready for pickup, Delivered / Collected. */
export function OrderActions({ order }: { order: ProductionOrder }) {
  const setStatus = useSetProductionStatus();
  const pickup = useMarkPickupReady();
  const [shipping, setShipping] = useState(false);
  const isPickup = order.deliveryOption === 'pickup-nyc';
  const busy = setStatus.isPending || pickup.isPending;
  // only the moves the status machine allows from here (issue 35); what a move still needs, the server says (toast)
  const can = (status: string) => ((STATUS_MOVES as Record<string, readonly string[]>)[order.status] ?? []).includes(status);
  const step = (status: string) => {
    if (emailsCustomer(order.status, status) && !window.confirm(`Move order #${order.id} to ${status === 'completed' ? (isPickup ? 'Collected' : 'Delivered') : 'In production'}? The customer gets an e-mail about it.`)) return;
    setStatus.mutate({ id: order.id, status });
  };
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={busy || !can('in-production')} onClick={() => step('in-production')}>
          <Factory /> In production
        </Button>
        <Button size="sm" variant="outline" disabled={busy || !can('quality-check')} onClick={() => step('quality-check')}>
          <ClipboardCheck /> Quality check
        </Button>
        {isPickup ? (
          <Button size="sm" variant="outline" disabled={busy || !(can('ready-for-pickup') || order.status === 'ready-for-pickup')} onClick={() => window.confirm(`Mark order #${order.id} ready for pickup? The customer gets an e-mail with the pickup code.`) && pickup.mutate(order.id)}>
            <Store /> Ready for pickup
          </Button>
        ) : (
          <Button size="sm" variant="outline" disabled={busy || !(can('shipped') || order.status === 'shipped')} aria-expanded={shipping} onClick={() => setShipping((v) => !v)}>
            <Truck /> Shipped...
          </Button>
        )}
        <Button size="sm" variant="outline" disabled={busy || !can('completed')} onClick={() => step('completed')}>
          <PackageCheck /> {isPickup ? 'Collected' : 'Delivered'}
        </Button>
      </div>
      {shipping && !isPickup ? <ShipmentForm orderId={order.id} onDone={() => setShipping(false)} /> : null}
    </div>
  );
}
