import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TokenCreateBody, TokenCreateResponse, TokenListResponse } from '#shared/schemas/developer';
import type { MessageResponse } from '#shared/schemas/common';
import { api } from '#web/lib/api';

export const TOKENS_KEY = ['/api/tokens'] as const;

export function useTokens() {
  return useQuery<TokenListResponse>({ queryKey: TOKENS_KEY });
}

export function useCreateToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TokenCreateBody) => api.post<TokenCreateResponse>('/api/tokens', input),
    onSuccess: () => qc.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}

export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageResponse>(`/api/tokens/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}
