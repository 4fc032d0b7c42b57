import { defineEndpoint } from './endpoint';
import { ScimBody, ScimError, ScimGetQuery, ScimIdParams, ScimListQuery, ScimListResponse, ScimResource, ScimSettings, ScimSettingsBody, SyncedFieldsResponse } from '#shared/schemas/scim';
import { z } from 'zod';

/**
 * SCIM 2.0 provisioning (issue 39, decision 39-02). `/scim/v2/*` is the protocol (RFC 7644),
 * called by the company's identity provider with a team API token holding the `scim` scope (the
 * route checks it itself and answers in the SCIM error schema, so its access is `public`); the
 * discovery documents need no token. `/api/team/scim/*` is the owner's settings page.
 */

const scim = { access: 'public', scopes: ['scim'] } as const;
const errors = { '4xx': ScimError, '5xx': ScimError } as const;
const noContent = z.null().describe('no content');

export const getScimServiceProviderConfig = defineEndpoint({ method: 'GET', path: '/scim/v2/ServiceProviderConfig', access: 'public', summary: 'SCIM service provider configuration', responses: { 200: ScimResource, ...errors } });
export const getScimResourceTypes = defineEndpoint({ method: 'GET', path: '/scim/v2/ResourceTypes', access: 'public', summary: 'SCIM resource types', responses: { 200: ScimListResponse, ...errors } });
export const getScimResourceTypeById = defineEndpoint({ method: 'GET', path: '/scim/v2/ResourceTypes/:id', access: 'public', params: ScimIdParams, summary: 'SCIM resource type', responses: { 200: ScimResource, ...errors } });
export const getScimSchemas = defineEndpoint({ method: 'GET', path: '/scim/v2/Schemas', access: 'public', summary: 'SCIM schemas', responses: { 200: ScimListResponse, ...errors } });
export const getScimSchemaById = defineEndpoint({ method: 'GET', path: '/scim/v2/Schemas/:id', access: 'public', params: ScimIdParams, summary: 'SCIM schema', responses: { 200: ScimResource, ...errors } });

export const getScimUsers = defineEndpoint({ method: 'GET', path: '/scim/v2/Users', ...scim, query: ScimListQuery, summary: 'SCIM: list or filter users', responses: { 200: ScimListResponse, ...errors } });
export const postScimUsers = defineEndpoint({ method: 'POST', path: '/scim/v2/Users', ...scim, body: ScimBody, summary: 'SCIM: create a user', responses: { 201: ScimResource, ...errors } });
export const getScimUserById = defineEndpoint({ method: 'GET', path: '/scim/v2/Users/:id', ...scim, params: ScimIdParams, query: ScimGetQuery, summary: 'SCIM: get a user', responses: { 200: ScimResource, ...errors } });
export const putScimUserById = defineEndpoint({ method: 'PUT', path: '/scim/v2/Users/:id', ...scim, params: ScimIdParams, body: ScimBody, summary: 'SCIM: replace a user', responses: { 200: ScimResource, ...errors } });
export const patchScimUserById = defineEndpoint({ method: 'PATCH', path: '/scim/v2/Users/:id', ...scim, params: ScimIdParams, body: ScimBody, summary: 'SCIM: patch a user (active false offboards)', responses: { 200: ScimResource, ...errors } });
export const deleteScimUserById = defineEndpoint({ method: 'DELETE', path: '/scim/v2/Users/:id', ...scim, params: ScimIdParams, summary: 'SCIM: delete a user (offboards)', responses: { 204: noContent, ...errors } });

export const getScimGroups = defineEndpoint({ method: 'GET', path: '/scim/v2/Groups', ...scim, query: ScimListQuery, summary: 'SCIM: list or filter groups', responses: { 200: ScimListResponse, ...errors } });
export const postScimGroups = defineEndpoint({ method: 'POST', path: '/scim/v2/Groups', ...scim, body: ScimBody, summary: 'SCIM: create a group', responses: { 201: ScimResource, ...errors } });
export const getScimGroupById = defineEndpoint({ method: 'GET', path: '/scim/v2/Groups/:id', ...scim, params: ScimIdParams, query: ScimGetQuery, summary: 'SCIM: get a group', responses: { 200: ScimResource, ...errors } });
export const putScimGroupById = defineEndpoint({ method: 'PUT', path: '/scim/v2/Groups/:id', ...scim, params: ScimIdParams, body: ScimBody, summary: 'SCIM: replace a group', responses: { 200: ScimResource, ...errors } });
export const patchScimGroupById = defineEndpoint({ method: 'PATCH', path: '/scim/v2/Groups/:id', ...scim, params: ScimIdParams, query: ScimGetQuery, body: ScimBody, summary: 'SCIM: patch a group (members, name)', responses: { 200: ScimResource, 204: noContent, ...errors } });
export const deleteScimGroupById = defineEndpoint({ method: 'DELETE', path: '/scim/v2/Groups/:id', ...scim, params: ScimIdParams, summary: 'SCIM: delete a group', responses: { 204: noContent, ...errors } });

export const getTeamScimSettings = defineEndpoint({ method: 'GET', path: '/api/team/scim/settings', access: 'user', summary: "The team's provisioning settings (owner)", responses: { 200: ScimSettings } });
export const putTeamScimSettings = defineEndpoint({ method: 'PUT', path: '/api/team/scim/settings', access: 'user', body: ScimSettingsBody, summary: "Save the team's provisioning settings (owner)", responses: { 200: ScimSettings } });
export const getTeamScimSyncedFields = defineEndpoint({ method: 'GET', path: '/api/team/scim/synced-fields', access: 'user', summary: "The caller's profile fields kept in sync by their team's directory", responses: { 200: SyncedFieldsResponse } });
