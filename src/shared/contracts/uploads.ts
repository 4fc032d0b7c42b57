import { defineEndpoint } from './endpoint';
import { ProfileImageUploadResponse, StoredFileGetParams, StoredFileGetResponse } from '#shared/schemas/uploads';

// the handler reads the multipart stream itself, with its own cap (`server/http/multipart.ts`)
export const postUploadProfileImage = defineEndpoint({
  method: 'POST',
  path: '/api/upload/profile-image',
  summary: 'Upload your profile photo',
  access: 'user',
  ownBody: { upload: { field: 'profileImage', what: 'profile photo (PNG, JPEG, GIF or WebP)' } },
  responses: { 201: ProfileImageUploadResponse },
});

export const postUploadLogo = defineEndpoint({
  method: 'POST',
  path: '/api/upload/logo',
  summary: 'Upload your logo',
  access: 'user',
  ownBody: { upload: { field: 'logoImage', what: 'logo (JPEG, PNG, WebP or SVG)' } },
  responses: { 201: ProfileImageUploadResponse },
});

export const postUploadBannerLogo = defineEndpoint({
  method: 'POST',
  path: '/api/upload/banner-logo',
  summary: "Upload your profile's banner logo",
  access: 'user',
  ownBody: { upload: { field: 'bannerLogoImage', what: 'banner logo (JPEG, PNG, WebP or SVG)' } },
  responses: { 201: ProfileImageUploadResponse },
});

export const getPageFilesAny = defineEndpoint({
  method: 'GET',
  path: '/files/*',
  access: 'public',
  params: StoredFileGetParams,
  responses: StoredFileGetResponse,
});
