import { defineEndpoint } from './endpoint';
import { EmptyResponse, MessageResponse } from '#shared/schemas/common';
import { SsoCallbackQuery, SsoConfig, SsoDiscoverBody, SsoDiscoverResponse, SsoDomain, SsoDomainBody, SsoDomainParams, SsoOidcBody, SsoRequireBody, SsoStartQuery } from '#shared/schemas/sso';

/**
 * Team single sign-on (issue 39 item 3, decision 39-03). `/api/auth/sso/*` is the sign-in (public:
 * the browser is sent to the company's identity provider and back); `/api/team/sso/*` is the team
 * owner's settings (any other caller: 403, or 404 without a team).
 */

// every schema is written inside its defineEndpoint call: the web's bundles keep only method,
// path, access and scopes of each call (scripts/vite-web-contracts.mjs) and drop the rest

export const postAuthSsoDiscover = defineEndpoint({ method: 'POST', path: '/api/auth/sso/discover', access: 'public', body: SsoDiscoverBody, summary: "Does this e-mail address's domain sign in with single sign-on", responses: { 200: SsoDiscoverResponse } });
export const getAuthSsoStart = defineEndpoint({ method: 'GET', path: '/api/auth/sso/start', access: 'public', query: SsoStartQuery, summary: "Sends the browser to the company's identity provider (303)", responses: { 303: EmptyResponse } });
export const getAuthSsoOidcCallback = defineEndpoint({ method: 'GET', path: '/api/auth/sso/oidc/callback', access: 'public', query: SsoCallbackQuery, summary: 'The OpenID provider sends the browser back here; signs in and sends it on (303)', responses: { 303: EmptyResponse } });

export const getTeamSso = defineEndpoint({ method: 'GET', path: '/api/team/sso', access: 'user', summary: "The team's single sign-on settings (owner)", responses: { 200: SsoConfig } });
export const postTeamSsoDomain = defineEndpoint({ method: 'POST', path: '/api/team/sso/domains', access: 'user', body: SsoDomainBody, summary: 'Add a company e-mail domain to prove (owner)', responses: { 201: SsoDomain } });
export const postTeamSsoDomainVerify = defineEndpoint({ method: 'POST', path: '/api/team/sso/domains/:id/verify', access: 'user', params: SsoDomainParams, summary: "Look up the domain's TXT record and mark it verified (owner)", responses: { 200: SsoDomain } });
export const deleteTeamSsoDomain = defineEndpoint({ method: 'DELETE', path: '/api/team/sso/domains/:id', access: 'user', params: SsoDomainParams, summary: 'Remove a company e-mail domain (owner)', responses: { 204: EmptyResponse } });
export const putTeamSsoOidc = defineEndpoint({ method: 'PUT', path: '/api/team/sso/oidc', access: 'user', body: SsoOidcBody, summary: 'Connect an OpenID Connect provider (owner; its discovery document is fetched and checked)', responses: { 200: SsoConfig } });
export const deleteTeamSsoConnection = defineEndpoint({ method: 'DELETE', path: '/api/team/sso/connection', access: 'user', summary: 'Disconnect the identity provider (owner; SSO is no longer required)', responses: { 200: MessageResponse } });
export const putTeamSsoRequire = defineEndpoint({ method: 'PUT', path: '/api/team/sso/require', access: 'user', body: SsoRequireBody, summary: 'Require single sign-on for the team (owner)', responses: { 200: SsoConfig } });

// SAML 2.0 (decision 39-04): its endpoints are in ./sso/saml.ts, joined to these in ./index.ts
