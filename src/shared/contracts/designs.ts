import { defineEndpoint } from './endpoint';
import { IdParams } from '#shared/schemas/common';
import { AdminDesignBatchApproveBody, AdminDesignBatchApproveResponse, AdminDesignBatchParams, AdminDesignPendingListResponse, AdminDesignReviewBody, AdminDesignReviewResponse, AdminDesignScanCheckResponse, DesignCardParams, DesignForEditResponse, DesignResubmitBody, DesignResubmitResponse, DesignSubmitBody, DesignSubmitResponse, OrderReorderBody, OrderReorderResponse } from '#shared/schemas/designs';
import { OrderProofAnswerBody, OrderProofImageParams, OrderProofImageResponse, OrderStatusGetParams, OrderStatusGetResponse } from '#shared/schemas/orders';

export const postCardsSubmitForReview = defineEndpoint({
  method: 'POST',
  path: '/api/cards/submit-for-review',
  summary: 'Send a card design for review',
  access: 'user',
  body: DesignSubmitBody,
  responses: { 200: DesignSubmitResponse, 201: DesignSubmitResponse },
});

export const getCardsByIdDesign = defineEndpoint({
  method: 'GET',
  path: '/api/cards/:id/design',
  summary: 'One of your card designs, to edit it',
  access: 'user',
  params: DesignCardParams,
  responses: { 200: DesignForEditResponse },
});

export const postCardsByIdResubmit = defineEndpoint({
  method: 'POST',
  path: '/api/cards/:id/resubmit',
  summary: 'Send a changed card design for review again',
  access: 'user',
  params: DesignCardParams,
  body: DesignResubmitBody,
  responses: { 200: DesignResubmitResponse },
});

export const getAdminBusinessCardsPending = defineEndpoint({
  method: 'GET',
  path: '/api/admin/business-cards/pending',
  access: 'admin',
  responses: { 200: AdminDesignPendingListResponse },
});

export const getAdminBusinessCardsByIdScanCheck = defineEndpoint({
  method: 'GET',
  path: '/api/admin/business-cards/:id/scan-check',
  access: 'admin',
  params: IdParams,
  responses: { 200: AdminDesignScanCheckResponse },
});

export const putAdminBusinessCardsByIdReview = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/business-cards/:id/review',
  access: 'admin',
  params: IdParams,
  body: AdminDesignReviewBody,
  responses: { 200: AdminDesignReviewResponse },
});

export const postAdminBusinessCardsBatchesByOrderIdApprove = defineEndpoint({
  method: 'POST',
  path: '/api/admin/business-cards/batches/:orderId/approve',
  access: 'admin',
  params: AdminDesignBatchParams,
  body: AdminDesignBatchApproveBody,
  responses: { 200: AdminDesignBatchApproveResponse },
});

export const postOrdersReorder = defineEndpoint({
  method: 'POST',
  path: '/api/orders/reorder',
  summary: 'Order an approved card again',
  access: 'user',
  body: OrderReorderBody,
  responses: { 200: OrderReorderResponse, 201: OrderReorderResponse },
});

export const postOrderStatusByTokenProof = defineEndpoint({
  method: 'POST',
  path: '/api/order-status/:token/proof',
  summary: 'Approve the proof or ask for changes',
  access: 'public',
  params: OrderStatusGetParams,
  body: OrderProofAnswerBody,
  responses: { 200: OrderStatusGetResponse },
});

export const getOrderStatusByTokenProofByCardIdBySide = defineEndpoint({
  method: 'GET',
  path: '/api/order-status/:token/proof/:cardId/:side',
  summary: 'A proof image of one card side',
  access: 'public',
  params: OrderProofImageParams,
  responses: { 200: OrderProofImageResponse },
});
