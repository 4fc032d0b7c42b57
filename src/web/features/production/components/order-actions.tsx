import { useState } from 'react';
import { ClipboardCheck, Factory, PackageCheck, Store, Truck } from 'lucide-react';
import type { ProductionOrder } from '#shared/schemas/production';
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
  const step = (status: string) => setStatus.mutate({ id: order.id, status });
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={busy || order.status === 'in-production'} onClick={() => step('in-production')}>
          <Factory /> In production
        </Button>
        <Button size="sm" variant="outline" disabled={busy || order.status === 'quality-check'} onClick={() => step('quality-check')}>
          <ClipboardCheck /> Quality check
        </Button>
        {isPickup ? (
          <Button size="sm" variant="outline" disabled={busy || order.status === 'ready-for-pickup'} onClick={() => pickup.mutate(order.id)}>
            <Store /> Ready for pickup
          </Button>
        ) : (
          <Button size="sm" variant="outline" disabled={busy} aria-expanded={shipping} onClick={() => setShipping((v) => !v)}>
            <Truck /> Shipped...
          </Button>
        )}
        <Button size="sm" variant="outline" disabled={busy || order.status === 'completed'} onClick={() => step('completed')}>
          <PackageCheck /> {isPickup ? 'Collected' : 'Delivered'}
        </Button>
      </div>
      {shipping && !isPickup ? <ShipmentForm orderId={order.id} onDone={() => setShipping(false)} /> : null}
    </div>
  );
}
