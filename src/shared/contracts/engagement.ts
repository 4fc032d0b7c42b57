import { defineEndpoint } from './endpoint';
import { EmptyResponse, IdParams, MessageResponse } from '#shared/schemas/common';
import { CardCodeCreateBody, CardCodeListResponse, CardCodeOpenParams, CardCodeOpenResponse, CompanyVcardResponse, CardCodeResponse, CardCodeUpdateBody, CardCodeUpdateParams, EngagementStatsGetResponse, LeadCreateBody, EngagementStatsQuery, LeadCreateErrorResponse, LeadCreateResponse, LeadExportCsvResponse, LeadExportVcfResponse, LeadFormSettingResponse, LeadFormSettingSaveBody, LeadListQuery, LeadListResponse, LeadThanksPageResponse } from '#shared/schemas/engagement';
import { ProfileIdParams, VisitStatsGetResponse } from '#shared/schemas/profile';

export const getPageCByCode = defineEndpoint({
  method: 'GET',
  path: '/c/:code',
  access: 'public',
  params: CardCodeOpenParams,
  responses: CardCodeOpenResponse,
});

/** A turned-off team card's company contact file (vCard 3.0; issue 37, decision 37-04); 404 otherwise. */
export const getPageCByCodeCompanyVcf = defineEndpoint({
  method: 'GET',
  path: '/c/:code/company.vcf',
  access: 'public',
  params: CardCodeOpenParams,
  responses: CompanyVcardResponse,
});

export const getPageCByCodeUpper = defineEndpoint({
  method: 'GET',
  path: '/C/:code',
  access: 'public',
  params: CardCodeOpenParams,
  responses: CardCodeOpenResponse,
});

export const getCardCodes = defineEndpoint({
  method: 'GET',
  path: '/api/card-codes',
  summary: 'Your card codes (the addresses printed cards open)',
  access: 'user',
  responses: { 200: CardCodeListResponse },
});

export const postCardCodes = defineEndpoint({
  method: 'POST',
  path: '/api/card-codes',
  summary: 'Create a card code',
  access: 'user',
  body: CardCodeCreateBody,
  responses: { 201: CardCodeResponse },
});

export const patchCardCodesByCode = defineEndpoint({
  method: 'PATCH',
  path: '/api/card-codes/:code',
  summary: 'Turn a card code on or off',
  access: 'user',
  params: CardCodeUpdateParams,
  body: CardCodeUpdateBody,
  responses: { 200: CardCodeResponse },
});

export const getStatsVisits = defineEndpoint({
  method: 'GET',
  path: '/api/stats/visits',
  access: 'user',
  scopes: ['stats:read'],
  summary: 'Profile visit statistics',
  responses: { 200: VisitStatsGetResponse },
});

export const getStatsEngagement = defineEndpoint({
  method: 'GET',
  path: '/api/stats/engagement',
  access: 'user',
  scopes: ['stats:read'],
  query: EngagementStatsQuery,
  summary: 'Views, saves, clicks and leads by day',
  responses: { 200: EngagementStatsGetResponse },
});

export const postPByIdLeads = defineEndpoint({
  method: 'POST',
  path: '/api/p/:id/leads',
  summary: 'Leave your contact details on a profile',
  access: 'public',
  params: ProfileIdParams,
  // JSON or the page's plain form: the handler parses it (once) with LeadCreateBody
  ownBody: {
    description: "JSON, or the profile page's plain HTML form as multipart/form-data (`consent` = `on`); with `Accept: text/html` the form gets a 303 to the thank-you page.",
    json: LeadCreateBody,
    plainForm: true,
  },
  responses: { 201: LeadCreateResponse, 303: EmptyResponse, '4xx': LeadCreateErrorResponse },
});

export const getPByIdLeadForm = defineEndpoint({
  method: 'GET',
  path: '/api/p/:id/lead-form',
  summary: 'Whether a profile takes contact details, and its form',
  access: 'public',
  params: ProfileIdParams,
  responses: { 200: LeadFormSettingResponse },
});

export const getPagePByIdThanks = defineEndpoint({
  method: 'GET',
  path: '/p/:id/thanks',
  access: 'public',
  params: ProfileIdParams,
  responses: LeadThanksPageResponse,
});

export const getLeads = defineEndpoint({
  method: 'GET',
  path: '/api/leads',
  access: 'user',
  scopes: ['leads:read'],
  query: LeadListQuery,
  summary: 'List your leads',
  responses: { 200: LeadListResponse },
});

export const getLeadsCsv = defineEndpoint({
  method: 'GET',
  path: '/api/leads.csv',
  access: 'user',
  scopes: ['leads:read'],
  summary: 'Your leads as CSV',
  responses: { 200: LeadExportCsvResponse },
});

export const getLeadsVcf = defineEndpoint({
  method: 'GET',
  path: '/api/leads.vcf',
  access: 'user',
  scopes: ['leads:read'],
  summary: 'Your leads as vCards',
  responses: { 200: LeadExportVcfResponse },
});

export const deleteLeadsById = defineEndpoint({
  method: 'DELETE',
  path: '/api/leads/:id',
  summary: 'Delete a contact someone left you',
  access: 'user',
  params: IdParams,
  responses: { 200: MessageResponse },
});

export const getProfileLeadForm = defineEndpoint({
  method: 'GET',
  path: '/api/profile/lead-form',
  access: 'user',
  scopes: ['profile:read'],
  summary: 'Your contact-exchange form settings',
  responses: { 200: LeadFormSettingResponse },
});

export const putProfileLeadForm = defineEndpoint({
  method: 'PUT',
  path: '/api/profile/lead-form',
  access: 'user',
  scopes: ['profile:write'],
  body: LeadFormSettingSaveBody,
  summary: 'Save your contact-exchange form settings',
  responses: { 200: LeadFormSettingResponse },
});
