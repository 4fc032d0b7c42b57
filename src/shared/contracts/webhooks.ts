import { defineEndpoint } from './endpoint';
import { MessageResponse } from '#shared/schemas/common';
import { WebhookCreateBody, WebhookCreateResponse, WebhookDeliveryListResponse, WebhookDeliveryParams, WebhookGetResponse, WebhookListResponse, WebhookParams, WebhookRedeliverResponse, WebhookSecretRollResponse, WebhookTestResponse, WebhookUpdateBody, WebhookUpdateResponse } from '#shared/schemas/webhooks';

export const postWebhooks = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks',
  access: 'user',
  body: WebhookCreateBody,
  responses: { 201: WebhookCreateResponse },
});

export const getWebhooks = defineEndpoint({
  method: 'GET',
  path: '/api/webhooks',
  access: 'user',
  responses: { 200: WebhookListResponse },
});

export const getWebhooksById = defineEndpoint({
  method: 'GET',
  path: '/api/webhooks/:id',
  access: 'user',
  params: WebhookParams,
  responses: { 200: WebhookGetResponse },
});

export const patchWebhooksById = defineEndpoint({
  method: 'PATCH',
  path: '/api/webhooks/:id',
  access: 'user',
  params: WebhookParams,
  body: WebhookUpdateBody,
  responses: { 200: WebhookUpdateResponse },
});

export const deleteWebhooksById = defineEndpoint({
  method: 'DELETE',
  path: '/api/webhooks/:id',
  access: 'user',
  params: WebhookParams,
  responses: { 200: MessageResponse },
});

export const postWebhooksByIdSecret = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks/:id/secret',
  access: 'user',
  params: WebhookParams,
  responses: { 200: WebhookSecretRollResponse },
});

export const postWebhooksByIdTest = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks/:id/test',
  access: 'user',
  params: WebhookParams,
  responses: { 202: WebhookTestResponse },
});

export const getWebhooksByIdDeliveries = defineEndpoint({
  method: 'GET',
  path: '/api/webhooks/:id/deliveries',
  access: 'user',
  params: WebhookParams,
  responses: { 200: WebhookDeliveryListResponse },
});

export const postWebhooksByIdDeliveriesByDeliveryIdRedeliver = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
  access: 'user',
  params: WebhookDeliveryParams,
  responses: { 202: WebhookRedeliverResponse },
});
