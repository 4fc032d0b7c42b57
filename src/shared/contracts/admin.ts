import { defineEndpoint } from './endpoint';
import { AdminCustomerListQuery, AdminCustomerListResponse, AdminEmptyBody, AdminLinkCheckResponse, AdminOrderExportQuery, AdminOrderExportResponse, AdminOrderGetResponse, AdminOrderListQuery, AdminOrderListResponse, AdminOrderNotesSaveBody, AdminOrderPaymentCreateBody, AdminOrderUpdateBody, AdminOrderUpdateResponse, AdminOutboxEmailResponse, AdminOutboxListQuery, AdminOutboxListResponse, AdminStatsGetResponse, AdminTestingSummaryResponse, AdminTodoResponse, AdminTodoSeenBody, AdminTodoSeenResponse } from '#shared/schemas/admin';
import { IdParams } from '#shared/schemas/common';

export const getAdminStats = defineEndpoint({
  method: 'GET',
  path: '/api/admin/stats',
  access: 'admin',
  responses: { 200: AdminStatsGetResponse },
});

export const getAdminOrders = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders',
  access: 'admin',
  query: AdminOrderListQuery,
  responses: { 200: AdminOrderListResponse },
});

export const getAdminOrdersCsv = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders.csv',
  access: 'admin',
  query: AdminOrderExportQuery,
  responses: { 200: AdminOrderExportResponse },
});

export const getAdminOrdersById = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders/:id',
  access: 'admin',
  params: IdParams,
  responses: { 200: AdminOrderGetResponse },
});

export const patchAdminOrdersById = defineEndpoint({
  method: 'PATCH',
  path: '/api/admin/orders/:id',
  access: 'admin',
  params: IdParams,
  body: AdminOrderUpdateBody,
  responses: { 200: AdminOrderUpdateResponse },
});

export const putAdminOrdersByIdNotes = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/orders/:id/notes',
  access: 'admin',
  params: IdParams,
  body: AdminOrderNotesSaveBody,
  responses: { 200: AdminOrderGetResponse },
});

export const postAdminOrdersByIdPayments = defineEndpoint({
  method: 'POST',
  path: '/api/admin/orders/:id/payments',
  access: 'admin',
  params: IdParams,
  body: AdminOrderPaymentCreateBody,
  responses: { 201: AdminOrderGetResponse },
});

export const getAdminCustomers = defineEndpoint({
  method: 'GET',
  path: '/api/admin/customers',
  access: 'admin',
  query: AdminCustomerListQuery,
  responses: { 200: AdminCustomerListResponse },
});

export const getAdminTestingSummary = defineEndpoint({
  method: 'GET',
  path: '/api/admin/testing-summary',
  access: 'admin',
  responses: { 200: AdminTestingSummaryResponse },
});

export const postAdminLinkCheck = defineEndpoint({
  method: 'POST',
  path: '/api/admin/link-check',
  access: 'admin',
  body: AdminEmptyBody,
  responses: { 200: AdminLinkCheckResponse },
});

export const getAdminOutbox = defineEndpoint({
  method: 'GET',
  path: '/api/admin/outbox',
  access: 'admin',
  query: AdminOutboxListQuery,
  responses: { 200: AdminOutboxListResponse },
});

export const getAdminOutboxById = defineEndpoint({
  method: 'GET',
  path: '/api/admin/outbox/:id',
  access: 'admin',
  params: IdParams,
  responses: { 200: AdminOutboxEmailResponse },
});

export const postAdminOutboxByIdRetry = defineEndpoint({
  method: 'POST',
  path: '/api/admin/outbox/:id/retry',
  access: 'admin',
  params: IdParams,
  body: AdminEmptyBody,
  responses: { 200: AdminOutboxEmailResponse },
});

/** The first admin's to-do: orders placed while no admin account existed (issue 37, decision 37-02). */
export const getAdminTodo = defineEndpoint({
  method: 'GET',
  path: '/api/admin/todo',
  access: 'admin',
  responses: { 200: AdminTodoResponse },
  summary: 'Orders placed while no staff existed',
});

export const postAdminTodoSeen = defineEndpoint({
  method: 'POST',
  path: '/api/admin/todo/seen',
  access: 'admin',
  body: AdminTodoSeenBody,
  responses: { 200: AdminTodoSeenResponse },
  summary: 'Mark orders of the to-do seen',
});
