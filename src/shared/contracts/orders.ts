import { defineEndpoint } from './endpoint';
import { ArtworkUploadResponse, CheckoutTermsResponse, MyOrdersResponse, OrderAddressPatchBody, OrderClaimBody, OrderClaimGetParams, OrderClaimGetResponse, OrderClaimResponse, OrderCreateBody, OrderCreateResponse, OrderStatusGetParams, OrderStatusGetResponse } from '#shared/schemas/orders';

export const postOrder = defineEndpoint({
  method: 'POST',
  path: '/api/order',
  summary: 'Place an order',
  access: 'public',
  body: OrderCreateBody,
  responses: { 200: OrderCreateResponse, 201: OrderCreateResponse },
});

export const getOrderStatusByToken = defineEndpoint({
  method: 'GET',
  path: '/api/order-status/:token',
  summary: "An order's status (with its status link's token)",
  access: 'public',
  params: OrderStatusGetParams,
  responses: { 200: OrderStatusGetResponse },
});

export const patchOrderStatusByTokenAddress = defineEndpoint({
  method: 'PATCH',
  path: '/api/order-status/:token/address',
  summary: "Change an order's delivery address before it ships",
  access: 'public',
  params: OrderStatusGetParams,
  body: OrderAddressPatchBody,
  responses: { 200: OrderStatusGetResponse },
});

export const postUploadArtwork = defineEndpoint({
  method: 'POST',
  path: '/api/upload/artwork',
  summary: 'Upload artwork for an order',
  access: 'public',
  ownBody: { upload: { field: 'artwork', what: 'artwork for an order (PNG, JPEG, WebP or SVG)' } },
  responses: { 201: ArtworkUploadResponse },
});

export const getCheckoutTerms = defineEndpoint({
  method: 'GET',
  path: '/api/checkout/terms',
  summary: "The checkout's prices, delivery options and terms",
  access: 'public',
  responses: { 200: CheckoutTermsResponse },
});

export const getOrdersMine = defineEndpoint({
  method: 'GET',
  path: '/api/orders/mine',
  summary: 'Your orders',
  access: 'user',
  responses: { 200: MyOrdersResponse },
});

export const getOrdersClaimByToken = defineEndpoint({
  method: 'GET',
  path: '/api/orders/claim/:token',
  summary: 'The order a claim link is for',
  access: 'public',
  params: OrderClaimGetParams,
  responses: { 200: OrderClaimGetResponse },
});

export const postOrdersClaim = defineEndpoint({
  method: 'POST',
  path: '/api/orders/claim',
  summary: 'Add an order placed signed out to your account',
  access: 'public',
  body: OrderClaimBody,
  responses: { 200: OrderClaimResponse },
});
