import { useMutation, useQuery } from '@tanstack/react-query';
import type { StoreConnectionResult, StoreStatus } from '#shared/schemas/shopify';
import { api } from '#web/lib/api';

export function useStoreStatus(enabled: boolean) {
  return useQuery<StoreStatus>({ queryKey: ['/api/shopify/status'], enabled });
}

/** POST /api/shopify/test-connection: a real call to the configured store. */
export function useTestConnection() {
  return useMutation({ mutationFn: () => api.post<StoreConnectionResult>('/api/shopify/test-connection') });
}
