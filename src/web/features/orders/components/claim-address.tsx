import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MapPin } from 'lucide-react';
import { OrderAddressPatchBody, needsShippingAddress } from '#shared/schemas/orders';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useOrderStatus, useUpdateOrderAddress } from '#web/features/orders/api';
import { AddressFields, EMPTY_ADDRESS, type AddressFormValues } from '#web/components/address-fields';

/**
 * The claim flow's next step (issue 35): a claimed visitor order that is delivered (not pickup) and
 * has no delivery address asks for it here (PATCH /api/order-status/{token}/address); then, or at
 * once when nothing is missing, `onDone` (the page goes on to design the order's card).
 */
export function ClaimAddressStep({ orderId, token, onDone }: { orderId: number; token: string; onDone: () => void }) {
  const view = useOrderStatus(token);
  const update = useUpdateOrderAddress(token);
  const needsAddress = !!view.data && !view.data.shippingAddress && needsShippingAddress(view.data.deliveryOption) && view.data.addressEditable;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ shippingAddress: AddressFormValues }, unknown, OrderAddressPatchBody>({
    resolver: zodResolver(OrderAddressPatchBody) as never,
    defaultValues: { shippingAddress: EMPTY_ADDRESS },
  });

  useEffect(() => {
    if ((view.data && !needsAddress) || view.isError) onDone();
  }, [view.data, view.isError, needsAddress, onDone]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await update.mutateAsync(body);
      toast({ title: 'Address saved', description: `We ship order #${orderId} to this address.` });
      onDone();
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        if (field.startsWith('shippingAddress.')) setError(field as 'shippingAddress.line1', { message });
      }
      toast({ title: 'Could not save the address', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
    }
  });

  if (!needsAddress) return <Skeleton className="h-48 w-full" />;
  return (
    <Card>
      <CardContent className="space-y-4 p-5 sm:p-6">
        <h2 className="flex items-center gap-2 text-xl font-semibold">
          <MapPin className="size-5 text-gold" aria-hidden="true" /> Where should we ship order #{orderId}?
        </h2>
        <p className="text-sm text-muted-foreground">Your order has no delivery address yet. You can correct it on your order page until the cards ship.</p>
        <form onSubmit={onSubmit} noValidate aria-label="Delivery address" className="space-y-4">
          <AddressFields register={register} errors={errors.shippingAddress} disabled={update.isPending} />
          <Button type="submit" variant="gold" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save address and design the card'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
