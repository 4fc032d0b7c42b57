import { defineEndpoint } from './endpoint';
import { SubscriptionCreateBody, SubscriptionCreateResponse } from '#shared/schemas/site';

export const postSubscribe = defineEndpoint({
  method: 'POST',
  path: '/api/subscribe',
  summary: 'Subscribe to the newsletter',
  access: 'public',
  body: SubscriptionCreateBody,
  responses: { 200: SubscriptionCreateResponse },
});
