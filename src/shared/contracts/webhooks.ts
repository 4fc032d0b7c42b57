import { defineEndpoint } from './endpoint';
import { MessageResponse } from '#shared/schemas/common';
import { WebhookCreateBody, WebhookCreateResponse, WebhookDeliveryListResponse, WebhookDeliveryParams, WebhookGetResponse, WebhookListResponse, WebhookParams, WebhookRedeliverResponse, WebhookSecretRollResponse, WebhookTestResponse, WebhookUpdateBody, WebhookUpdateResponse } from '#shared/schemas/webhooks';

export const postWebhooks = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks',
  summary: 'Add a webhook endpoint',
  access: 'user',
  body: WebhookCreateBody,
  responses: { 201: WebhookCreateResponse },
});

export const getWebhooks = defineEndpoint({
  method: 'GET',
  path: '/api/webhooks',
  summary: 'Your webhook endpoints',
  access: 'user',
  responses: { 200: WebhookListResponse },
});

export const getWebhooksById = defineEndpoint({
  method: 'GET',
  path: '/api/webhooks/:id',
  summary: 'One webhook endpoint',
  access: 'user',
  params: WebhookParams,
  responses: { 200: WebhookGetResponse },
});

export const patchWebhooksById = defineEndpoint({
  method: 'PATCH',
  path: '/api/webhooks/:id',
  summary: 'Change a webhook endpoint',
  access: 'user',
  params: WebhookParams,
  body: WebhookUpdateBody,
  responses: { 200: WebhookUpdateResponse },
});

export const deleteWebhooksById = defineEndpoint({
  method: 'DELETE',
  path: '/api/webhooks/:id',
  summary: 'Remove a webhook endpoint',
  access: 'user',
  params: WebhookParams,
  responses: { 200: MessageResponse },
});

export const postWebhooksByIdSecret = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks/:id/secret',
  summary: 'Make a new signing secret for a webhook endpoint',
  access: 'user',
  params: WebhookParams,
  responses: { 200: WebhookSecretRollResponse },
});

export const postWebhooksByIdTest = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks/:id/test',
  summary: 'Send a test event to a webhook endpoint',
  access: 'user',
  params: WebhookParams,
  responses: { 202: WebhookTestResponse },
});

export const getWebhooksByIdDeliveries = defineEndpoint({
  method: 'GET',
  path: '/api/webhooks/:id/deliveries',
  summary: "A webhook endpoint's recent deliveries",
  access: 'user',
  params: WebhookParams,
  responses: { 200: WebhookDeliveryListResponse },
});

export const postWebhooksByIdDeliveriesByDeliveryIdRedeliver = defineEndpoint({
  method: 'POST',
  path: '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
  summary: 'Send a webhook delivery again',
  access: 'user',
  params: WebhookDeliveryParams,
  responses: { 202: WebhookRedeliverResponse },
});
