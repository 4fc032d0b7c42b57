import { defineEndpoint } from './endpoint';
import { ScimBody, ScimError, ScimGetQuery, ScimIdParams, ScimListQuery, ScimListResponse, ScimResource, ScimSettings, ScimSettingsBody, SyncedFieldsResponse } from '#shared/schemas/scim';
import { z } from 'zod';

/**
 * SCIM 2.0 provisioning (issue 39, decision 39-02). `/scim/v2/*` is the protocol (RFC 7644),
 * called by the company's identity provider with a team API token holding the `scim` scope (the
 * route checks it itself and answers in the SCIM error schema, so its access is `public`); the
 * discovery documents need no token. `/api/team/scim/*` is the owner's settings page.
 */

// every schema is written inside its defineEndpoint call: the web's bundles keep only method,
// path, access and scopes of each call (scripts/vite-web-contracts.mjs) and drop the rest

export const getScimServiceProviderConfig = defineEndpoint({ method: 'GET', path: '/scim/v2/ServiceProviderConfig', access: 'public', summary: 'SCIM service provider configuration', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const getScimResourceTypes = defineEndpoint({ method: 'GET', path: '/scim/v2/ResourceTypes', access: 'public', summary: 'SCIM resource types', responses: { 200: ScimListResponse, '4xx': ScimError, '5xx': ScimError } });
export const getScimResourceTypeById = defineEndpoint({ method: 'GET', path: '/scim/v2/ResourceTypes/:id', access: 'public', params: ScimIdParams, summary: 'SCIM resource type', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const getScimSchemas = defineEndpoint({ method: 'GET', path: '/scim/v2/Schemas', access: 'public', summary: 'SCIM schemas', responses: { 200: ScimListResponse, '4xx': ScimError, '5xx': ScimError } });
export const getScimSchemaById = defineEndpoint({ method: 'GET', path: '/scim/v2/Schemas/:id', access: 'public', params: ScimIdParams, summary: 'SCIM schema', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });

export const getScimUsers = defineEndpoint({ method: 'GET', path: '/scim/v2/Users', access: 'public', scopes: ['scim'], query: ScimListQuery, summary: 'SCIM: list or filter users', responses: { 200: ScimListResponse, '4xx': ScimError, '5xx': ScimError } });
export const postScimUsers = defineEndpoint({ method: 'POST', path: '/scim/v2/Users', access: 'public', scopes: ['scim'], body: ScimBody, summary: 'SCIM: create a user', responses: { 201: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const getScimUserById = defineEndpoint({ method: 'GET', path: '/scim/v2/Users/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, query: ScimGetQuery, summary: 'SCIM: get a user', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const putScimUserById = defineEndpoint({ method: 'PUT', path: '/scim/v2/Users/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, body: ScimBody, summary: 'SCIM: replace a user', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const patchScimUserById = defineEndpoint({ method: 'PATCH', path: '/scim/v2/Users/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, body: ScimBody, summary: 'SCIM: patch a user (active false offboards)', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const deleteScimUserById = defineEndpoint({ method: 'DELETE', path: '/scim/v2/Users/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, summary: 'SCIM: delete a user (offboards)', responses: { 204: z.null().describe('no content'), '4xx': ScimError, '5xx': ScimError } });

export const getScimGroups = defineEndpoint({ method: 'GET', path: '/scim/v2/Groups', access: 'public', scopes: ['scim'], query: ScimListQuery, summary: 'SCIM: list or filter groups', responses: { 200: ScimListResponse, '4xx': ScimError, '5xx': ScimError } });
export const postScimGroups = defineEndpoint({ method: 'POST', path: '/scim/v2/Groups', access: 'public', scopes: ['scim'], body: ScimBody, summary: 'SCIM: create a group', responses: { 201: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const getScimGroupById = defineEndpoint({ method: 'GET', path: '/scim/v2/Groups/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, query: ScimGetQuery, summary: 'SCIM: get a group', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const putScimGroupById = defineEndpoint({ method: 'PUT', path: '/scim/v2/Groups/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, body: ScimBody, summary: 'SCIM: replace a group', responses: { 200: ScimResource, '4xx': ScimError, '5xx': ScimError } });
export const patchScimGroupById = defineEndpoint({ method: 'PATCH', path: '/scim/v2/Groups/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, query: ScimGetQuery, body: ScimBody, summary: 'SCIM: patch a group (members, name)', responses: { 200: ScimResource, 204: z.null().describe('no content'), '4xx': ScimError, '5xx': ScimError } });
export const deleteScimGroupById = defineEndpoint({ method: 'DELETE', path: '/scim/v2/Groups/:id', access: 'public', scopes: ['scim'], params: ScimIdParams, summary: 'SCIM: delete a group', responses: { 204: z.null().describe('no content'), '4xx': ScimError, '5xx': ScimError } });

export const getTeamScimSettings = defineEndpoint({ method: 'GET', path: '/api/team/scim/settings', access: 'user', summary: "The team's provisioning settings (owner)", responses: { 200: ScimSettings } });
export const putTeamScimSettings = defineEndpoint({ method: 'PUT', path: '/api/team/scim/settings', access: 'user', body: ScimSettingsBody, summary: "Save the team's provisioning settings (owner)", responses: { 200: ScimSettings } });
export const getTeamScimSyncedFields = defineEndpoint({ method: 'GET', path: '/api/team/scim/synced-fields', access: 'user', summary: "The caller's profile fields kept in sync by their team's directory", responses: { 200: SyncedFieldsResponse } });
