import { defineEndpoint } from './endpoint';
import { ArtworkUploadResponse, CheckoutTermsResponse, MyOrdersResponse, OrderAddressPatchBody, OrderClaimBody, OrderClaimGetParams, OrderClaimGetResponse, OrderClaimResponse, OrderCreateBody, OrderCreateResponse, OrderStatusGetParams, OrderStatusGetResponse } from '#shared/schemas/orders';

export const postOrder = defineEndpoint({
  method: 'POST',
  path: '/api/order',
  access: 'public',
  body: OrderCreateBody,
  responses: { 200: OrderCreateResponse, 201: OrderCreateResponse },
});

export const getOrderStatusByToken = defineEndpoint({
  method: 'GET',
  path: '/api/order-status/:token',
  access: 'public',
  params: OrderStatusGetParams,
  responses: { 200: OrderStatusGetResponse },
});

export const patchOrderStatusByTokenAddress = defineEndpoint({
  method: 'PATCH',
  path: '/api/order-status/:token/address',
  access: 'public',
  params: OrderStatusGetParams,
  body: OrderAddressPatchBody,
  responses: { 200: OrderStatusGetResponse },
});

export const postUploadArtwork = defineEndpoint({
  method: 'POST',
  path: '/api/upload/artwork',
  access: 'public',
  ownBody: { upload: { field: 'artwork', what: 'artwork for an order (PNG, JPEG, WebP or SVG)' } },
  responses: { 201: ArtworkUploadResponse },
});

export const getCheckoutTerms = defineEndpoint({
  method: 'GET',
  path: '/api/checkout/terms',
  access: 'public',
  responses: { 200: CheckoutTermsResponse },
});

export const getOrdersMine = defineEndpoint({
  method: 'GET',
  path: '/api/orders/mine',
  access: 'user',
  responses: { 200: MyOrdersResponse },
});

export const getOrdersClaimByToken = defineEndpoint({
  method: 'GET',
  path: '/api/orders/claim/:token',
  access: 'public',
  params: OrderClaimGetParams,
  responses: { 200: OrderClaimGetResponse },
});

export const postOrdersClaim = defineEndpoint({
  method: 'POST',
  path: '/api/orders/claim',
  access: 'public',
  body: OrderClaimBody,
  responses: { 200: OrderClaimResponse },
});
