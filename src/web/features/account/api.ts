import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AccountInfo,
  AccountSessionsResponse,
  AccountSessionsRevokeResponse,
  ChangeEmailInput,
  ChangePasswordInput,
  EmailChangeResponse,
  EmailConfirmResponse,
  PasswordResetResponse,
  ResetPasswordInput,
} from '#shared/schemas/account';
import type { MessageResponse } from '#shared/schemas/common';
import { api, apiRequest } from '#web/lib/api';
import { saveBlob } from '#web/lib/download';
import { AUTH_USER_KEY } from '#web/features/auth/use-auth';

export const ACCOUNT_KEY = ['/api/account'] as const;
export const SESSIONS_KEY = ['/api/account/sessions'] as const;

export type { AccountInfo };

export function useAccount() {
  return useQuery<AccountInfo>({ queryKey: ACCOUNT_KEY });
}

export function useSessions() {
  return useQuery<AccountSessionsResponse>({ queryKey: SESSIONS_KEY });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => api.post<MessageResponse>('/api/auth/forgot-password', { email }) });
}

export function useResetPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => api.post<z.infer<typeof PasswordResetResponse>>('/api/auth/reset-password', input),
    onSuccess: (res) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
      qc.setQueryData(AUTH_USER_KEY, res.user);
    },
  });
}

export function useChangePassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<MessageResponse>('/api/account/password', input),
    onSuccess: () => qc.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useChangeEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeEmailInput) => api.post<EmailChangeResponse>('/api/account/email', input),
    onSuccess: (res) => qc.setQueryData<AccountInfo>(ACCOUNT_KEY, (old) => (old ? { ...old, pendingEmail: res.pendingEmail } : old)),
  });
}

export function useConfirmEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<z.infer<typeof EmailConfirmResponse>>('/api/account/email/confirm', { token }),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: AUTH_USER_KEY });
      qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
    },
  });
}

export function useRevokeOtherSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<z.infer<typeof AccountSessionsRevokeResponse>>('/api/account/sessions/revoke-others'),
    onSuccess: () => qc.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** Deleting signs the browser out; call `forgetAccount()` once the page has left the signed-in area. */
export function useDeleteAccount() {
  const qc = useQueryClient();
  const mutation = useMutation({ mutationFn: (password: string) => api.del<MessageResponse>('/api/account', { password }) });
  const forgetAccount = () => {
    qc.setQueryData(AUTH_USER_KEY, null);
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
  };
  return Object.assign(mutation, { forgetAccount });
}

/** Downloads the account export as a file (fetch + blob, so a refusal can be shown as a toast). */
export async function downloadAccountExport(): Promise<string> {
  const res = await apiRequest('GET', '/api/account/export');
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'metal-cards-account.json';
  saveBlob(await res.blob(), name);
  return name;
}
