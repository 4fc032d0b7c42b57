import { defineEndpoint } from './endpoint';
import { PrintCardParams, PrintCheckGetResponse, PrintPdfGetResponse, PrintSvgGetResponse } from '#shared/schemas/print';

export const getAdminCardsByCardIdPrintPdf = defineEndpoint({
  method: 'GET',
  path: '/api/admin/cards/:cardId/print.pdf',
  access: 'admin',
  params: PrintCardParams,
  responses: { 200: PrintPdfGetResponse },
});

export const getAdminCardsByCardIdPrintSvg = defineEndpoint({
  method: 'GET',
  path: '/api/admin/cards/:cardId/print.svg',
  access: 'admin',
  params: PrintCardParams,
  responses: { 200: PrintSvgGetResponse },
});

export const getAdminCardsByCardIdPrintCheck = defineEndpoint({
  method: 'GET',
  path: '/api/admin/cards/:cardId/print-check',
  access: 'admin',
  params: PrintCardParams,
  responses: { 200: PrintCheckGetResponse },
});
