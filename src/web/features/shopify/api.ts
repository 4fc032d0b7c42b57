import { useMutation, useQuery } from '@tanstack/react-query';
import { getShopifyStatus, postShopifyTestConnection } from '#shared/contracts/shopify';
import { callEndpoint, endpointQuery } from '#web/lib/endpoint';

export function useStoreStatus(enabled: boolean) {
  return useQuery({ ...endpointQuery(getShopifyStatus), enabled });
}

/** A real call to the configured store. */
export function useTestConnection() {
  return useMutation({ mutationFn: () => callEndpoint(postShopifyTestConnection) });
}
