import { defineEndpoint } from './endpoint';
import { AccountDeleteBody, AccountExportResponse, AccountGetResponse, AccountSessionListResponse, AccountSessionsRevokeResponse, EmailChangeBody, EmailChangeResponse, EmailConfirmBody, EmailConfirmResponse, PasswordChangeBody, PasswordForgotBody, PasswordResetBody, PasswordResetResponse } from '#shared/schemas/account';
import { MessageResponse } from '#shared/schemas/common';

export const postAuthForgotPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/forgot-password',
  access: 'public',
  body: PasswordForgotBody,
  responses: { 200: MessageResponse },
});

export const postAuthResetPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/reset-password',
  access: 'public',
  body: PasswordResetBody,
  responses: { 200: PasswordResetResponse },
});

export const getAccount = defineEndpoint({
  method: 'GET',
  path: '/api/account',
  access: 'user',
  responses: { 200: AccountGetResponse },
});

export const getAccountSessions = defineEndpoint({
  method: 'GET',
  path: '/api/account/sessions',
  access: 'user',
  responses: { 200: AccountSessionListResponse },
});

export const postAccountSessionsRevokeOthers = defineEndpoint({
  method: 'POST',
  path: '/api/account/sessions/revoke-others',
  access: 'user',
  responses: { 200: AccountSessionsRevokeResponse },
});

export const postAccountPassword = defineEndpoint({
  method: 'POST',
  path: '/api/account/password',
  access: 'user',
  body: PasswordChangeBody,
  responses: { 200: MessageResponse },
});

export const postAccountEmail = defineEndpoint({
  method: 'POST',
  path: '/api/account/email',
  access: 'user',
  body: EmailChangeBody,
  responses: { 200: EmailChangeResponse },
});

export const postAccountEmailConfirm = defineEndpoint({
  method: 'POST',
  path: '/api/account/email/confirm',
  access: 'public',
  body: EmailConfirmBody,
  responses: { 200: EmailConfirmResponse },
});

export const getAccountExport = defineEndpoint({
  method: 'GET',
  path: '/api/account/export',
  access: 'user',
  responses: { 200: AccountExportResponse },
});

export const deleteAccount = defineEndpoint({
  method: 'DELETE',
  path: '/api/account',
  access: 'user',
  body: AccountDeleteBody,
  responses: { 200: MessageResponse },
});
