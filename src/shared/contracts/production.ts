import { defineEndpoint } from './endpoint';
import { IdParams } from '#shared/schemas/common';
import { ProductionExportBody, ProductionJobTicketResponse, ProductionNfcCsvResponse, ProductionNfcResponse, ProductionOrderResponse, ProductionPickupReadyBody, ProductionQueueQuery, ProductionQueueResponse, ProductionShipmentBody, ProductionZipResponse } from '#shared/schemas/production';

export const getAdminProduction = defineEndpoint({
  method: 'GET',
  path: '/api/admin/production',
  access: 'admin',
  query: ProductionQueueQuery,
  responses: { 200: ProductionQueueResponse },
});

export const getAdminOrdersByIdJobTicketPdf = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders/:id/job-ticket.pdf',
  access: 'admin',
  params: IdParams,
  responses: { 200: ProductionJobTicketResponse },
});

export const getAdminOrdersByIdNfc = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders/:id/nfc',
  access: 'admin',
  params: IdParams,
  responses: { 200: ProductionNfcResponse },
});

export const getAdminOrdersByIdNfcCsv = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders/:id/nfc.csv',
  access: 'admin',
  params: IdParams,
  responses: { 200: ProductionNfcCsvResponse },
});

export const getAdminOrdersByIdPrintFilesZip = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders/:id/print-files.zip',
  access: 'admin',
  params: IdParams,
  responses: { 200: ProductionZipResponse },
});

export const postAdminProductionExport = defineEndpoint({
  method: 'POST',
  path: '/api/admin/production/export',
  access: 'admin',
  body: ProductionExportBody,
  responses: { 200: ProductionZipResponse },
});

export const postAdminOrdersByIdShipment = defineEndpoint({
  method: 'POST',
  path: '/api/admin/orders/:id/shipment',
  access: 'admin',
  params: IdParams,
  body: ProductionShipmentBody,
  responses: { 200: ProductionOrderResponse },
});

export const postAdminOrdersByIdPickupReady = defineEndpoint({
  method: 'POST',
  path: '/api/admin/orders/:id/pickup-ready',
  access: 'admin',
  params: IdParams,
  body: ProductionPickupReadyBody,
  responses: { 200: ProductionOrderResponse },
});
