import { defineEndpoint } from './endpoint';
import { AuthLoginBody, AuthLogoutResponse, AuthRegisterBody, AuthSessionResponse, AuthUserResponse, AuthVerifyEmailResponse, AuthVerifyResendResponse, VerifyEmailBody } from '#shared/schemas/auth';

export const postAuthRegister = defineEndpoint({
  method: 'POST',
  path: '/api/auth/register',
  access: 'public',
  body: AuthRegisterBody,
  responses: { 201: AuthUserResponse },
});

export const postAuthLogin = defineEndpoint({
  method: 'POST',
  path: '/api/auth/login',
  access: 'public',
  body: AuthLoginBody,
  responses: { 200: AuthUserResponse },
});

export const postAuthLogout = defineEndpoint({
  method: 'POST',
  path: '/api/auth/logout',
  access: 'public',
  responses: { 200: AuthLogoutResponse },
});

export const getAuthUser = defineEndpoint({
  method: 'GET',
  path: '/api/auth/user',
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
  access: 'public',
  body: VerifyEmailBody,
  responses: { 200: AuthVerifyEmailResponse },
});

export const postAuthVerifyEmailResend = defineEndpoint({
  method: 'POST',
  path: '/api/auth/verify-email/resend',
  access: 'user',
  responses: { 200: AuthVerifyResendResponse },
});
