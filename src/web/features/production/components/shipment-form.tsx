import { useState } from 'react';
import { Truck } from 'lucide-react';
import { CARRIERS, trackingNumberError, type CarrierId } from '#shared/production/tracking';
import { Button } from '#web/components/ui/button';
import { Input, Label, Select } from '#web/components/ui/input';
import { fieldErrors, errorMessage } from '#web/lib/api';
import { useMarkShipped } from '#web/features/production/api';

/** Carrier and tracking number, checked as typed (format, UPS check digit) and again by the server. */
export function ShipmentForm({ orderId, onDone }: { orderId: number; onDone: () => void }) {
  const [carrier, setCarrier] = useState<CarrierId>('ups');
  const [number, setNumber] = useState('');
  const [touched, setTouched] = useState(false);
  const ship = useMarkShipped();
  const server = fieldErrors(ship.error);
  const local = touched ? trackingNumberError(carrier, number) : null;
  const numberError = local ?? server.trackingNumber ?? null;
  const id = `ship-${orderId}`;
  return (
    <form
      className="space-y-2 rounded-md border border-border p-3"
      aria-label={`Ship order #${orderId}`}
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (trackingNumberError(carrier, number)) return;
        ship.mutate({ id: orderId, body: { carrier, trackingNumber: number } }, { onSuccess: onDone });
      }}
    >
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-[8rem_1fr]">
        <div>
          <Label htmlFor={`${id}-carrier`}>Carrier</Label>
          <Select id={`${id}-carrier`} value={carrier} onChange={(e) => setCarrier(e.target.value as CarrierId)}>
            {CARRIERS.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={`${id}-number`}>Tracking number</Label>
          <Input
            id={`${id}-number`}
            value={number}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setNumber(e.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={!!numberError}
            aria-describedby={numberError ? `${id}-error` : undefined}
          />
        </div>
      </div>
      {numberError ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
          {numberError}
        </p>
      ) : ship.error && !server.trackingNumber ? (
        <p className="text-sm text-destructive" role="alert">
          {errorMessage(ship.error)}
        </p>
      ) : null}
      <Button type="submit" size="sm" disabled={ship.isPending}>
        <Truck /> {ship.isPending ? 'Saving...' : 'Mark shipped'}
      </Button>
    </form>
  );
}
