import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  toOrderPayload,
  type ArtworkUploadResponse,
  type MyOrdersResponse,
  type OrderClaim,
  type OrderClaimResult,
  type OrderCreateResponse,
  type OrderStatusView,
} from '#shared/schemas/orders';
import { api, uploadFile } from '#web/lib/api';

export interface SubmitOrderInput {
  values: Parameters<typeof toOrderPayload>[0];
  /** made once per filled-in form: a retried submit answers the same order */
  idempotencyKey: string;
}

/** POST /api/order with the spec's payload; the key goes in the Idempotency-Key header. */
export function useSubmitOrder() {
  return useMutation({
    mutationFn: ({ values, idempotencyKey }: SubmitOrderInput) =>
      api.post<OrderCreateResponse>('/api/order', toOrderPayload(values), { 'Idempotency-Key': idempotencyKey }),
  });
}

/** The order form's artwork upload (answers [{ url }], signed out also the upload's own token, sent back with the order). */
export async function uploadArtwork(file: File, onProgress: (fraction: number) => void): Promise<{ url: string; token: string | null }> {
  const answer = await uploadFile<z.infer<typeof ArtworkUploadResponse>>('/api/upload/artwork', 'artwork', file, { onProgress });
  const url = answer?.[0]?.url;
  if (!url) throw new Error('Upload failed');
  return { url, token: answer[0].uploadToken ?? null };
}

export function useOrderStatus(token: string | undefined) {
  return useQuery<OrderStatusView>({
    queryKey: [`/api/order-status/${encodeURIComponent(token ?? '')}`],
    enabled: !!token,
  });
}

/** My orders: the signed-in customer's orders (and those placed signed out with the verified address). */
export function useMyOrders() {
  return useQuery<MyOrdersResponse>({ queryKey: ['/api/orders/mine'] });
}

/** What a claim link claims (400 when it is spent or wrong). */
export function useOrderClaim(token: string | undefined) {
  return useQuery<OrderClaim>({ queryKey: [`/api/orders/claim/${encodeURIComponent(token ?? '')}`], enabled: !!token, retry: false });
}

export function useClaimOrder() {
  return useMutation({
    mutationFn: (body: { token: string; password?: string; confirmPassword?: string }) => api.post<OrderClaimResult>('/api/orders/claim', body),
  });
}

/** A random token for one filled-in form (crypto.randomUUID where available). */
export function newClientToken(): string {
  const c: Crypto = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
