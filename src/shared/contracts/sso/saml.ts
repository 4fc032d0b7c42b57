import { defineEndpoint } from '#shared/contracts/endpoint';
import { z } from 'zod';
import { EmptyResponse, ErrorResponse, textDocument } from '#shared/schemas/common';

/**
 * Team single sign-on through SAML 2.0 (issue 39 item 3, decision 39-04). `/api/sso/saml/:teamId/*`
 * is the service provider the company's identity provider talks to (public: our metadata, the
 * redirect to the IdP, the assertion consumer service the browser posts the signed response to);
 * `/api/team/sso/saml` is the team owner's settings (the IdP's metadata, as XML or an address).
 * Re-exported by `contracts/sso.ts`.
 */

// every schema is written inside its defineEndpoint call: the web's bundles keep only method,
// path, access and scopes of each call (scripts/vite-web-contracts.mjs) and drop the rest

export const getSsoSamlMetadata = defineEndpoint({
  method: 'GET',
  path: '/api/sso/saml/:teamId/metadata',
  access: 'public',
  params: z.strictObject({ teamId: z.uuid({ error: 'Unknown team' }) }),
  summary: "Our SAML service provider metadata for a team (entity id, assertion consumer service, e-mail NameID)",
  responses: { 200: textDocument('application/samlmetadata+xml'), '4xx': ErrorResponse },
});

export const getSsoSamlLogin = defineEndpoint({
  method: 'GET',
  path: '/api/sso/saml/:teamId/login',
  access: 'public',
  params: z.strictObject({ teamId: z.uuid({ error: 'Unknown team' }) }),
  query: z.strictObject({ returnTo: z.string().max(500).optional() }),
  summary: "Starts a SAML sign-in: 303 to the team's identity provider with an AuthnRequest (HTTP-Redirect binding)",
  responses: { 303: EmptyResponse, '4xx': ErrorResponse },
});

export const postSsoSamlAcs = defineEndpoint({
  method: 'POST',
  path: '/api/sso/saml/:teamId/acs',
  access: 'public',
  params: z.strictObject({ teamId: z.uuid({ error: 'Unknown team' }) }),
  ownBody: {
    description: 'The identity provider\'s HTTP-POST binding: an application/x-www-form-urlencoded form with `SAMLResponse` (base64) and `RelayState`, posted by the browser from the IdP\'s page. Answers a 303: into the app when the signed response passes every check, else to the sign-in page.',
    json: 'SAMLResponse, RelayState',
    plainForm: true,
  },
  summary: 'Assertion consumer service: checks the signed SAML response and signs the person in',
  responses: { 303: EmptyResponse, '4xx': ErrorResponse },
});

const SamlConnection = z.strictObject({
  /** our side, to enter at the identity provider */
  sp: z.strictObject({ entityId: z.string(), acsUrl: z.string(), metadataUrl: z.string() }),
  /** the identity provider as last saved (null: none) */
  idp: z
    .strictObject({
      entityId: z.string(),
      ssoUrl: z.string(),
      metadataUrl: z.string().nullable(),
      certificates: z.array(z.strictObject({ subject: z.string(), notAfter: z.string(), sha256: z.string() })),
      savedAt: z.string(),
    })
    .nullable(),
});

export const getTeamSsoSaml = defineEndpoint({
  method: 'GET',
  path: '/api/team/sso/saml',
  access: 'user',
  summary: "The team's SAML connection (owner)",
  responses: { 200: SamlConnection },
});

export const putTeamSsoSaml = defineEndpoint({
  method: 'PUT',
  path: '/api/team/sso/saml',
  access: 'user',
  body: z
    .strictObject({
      metadataXml: z.string().max(1024 * 1024, { error: 'The metadata is too large (at most 1024 kB)' }).optional(),
      metadataUrl: z.string().max(2048, { error: 'The address is too long' }).optional(),
    })
    .refine((b) => (b.metadataXml?.trim() ? 1 : 0) + (b.metadataUrl?.trim() ? 1 : 0) === 1, { error: "Paste the identity provider's metadata or give its address (one of the two)", path: ['metadataXml'] }),
  summary: "Save the identity provider's SAML metadata, pasted or by address (owner)",
  responses: { 200: SamlConnection, '4xx': ErrorResponse },
});

export const deleteTeamSsoSaml = defineEndpoint({
  method: 'DELETE',
  path: '/api/team/sso/saml',
  access: 'user',
  summary: "Remove the team's SAML connection (owner)",
  responses: { 200: SamlConnection },
});
