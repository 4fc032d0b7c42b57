import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postAuthVerifyEmail, postAuthVerifyEmailResend } from '#shared/contracts/auth';
import { callEndpoint } from '#web/lib/endpoint';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';

/** Opens an e-mail verification link; the signed-in user is refreshed. */
export function useVerifyEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => callEndpoint(postAuthVerifyEmail, { body: { token } }),
    onSuccess: (res) => {
      if (res.user) qc.setQueryData(AUTH_USER_KEY, res.user);
      else void qc.invalidateQueries({ queryKey: AUTH_USER_KEY });
    },
  });
}

/** Sends a new verification link to the signed-in account (throttled by the server: 429 when too soon). */
export function useResendVerification() {
  return useMutation({ mutationFn: () => callEndpoint(postAuthVerifyEmailResend) });
}
