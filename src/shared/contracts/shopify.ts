import { defineEndpoint } from './endpoint';
import { StoreConnectionTestResponse, StoreStatusGetResponse, StoreWebhookResponse } from '#shared/schemas/shopify';

export const getShopifyStatus = defineEndpoint({
  method: 'GET',
  path: '/api/shopify/status',
  access: 'admin',
  responses: { 200: StoreStatusGetResponse },
});

export const postShopifyTestConnection = defineEndpoint({
  method: 'POST',
  path: '/api/shopify/test-connection',
  access: 'admin',
  responses: { 200: StoreConnectionTestResponse },
});

export const postShopifyWebhooks = defineEndpoint({
  method: 'POST',
  path: '/api/shopify/webhooks',
  summary: "Receive the online store's order events (signed by the store)",
  access: 'public',
  // the handler checks the signature over the raw bytes itself (issue 35)
  ownBody: {
    description:
      "The online store's order webhook (`orders/paid`, `refunds/create`, `orders/cancelled`) as the store sends it: the JSON body signed in `X-Shopify-Hmac-Sha256` (base64 HMAC-SHA256 of the raw body with the store's webhook secret; otherwise 401), the topic in `X-Shopify-Topic`, the delivery's id in `X-Shopify-Webhook-Id` (a repeated id is acknowledged and ignored).",
    json: "Shopify's order or refund resource",
  },
  responses: { 200: StoreWebhookResponse },
});
