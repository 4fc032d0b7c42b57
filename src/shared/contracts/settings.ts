import { defineEndpoint } from './endpoint';
import { ShopSettingsPutBody, ShopSettingsResponse, SiteLegalParams, SiteLegalResponse, SiteSettingsResponse, SiteStudioResponse } from '#shared/schemas/settings';

export const getAdminSettings = defineEndpoint({
  method: 'GET',
  path: '/api/admin/settings',
  access: 'admin',
  responses: { 200: ShopSettingsResponse },
});

export const putAdminSettings = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/settings',
  access: 'admin',
  body: ShopSettingsPutBody,
  responses: { 200: ShopSettingsResponse },
});

export const getSiteStudio = defineEndpoint({
  method: 'GET',
  path: '/api/site/studio',
  summary: "The studio's address, hours and pickup instructions",
  access: 'public',
  responses: { 200: SiteStudioResponse },
});

export const getSiteSettings = defineEndpoint({
  method: 'GET',
  path: '/api/site/settings',
  access: 'public',
  responses: { 200: SiteSettingsResponse },
  summary: 'The shop claims and profile link limit public pages show',
});

export const getSiteLegal = defineEndpoint({
  method: 'GET',
  path: '/api/site/legal/:document',
  access: 'public',
  params: SiteLegalParams,
  responses: { 200: SiteLegalResponse },
  summary: 'The privacy policy or the terms of service',
});
