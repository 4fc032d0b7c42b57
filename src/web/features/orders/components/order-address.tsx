import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { OrderAddressPatchBody, type OrderStatusView } from '#shared/schemas/orders';
import { StudioDetails } from '#web/components/studio-card';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader } from '#web/components/ui/card';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useUpdateOrderAddress } from '#web/features/orders/api';
import { AddressFields, AddressLines, toAddressForm, type AddressFormValues } from '#web/components/address-fields';

/**
 * The order page's delivery address (issue 35): shown, and while the order has not shipped the
 * customer corrects it here (PATCH /api/order-status/{token}/address).
 */
function OrderAddress({ order, token }: { order: OrderStatusView; token: string }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateOrderAddress(token);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<{ shippingAddress: AddressFormValues }, unknown, OrderAddressPatchBody>({
    resolver: zodResolver(OrderAddressPatchBody) as never,
    defaultValues: { shippingAddress: toAddressForm(order.shippingAddress) },
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      await update.mutateAsync(body);
      setEditing(false);
      toast({ title: 'Address saved', description: 'We ship your cards to the new address.' });
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        if (field.startsWith('shippingAddress.')) setError(field as 'shippingAddress.line1', { message });
      }
      toast({ title: 'Could not save the address', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
    }
  });

  if (editing) {
    return (
      <form onSubmit={onSubmit} noValidate aria-label="Change the delivery address" className="space-y-4">
        <AddressFields register={register} errors={errors.shippingAddress} disabled={update.isPending} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" variant="gold" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save address'}
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              reset({ shippingAddress: toAddressForm(order.shippingAddress) });
              setEditing(false);
            }}
          >
            Cancel
          </Button>
        </div>
      </form>
    );
  }

  return (
    <div className="space-y-3 text-sm">
      {order.shippingAddress ? (
        <AddressLines address={order.shippingAddress} testId="order-status-address" />
      ) : (
        <p className="text-muted-foreground">No delivery address yet. Add one so we know where to ship your cards.</p>
      )}
      {order.addressEditable ? (
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            reset({ shippingAddress: toAddressForm(order.shippingAddress) });
            setEditing(true);
          }}
        >
          {order.shippingAddress ? 'Change address' : 'Add address'}
        </Button>
      ) : order.shippingAddress ? (
        <p className="text-xs text-muted-foreground">Your order has shipped: the address can no longer be changed.</p>
      ) : null}
    </div>
  );
}

/** The order page's delivery card: the studio for pickup (address, map link, hours, instructions), else the delivery address. */
export function OrderDelivery({ order, token }: { order: OrderStatusView; token: string }) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold">{order.studio ? 'Pickup at our studio' : 'Delivery address'}</h2>
      </CardHeader>
      <CardContent>{order.studio ? <StudioDetails studio={order.studio} showPickup /> : <OrderAddress order={order} token={token} />}</CardContent>
    </Card>
  );
}
