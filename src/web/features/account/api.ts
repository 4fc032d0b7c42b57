import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountInfo, ChangeEmailInput, ChangePasswordInput, ResetPasswordInput } from '#shared/schemas/account';
import {
  deleteAccount,
  getAccount,
  getAccountExport,
  getAccountSessions,
  postAccountEmail,
  postAccountEmailConfirm,
  postAccountPassword,
  postAccountSessionsRevokeOthers,
  postAuthForgotPassword,
  postAuthResetPassword,
} from '#shared/contracts/account';
import { saveBlob } from '#web/lib/download';
import { callEndpoint, endpointKey, endpointQuery, fetchEndpoint } from '#web/lib/endpoint';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';

export const ACCOUNT_KEY = endpointKey(getAccount);
export const SESSIONS_KEY = endpointKey(getAccountSessions);

export type { AccountInfo };

export function useAccount() {
  return useQuery(endpointQuery(getAccount));
}

export function useSessions() {
  return useQuery(endpointQuery(getAccountSessions));
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => callEndpoint(postAuthForgotPassword, { body: { email } }) });
}

export function useResetPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => callEndpoint(postAuthResetPassword, { body: input }),
    onSuccess: (res) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
      qc.setQueryData(AUTH_USER_KEY, res.user);
    },
  });
}

export function useChangePassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => callEndpoint(postAccountPassword, { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useChangeEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeEmailInput) => callEndpoint(postAccountEmail, { body: input }),
    onSuccess: (res) => qc.setQueryData<AccountInfo>(ACCOUNT_KEY, (old) => (old ? { ...old, pendingEmail: res.pendingEmail } : old)),
  });
}

export function useConfirmEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => callEndpoint(postAccountEmailConfirm, { body: { token } }),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: AUTH_USER_KEY });
      qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
    },
  });
}

export function useRevokeOtherSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(postAccountSessionsRevokeOthers),
    onSuccess: () => qc.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** Deleting signs the browser out; the page it lands on forgets the account (`useForgetAccount`). */
export function useDeleteAccount() {
  return useMutation({ mutationFn: (password: string) => callEndpoint(deleteAccount, { body: { password } }) });
}

/**
 * Forgets the deleted account in this browser. Called by the page the browser lands on once it has
 * mounted: forgotten earlier, the account page (still shown while the next page's code loads) saw
 * no user and sent the browser to the sign-in page.
 */
export function useForgetAccount() {
  const qc = useQueryClient();
  return () => {
    qc.setQueryData(AUTH_USER_KEY, null);
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== AUTH_USER_KEY[0] });
  };
}

/** Downloads the account export as a file (fetch + blob, so a refusal can be shown as a toast). */
export async function downloadAccountExport(): Promise<string> {
  const res = await fetchEndpoint(getAccountExport);
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'metal-cards-account.json';
  saveBlob(await res.blob(), name);
  return name;
}
