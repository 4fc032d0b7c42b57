import { defineEndpoint } from './endpoint';
import { HealthGetResponse } from '#shared/schemas/health';

export const getHealth = defineEndpoint({
  method: 'GET',
  path: '/api/health',
  access: 'public',
  responses: HealthGetResponse,
});
