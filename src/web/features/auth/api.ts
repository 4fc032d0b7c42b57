import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AuthVerifyEmailResponse } from '#shared/schemas/auth';
import type { MessageResponse } from '#shared/schemas/common';
import { api } from '#web/lib/api';
import { AUTH_USER_KEY } from './use-auth';

/** Opens an e-mail verification link (POST /api/auth/verify-email); the signed-in user is refreshed. */
export function useVerifyEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<z.infer<typeof AuthVerifyEmailResponse>>('/api/auth/verify-email', { token }),
    onSuccess: (res) => {
      if (res.user) qc.setQueryData(AUTH_USER_KEY, res.user);
      else void qc.invalidateQueries({ queryKey: AUTH_USER_KEY });
    },
  });
}

/** Sends a new verification link to the signed-in account (throttled by the server: 429 when too soon). */
export function useResendVerification() {
  return useMutation({ mutationFn: () => api.post<MessageResponse>('/api/auth/verify-email/resend') });
}
