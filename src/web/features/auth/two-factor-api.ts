import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnAbortService } from '@simplewebauthn/browser';
import {
  deleteAccountPasskey,
  deleteAccountTwoFactorTotp,
  getAccountPasskeys,
  getAccountTwoFactor,
  patchAccountPasskey,
  postAccountPasskeys,
  postAccountPasskeysOptions,
  postAccountTwoFactorTotp,
  postAccountTwoFactorTotpConfirm,
  postAuthPasskey,
  postAuthPasskeyOptions,
  postAuthReauthenticate,
} from '#shared/contracts/auth';
import { callEndpoint, endpointKey, endpointQuery } from '#web/lib/endpoint';

/** Passkeys and two-factor sign-in in the browser (issue 39), through the shared contracts. */
export const TWO_FACTOR_KEY = endpointKey(getAccountTwoFactor);
export const PASSKEYS_KEY = endpointKey(getAccountPasskeys);

export function useTwoFactorStatus(enabled = true) {
  return useQuery({ ...endpointQuery(getAccountTwoFactor), enabled });
}

export function usePasskeys() {
  return useQuery(endpointQuery(getAccountPasskeys));
}

function useRefresh() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: TWO_FACTOR_KEY }), qc.invalidateQueries({ queryKey: PASSKEYS_KEY })]);
}

export function useStartTotp() {
  return useMutation({ mutationFn: () => callEndpoint(postAccountTwoFactorTotp) });
}

export function useConfirmTotp() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (code: string) => callEndpoint(postAccountTwoFactorTotpConfirm, { body: { code } }), onSuccess: () => refresh() });
}

export function useDisableTotp() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (password: string) => callEndpoint(deleteAccountTwoFactorTotp, { body: { password } }), onSuccess: () => refresh() });
}

export function useReauthenticate() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: { code?: string; password?: string }) => callEndpoint(postAuthReauthenticate, { body }), onSuccess: () => refresh() });
}

export const passkeysSupported = () => typeof window !== 'undefined' && browserSupportsWebAuthn();

/** Creates a passkey in the browser and registers it. */
export function useAddPasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (name: string | undefined) => {
      const { options } = await callEndpoint(postAccountPasskeysOptions);
      const credential = await startRegistration({ optionsJSON: options as never });
      return callEndpoint(postAccountPasskeys, { body: { name, credential: credential as never } });
    },
    onSuccess: () => refresh(),
  });
}

export function useRenamePasskey() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: ({ id, name }: { id: string; name: string }) => callEndpoint(patchAccountPasskey, { params: { id }, body: { name } }), onSuccess: () => refresh() });
}

export function useRemovePasskey() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => callEndpoint(deleteAccountPasskey, { params: { id } }), onSuccess: () => refresh() });
}

/**
 * Signs in with a passkey: `autofill` waits for the browser's autofill list on the e-mail field
 * (conditional mediation); otherwise the browser's passkey dialog opens now.
 */
export async function signInWithPasskey(autofill = false) {
  const { options } = await callEndpoint(postAuthPasskeyOptions);
  const credential = await startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill });
  return callEndpoint(postAuthPasskey, { body: { credential: credential as never } });
}

/** Confirms the signed-in session with one of its passkeys (the staff's "confirm it is you"). */
export async function reauthenticateWithPasskey() {
  const { options } = await callEndpoint(postAuthPasskeyOptions);
  const credential = await startAuthentication({ optionsJSON: options as never });
  return callEndpoint(postAuthReauthenticate, { body: { credential: credential as never } });
}

/** Stops a waiting autofill request (before a button starts its own ceremony, or when the page goes). */
export function cancelPasskeyCeremony() {
  WebAuthnAbortService.cancelCeremony();
}
