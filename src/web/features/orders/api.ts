import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toOrderPayload, type OrderAddressPatchBody } from '#shared/schemas/orders';
import { getOrderStatusByToken, getOrdersClaimByToken, getOrdersMine, patchOrderStatusByTokenAddress, postOrder, postOrdersClaim, postUploadArtwork } from '#shared/contracts/orders';
import { postOrderStatusByTokenProof } from '#shared/contracts/designs';
import { callEndpoint, endpointKey, endpointQuery, uploadToEndpoint } from '#web/lib/endpoint';

export interface SubmitOrderInput {
  values: Parameters<typeof toOrderPayload>[0];
  /** made once per filled-in form: a retried submit answers the same order */
  idempotencyKey: string;
  /** made once per form page (crypto): signed out, the key is looked up only in this session's orders (issue 33) */
  formSession: string;
}

/** Places the order with the spec's payload; the key goes in the Idempotency-Key header, the page's session in X-Form-Session. */
export function useSubmitOrder() {
  return useMutation({
    mutationFn: ({ values, idempotencyKey, formSession }: SubmitOrderInput) =>
      callEndpoint(postOrder, { body: toOrderPayload(values), headers: { 'Idempotency-Key': idempotencyKey, 'X-Form-Session': formSession } }),
  });
}

/** The order form's artwork upload (answers [{ url }], signed out also the upload's own token, sent back with the order). */
export async function uploadArtwork(file: File, onProgress: (fraction: number) => void): Promise<{ url: string; token: string | null }> {
  const answer = await uploadToEndpoint(postUploadArtwork, file, { onProgress });
  const url = answer?.[0]?.url;
  if (!url) throw new Error('Upload failed');
  return { url, token: answer[0].uploadToken ?? null };
}

export function useOrderStatus(token: string | undefined) {
  return useQuery({ ...endpointQuery(getOrderStatusByToken, { params: { token: token ?? '' } }), enabled: !!token });
}

/** Corrects the delivery address until the order ships (issue 35). */
export function useUpdateOrderAddress(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: OrderAddressPatchBody) => callEndpoint(patchOrderStatusByTokenAddress, { params: { token }, body }),
    onSuccess: (view) => qc.setQueryData(endpointKey(getOrderStatusByToken, { params: { token } }), view),
  });
}

/** My orders: the signed-in customer's orders (and those placed signed out with the verified address). */
export function useMyOrders() {
  return useQuery(endpointQuery(getOrdersMine));
}

/** What a claim link claims (400 when it is spent or wrong). */
export function useOrderClaim(token: string | undefined) {
  return useQuery({ ...endpointQuery(getOrdersClaimByToken, { params: { token: token ?? '' } }), enabled: !!token, retry: false });
}

export function useClaimOrder() {
  return useMutation({
    mutationFn: (body: { token: string; password?: string; confirmPassword?: string }) => callEndpoint(postOrdersClaim, { body }),
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

/** The customer approves the proof or asks for changes (issue 35), naming the cards on a team order (decision 35-06). */
export function useAnswerProof(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { decision: 'approve' | 'changes'; message?: string; cardIds?: number[] }) => callEndpoint(postOrderStatusByTokenProof, { params: { token }, body }),
    onSuccess: (view) => qc.setQueryData(endpointKey(getOrderStatusByToken, { params: { token } }), view),
  });
}
