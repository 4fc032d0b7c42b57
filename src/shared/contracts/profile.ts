import { defineEndpoint } from './endpoint';
import { ProfileDesignSaveBody, ProfileHandleBody, ProfileHandlePageResponse, ProfileHandleParams, ProfileGetResponse, ProfileIdParams, ProfileResponse, ProfileSaveBody, PublicProfileGetResponse, PublicProfileLinkParams, PublicProfileLinkResponse, PublicProfilePageResponse, PublicProfileParams, PublicProfileQuery, QrCodeGetQuery, QrCodeGetResponse, UserCardListResponse, VcardGetParams, VcardGetResponse } from '#shared/schemas/profile';

export const getProfile = defineEndpoint({
  method: 'GET',
  path: '/api/profile',
  access: 'user',
  scopes: ['profile:read'],
  summary: 'Your profile',
  responses: { 200: ProfileGetResponse },
});

export const postProfile = defineEndpoint({
  method: 'POST',
  path: '/api/profile',
  access: 'user',
  scopes: ['profile:write'],
  body: ProfileSaveBody,
  summary: 'Create your profile',
  responses: { 201: ProfileResponse },
});

export const putProfileById = defineEndpoint({
  method: 'PUT',
  path: '/api/profile/:id',
  access: 'user',
  scopes: ['profile:write'],
  params: ProfileIdParams,
  body: ProfileSaveBody,
  summary: 'Update your profile',
  responses: { 200: ProfileResponse },
});

export const putProfile = defineEndpoint({
  method: 'PUT',
  path: '/api/profile',
  access: 'user',
  scopes: ['profile:write'],
  body: ProfileDesignSaveBody,
  summary: 'Save your profile and card design',
  responses: { 200: ProfileResponse },
});

export const putProfileHandle = defineEndpoint({
  method: 'PUT',
  path: '/api/profile/handle',
  access: 'user',
  scopes: ['profile:write'],
  body: ProfileHandleBody,
  summary: 'Choose your profile handle (/@handle)',
  responses: { 200: ProfileResponse },
});

export const getCards = defineEndpoint({
  method: 'GET',
  path: '/api/cards',
  summary: 'Your card designs',
  access: 'user',
  responses: { 200: UserCardListResponse },
});

export const getPagePById = defineEndpoint({
  method: 'GET',
  path: '/p/:id',
  access: 'public',
  params: PublicProfileParams,
  query: PublicProfileQuery,
  responses: PublicProfilePageResponse,
});

/** The profile at its handle (decision 37-04); a recently changed handle redirects (302). */
export const getPageByHandle = defineEndpoint({
  method: 'GET',
  path: '/@:handle',
  access: 'public',
  params: ProfileHandleParams,
  query: PublicProfileQuery,
  responses: ProfileHandlePageResponse,
});

export const getPagePByIdGoByLinkId = defineEndpoint({
  method: 'GET',
  path: '/p/:id/go/:linkId',
  access: 'public',
  params: PublicProfileLinkParams,
  responses: PublicProfileLinkResponse,
});

export const getPById = defineEndpoint({
  method: 'GET',
  path: '/api/p/:id',
  summary: 'A public profile',
  access: 'public',
  params: PublicProfileParams,
  query: PublicProfileQuery,
  responses: { 200: PublicProfileGetResponse },
});

export const getVcardByProfileId = defineEndpoint({
  method: 'GET',
  path: '/api/vcard/:profileId',
  summary: "A profile's contact file (vCard)",
  access: 'public',
  params: VcardGetParams,
  responses: { 200: VcardGetResponse },
});

export const getQrcode = defineEndpoint({
  method: 'GET',
  path: '/api/qrcode',
  summary: 'A QR code image for a text or address',
  access: 'public',
  query: QrCodeGetQuery,
  responses: { 200: QrCodeGetResponse },
});
