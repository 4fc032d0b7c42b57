import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TokenCreateBody } from '#shared/schemas/developer';
import { deleteTokensById, getTokens, postTokens } from '#shared/contracts/developer';
import { callEndpoint, endpointKey, endpointQuery } from '#web/lib/endpoint';

export const TOKENS_KEY = endpointKey(getTokens);

export function useTokens() {
  return useQuery(endpointQuery(getTokens));
}

export function useCreateToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TokenCreateBody) => callEndpoint(postTokens, { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}

export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(deleteTokensById, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}
