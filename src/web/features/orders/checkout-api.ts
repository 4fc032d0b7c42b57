import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderReorderInput } from '#shared/schemas/designs';
import { postOrdersReorder } from '#shared/contracts/designs';
import { getCheckoutTerms, getOrdersMine } from '#shared/contracts/orders';
import { callEndpoint, endpointKey, endpointQuery } from '#web/lib/endpoint';

/** How a new order is paid (issue 35): the online store's checkout or an invoice, with the tax note. */
export function useCheckoutTerms() {
  return useQuery(endpointQuery(getCheckoutTerms));
}

/** "Reorder": the approved design of an order again, as a new order (one confirm). */
export function useReorder(orderId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<OrderReorderInput, 'orderId'>) => callEndpoint(postOrdersReorder, { body: { ...body, orderId } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: endpointKey(getOrdersMine) }),
  });
}

/** The signed-in customer's orders (the same query as My Orders), asked by the designer only for `?order=`. */
export function useMyOrderList(enabled: boolean) {
  return useQuery({ ...endpointQuery(getOrdersMine), enabled });
}
