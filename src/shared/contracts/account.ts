import { defineEndpoint } from './endpoint';
import { AccountDeleteBody, AccountExportResponse, AccountGetResponse, AccountSessionListResponse, AccountSessionsRevokeResponse, EmailChangeBody, EmailChangeResponse, EmailConfirmBody, EmailConfirmResponse, PasswordChangeBody, PasswordForgotBody, PasswordResetBody, PasswordResetResponse } from '#shared/schemas/account';
import { MessageResponse } from '#shared/schemas/common';

export const postAuthForgotPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/forgot-password',
  summary: 'Send a password reset link',
  access: 'public',
  body: PasswordForgotBody,
  responses: { 200: MessageResponse },
});

export const postAuthResetPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/reset-password',
  summary: "Set a new password with a reset link's token",
  access: 'public',
  body: PasswordResetBody,
  responses: { 200: PasswordResetResponse },
});

export const getAccount = defineEndpoint({
  method: 'GET',
  path: '/api/account',
  summary: "Your account's details",
  access: 'user',
  responses: { 200: AccountGetResponse },
});

export const getAccountSessions = defineEndpoint({
  method: 'GET',
  path: '/api/account/sessions',
  summary: 'Where you are signed in',
  access: 'user',
  responses: { 200: AccountSessionListResponse },
});

export const postAccountSessionsRevokeOthers = defineEndpoint({
  method: 'POST',
  path: '/api/account/sessions/revoke-others',
  summary: 'Sign out everywhere else',
  access: 'user',
  responses: { 200: AccountSessionsRevokeResponse },
});

export const postAccountPassword = defineEndpoint({
  method: 'POST',
  path: '/api/account/password',
  summary: 'Change your password',
  access: 'user',
  body: PasswordChangeBody,
  responses: { 200: MessageResponse },
});

export const postAccountEmail = defineEndpoint({
  method: 'POST',
  path: '/api/account/email',
  summary: 'Change your e-mail address (a confirmation link is sent to the new one)',
  access: 'user',
  body: EmailChangeBody,
  responses: { 200: EmailChangeResponse },
});

export const postAccountEmailConfirm = defineEndpoint({
  method: 'POST',
  path: '/api/account/email/confirm',
  summary: "Confirm a new e-mail address with the link's token",
  access: 'public',
  body: EmailConfirmBody,
  responses: { 200: EmailConfirmResponse },
});

export const getAccountExport = defineEndpoint({
  method: 'GET',
  path: '/api/account/export',
  summary: 'Download everything we keep about your account (JSON)',
  access: 'user',
  responses: { 200: AccountExportResponse },
});

export const deleteAccount = defineEndpoint({
  method: 'DELETE',
  path: '/api/account',
  summary: 'Delete your account (password required)',
  access: 'user',
  body: AccountDeleteBody,
  responses: { 200: MessageResponse },
});
