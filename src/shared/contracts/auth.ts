import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import {
  AuthLoginBody,
  AuthLogoutResponse,
  AuthRegisterBody,
  AuthSessionResponse,
  AuthUserResponse,
  AuthVerifyEmailResponse,
  AuthVerifyResendResponse,
  PasskeyIdParams,
  PasskeyItem,
  PasskeyListResponse,
  PasskeyRegisterBody,
  PasskeyRenameBody,
  PasskeySignInBody,
  ReauthenticateBody,
  ReauthenticateResponse,
  TotpConfirmResponse,
  TotpDisableBody,
  TotpSetupResponse,
  TwoFactorCodeBody,
  TwoFactorRequiredResponse,
  TwoFactorStatusResponse,
  VerifyEmailBody,
  WebAuthnOptionsResponse,
} from '#shared/schemas/auth';
import { MessageResponse } from '#shared/schemas/common';

export const postAuthRegister = defineEndpoint({
  method: 'POST',
  path: '/api/auth/register',
  summary: 'Create an account',
  access: 'public',
  body: AuthRegisterBody,
  responses: { 201: AuthUserResponse },
});

export const postAuthLogin = defineEndpoint({
  method: 'POST',
  path: '/api/auth/login',
  summary: 'Sign in with e-mail and password',
  access: 'public',
  body: AuthLoginBody,
  // a second factor on the account: `{ twoFactorRequired: true }` and no session yet (issue 39)
  responses: { 200: z.union([AuthUserResponse, TwoFactorRequiredResponse]) },
});

export const postAuthLogout = defineEndpoint({
  method: 'POST',
  path: '/api/auth/logout',
  summary: 'Sign out',
  access: 'public',
  responses: { 200: AuthLogoutResponse },
});

export const getAuthUser = defineEndpoint({
  method: 'GET',
  path: '/api/auth/user',
  summary: 'The signed-in user',
  access: 'public',
  responses: { 200: AuthUserResponse },
});

export const getAuthSession = defineEndpoint({
  method: 'GET',
  path: '/api/auth/session',
  access: 'public',
  responses: { 200: AuthSessionResponse },
  summary: 'Who is signed in (user null for a visitor)',
});

export const postAuthVerifyEmail = defineEndpoint({
  method: 'POST',
  path: '/api/auth/verify-email',
  summary: "Confirm your e-mail address with the link's token",
  access: 'public',
  body: VerifyEmailBody,
  responses: { 200: AuthVerifyEmailResponse },
});

export const postAuthVerifyEmailResend = defineEndpoint({
  method: 'POST',
  path: '/api/auth/verify-email/resend',
  summary: 'Send the e-mail confirmation link again',
  access: 'user',
  responses: { 200: AuthVerifyResendResponse },
});

// ---- passkeys and two-factor sign-in (issue 39, decision 39-01)
export const getAccountTwoFactor = defineEndpoint({
  method: 'GET',
  path: '/api/account/two-factor',
  access: 'user',
  responses: { 200: TwoFactorStatusResponse },
  summary: "The account's second factors and this session's state",
});

export const postAccountTwoFactorTotp = defineEndpoint({
  method: 'POST',
  path: '/api/account/two-factor/totp',
  access: 'user',
  responses: { 200: TotpSetupResponse },
  summary: 'Start setting up an authenticator app (a new secret, not yet on)',
});

export const postAccountTwoFactorTotpConfirm = defineEndpoint({
  method: 'POST',
  path: '/api/account/two-factor/totp/confirm',
  access: 'user',
  body: TwoFactorCodeBody,
  responses: { 200: TotpConfirmResponse },
  summary: 'Turn the authenticator app on with its first code; answers the ten recovery codes once',
});

export const deleteAccountTwoFactorTotp = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/two-factor/totp',
  access: 'user',
  body: TotpDisableBody,
  responses: { 200: MessageResponse },
  summary: 'Turn the authenticator app off (the recovery codes go with it)',
});

export const getAccountPasskeys = defineEndpoint({
  method: 'GET',
  path: '/api/account/passkeys',
  summary: 'Your passkeys',
  access: 'user',
  responses: { 200: PasskeyListResponse },
});

export const postAccountPasskeysOptions = defineEndpoint({
  method: 'POST',
  path: '/api/account/passkeys/options',
  access: 'user',
  responses: { 200: WebAuthnOptionsResponse },
  summary: 'Options for creating a passkey (navigator.credentials.create)',
});

export const postAccountPasskeys = defineEndpoint({
  method: 'POST',
  path: '/api/account/passkeys',
  access: 'user',
  body: PasskeyRegisterBody,
  responses: { 201: PasskeyItem },
  summary: 'Add a passkey',
});

export const patchAccountPasskey = defineEndpoint({
  method: 'PATCH',
  path: '/api/account/passkeys/:id',
  access: 'user',
  params: PasskeyIdParams,
  body: PasskeyRenameBody,
  responses: { 200: PasskeyItem },
  summary: 'Rename a passkey',
});

export const deleteAccountPasskey = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/passkeys/:id',
  access: 'user',
  params: PasskeyIdParams,
  responses: { 200: MessageResponse },
  summary: 'Remove a passkey',
});

export const postAuthLoginTwoFactor = defineEndpoint({
  method: 'POST',
  path: '/api/auth/login/two-factor',
  access: 'public',
  body: TwoFactorCodeBody,
  responses: { 200: AuthUserResponse },
  summary: "The sign-in's second step: a TOTP or a recovery code",
});

export const postAuthPasskeyOptions = defineEndpoint({
  method: 'POST',
  path: '/api/auth/passkey/options',
  access: 'public',
  responses: { 200: WebAuthnOptionsResponse },
  summary: 'Options for signing in with a passkey (discoverable credentials, autofill)',
});

export const postAuthPasskey = defineEndpoint({
  method: 'POST',
  path: '/api/auth/passkey',
  access: 'public',
  body: PasskeySignInBody,
  responses: { 200: AuthUserResponse },
  summary: 'Sign in with a passkey (counts as both factors)',
});

export const postAuthReauthenticate = defineEndpoint({
  method: 'POST',
  path: '/api/auth/reauthenticate',
  access: 'user',
  body: ReauthenticateBody,
  responses: { 200: ReauthenticateResponse },
  summary: 'Confirm it is you again (sensitive staff actions need it within 15 minutes)',
});
