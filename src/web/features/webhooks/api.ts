import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MessageResponse } from '#shared/schemas/common';
import type { TeamView } from '#shared/schemas/team';
import type {
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhookDelivery,
  WebhookDeliveryListResponse,
  WebhookEndpoint,
  WebhookListResponse,
  WebhookSecretRollResponse,
  WebhookUpdateBody,
} from '#shared/schemas/webhooks';
import { api } from '#web/lib/api';

const KEY = '/api/webhooks';

export const useWebhooks = () => useQuery<WebhookListResponse>({ queryKey: [KEY] });
/** The caller's team and role: its owner or an admin may add endpoints for the team. */
export const useMyTeam = () => useQuery<TeamView>({ queryKey: ['/api/team'] });

/** The endpoint's delivery log; refreshed every few seconds while it is open and something is pending. */
export const useDeliveries = (id: number) =>
  useQuery<WebhookDeliveryListResponse>({
    queryKey: [`${KEY}/${id}/deliveries`],
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 3000 : false),
  });

function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(KEY) });
}

function useWebhookMutation<I, O>(fn: (input: I) => Promise<O>) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: fn, onSuccess: () => refresh() });
}

export const useCreateWebhook = () => useWebhookMutation((body: z.input<typeof WebhookCreateBody>) => api.post<WebhookCreateResponse>(KEY, body));
export const useUpdateWebhook = () =>
  useWebhookMutation(({ id, body }: { id: number; body: z.input<typeof WebhookUpdateBody> }) => api.patch<WebhookEndpoint>(`${KEY}/${id}`, body));
export const useDeleteWebhook = () => useWebhookMutation((id: number) => api.del<MessageResponse>(`${KEY}/${id}`));
export const useSendTest = () => useWebhookMutation((id: number) => api.post<WebhookDelivery>(`${KEY}/${id}/test`));
export const useRedeliver = () =>
  useWebhookMutation(({ id, deliveryId }: { id: number; deliveryId: number }) => api.post<WebhookDelivery>(`${KEY}/${id}/deliveries/${deliveryId}/redeliver`));
export const useRollSecret = () => useWebhookMutation((id: number) => api.post<WebhookSecretRollResponse>(`${KEY}/${id}/secret`));
