import { z } from 'zod';
import { emailField, isoDateTime } from './common';

/**
 * Team single sign-on (issue 39 item 3, decision 39-03): the owner proves the company's e-mail
 * domains with a DNS TXT record and connects an identity provider (OpenID Connect here, SAML 2.0
 * in decision 39-04); people of a proven domain then sign in through it.
 */

/** The DNS name and value a domain's proof is published as (decision 39-03). */
export const SSO_TXT_PREFIX = '_cards-verification';
export const SSO_TXT_VALUE_PREFIX = 'cards-verification=';

export const SSO_MESSAGES = {
  onlyOwner: 'Only the team owner can change single sign-on',
  required: 'Your company requires single sign-on: use "Continue with SSO" with your work e-mail.',
  breakGlassNeedsFactor: 'Your company requires single sign-on. Signing in with a password is kept for the team owner and staff, and needs a second factor (an authenticator app or a passkey) on the account.',
  requireNeedsFactor: 'Turn on a second factor (an authenticator app or a passkey) on your account first: it keeps your way in when single sign-on is required.',
  requireNeedsConnection: 'Connect an identity provider and verify a domain before you require single sign-on.',
} as const;

const domainText = z
  .string({ error: () => 'Enter a domain' })
  .trim()
  .toLowerCase()
  .min(1, 'Enter a domain')
  .max(253, 'A domain is at most 253 characters')
  .transform((d) => d.replace(/\.$/, ''))
  .refine((d) => /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(d), 'Enter a domain such as example.com');

export const SsoDomainBody = z.strictObject({ domain: domainText });
export type SsoDomainBody = z.input<typeof SsoDomainBody>;

export const SsoDomainParams = z.strictObject({ id: z.uuid({ error: () => 'Unknown domain' }) });

export const SsoDomain = z.strictObject({
  id: z.uuid(),
  domain: z.string(),
  /** publish this as a TXT record */
  txtName: z.string(),
  txtValue: z.string(),
  verifiedAt: isoDateTime.nullable(),
});
export type SsoDomain = z.infer<typeof SsoDomain>;

const urlText = z.string({ error: () => 'Enter the issuer URL' }).trim().min(1, 'Enter the issuer URL').max(500, 'The issuer URL is at most 500 characters');

export const SsoOidcBody = z.strictObject({
  issuer: urlText.refine((u) => /^https?:\/\/[^\s]+$/i.test(u), 'Enter the issuer URL, starting with https://'),
  clientId: z.string({ error: () => 'Enter the client ID' }).trim().min(1, 'Enter the client ID').max(300, 'The client ID is at most 300 characters'),
  /** empty or left out: keep the stored secret */
  clientSecret: z.string().max(1000, 'The client secret is at most 1000 characters').optional(),
});
export type SsoOidcBody = z.input<typeof SsoOidcBody>;

export const SsoRequireBody = z.strictObject({ requireSso: z.boolean({ error: () => 'requireSso must be true or false' }) });

export const SsoConfig = z.strictObject({
  domains: z.array(SsoDomain),
  kind: z.enum(['oidc', 'saml']).nullable(),
  oidc: z.strictObject({ issuer: z.string(), clientId: z.string(), hasClientSecret: z.boolean() }).nullable(),
  requireSso: z.boolean(),
  /** the redirect URI to register at the identity provider */
  oidcRedirectUri: z.string(),
  /** can the owner require SSO now (a connection, a verified domain, a second factor on their account) */
  canRequire: z.boolean(),
});
export type SsoConfig = z.infer<typeof SsoConfig>;

export const SsoDiscoverBody = z.strictObject({ email: emailField() });
export const SsoDiscoverResponse = z.strictObject({ sso: z.boolean() });
export type SsoDiscoverResponse = z.infer<typeof SsoDiscoverResponse>;

export const SsoStartQuery = z.strictObject({
  email: z.string().max(254).optional(),
  returnTo: z.string().max(500).optional(),
});

export const SsoCallbackQuery = z.looseObject({
  state: z.string().max(500).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(500).optional(),
});
