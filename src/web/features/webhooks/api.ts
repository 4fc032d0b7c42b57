import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { WebhookCreateBody, WebhookUpdateBody } from '#shared/schemas/webhooks';
import {
  deleteWebhooksById,
  getWebhooks,
  getWebhooksByIdDeliveries,
  patchWebhooksById,
  postWebhooks,
  postWebhooksByIdDeliveriesByDeliveryIdRedeliver,
  postWebhooksByIdSecret,
  postWebhooksByIdTest,
} from '#shared/contracts/webhooks';
import { getTeam } from '#shared/contracts/team';
import { callEndpoint, endpointPrefix, endpointQuery } from '#web/lib/endpoint';

export const useWebhooks = () => useQuery(endpointQuery(getWebhooks));
/** The caller's team and role: its owner or an admin may add endpoints for the team. */
export const useMyTeam = () => useQuery(endpointQuery(getTeam));

/** The endpoint's delivery log; refreshed every few seconds while it is open and something is pending. */
export const useDeliveries = (id: number) =>
  useQuery({
    ...endpointQuery(getWebhooksByIdDeliveries, { params: { id } }),
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 3000 : false),
  });

function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(endpointPrefix(getWebhooks)) });
}

function useWebhookMutation<I, O>(fn: (input: I) => Promise<O>) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: fn, onSuccess: () => refresh() });
}

export const useCreateWebhook = () => useWebhookMutation((body: z.input<typeof WebhookCreateBody>) => callEndpoint(postWebhooks, { body }));
export const useUpdateWebhook = () =>
  useWebhookMutation(({ id, body }: { id: number; body: z.input<typeof WebhookUpdateBody> }) => callEndpoint(patchWebhooksById, { params: { id }, body }));
export const useDeleteWebhook = () => useWebhookMutation((id: number) => callEndpoint(deleteWebhooksById, { params: { id } }));
export const useSendTest = () => useWebhookMutation((id: number) => callEndpoint(postWebhooksByIdTest, { params: { id } }));
export const useRedeliver = () =>
  useWebhookMutation(({ id, deliveryId }: { id: number; deliveryId: number }) => callEndpoint(postWebhooksByIdDeliveriesByDeliveryIdRedeliver, { params: { id, deliveryId } }));
export const useRollSecret = () => useWebhookMutation((id: number) => callEndpoint(postWebhooksByIdSecret, { params: { id } }));
