import { defineEndpoint } from './endpoint';
import { ShopSettingsPutBody, ShopSettingsResponse, SiteStudioResponse } from '#shared/schemas/settings';

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
  access: 'public',
  responses: { 200: SiteStudioResponse },
});
