import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParams } from '#shared/schemas/common';
import {
  ADMIN_EXPORT_MAX_ROWS,
  AdminCustomerListResponse,
  AdminDesignPendingListResponse,
  AdminDesignBatchApproveBody,
  AdminDesignBatchApproveResponse,
  AdminDesignBatchParams,
  AdminDesignReviewResponse,
  AdminDesignScanCheckResponse,
  AdminEmptyBody,
  AdminLinkCheckResponse,
  AdminOrderExportResponse,
  AdminOrderGetResponse,
  AdminOrderListResponse,
  AdminOrderUpdateResponse,
  AdminOutboxEmailResponse,
  AdminOutboxListResponse,
  AdminStatsGetResponse,
  AdminTestingSummaryResponse,
  AdminCustomerListQuery,
  AdminOrderExportQuery,
  AdminOrderListQuery,
  AdminOutboxListQuery,
  AdminOrderNotesSaveBody,
  AdminDesignReviewBody,
  AdminOrderUpdateBody,
} from '#shared/schemas/admin';
import type { ZodTypeProvider } from '#server/http/validation';
import { changeOrderStatus } from '#server/features/orders/public-api';
import { getOrderDetail, iterateOrders, listOrders, saveOrderNotes, staffLabel } from './admin-orders.service';
import { getAdminStats } from './admin-stats.service';
import { listCustomers } from './customers.service';
import { CSV_BOM, csvRow } from '#server/http/csv';
import { approveDesignBatch, listPendingDesigns, reviewDesign, scanCheckDesign } from './design-review.service';
import { getOutboxEmail, listOutbox, retryOutboxEmail } from './outbox.service';
import { getTestingSummary, runLinkCheck } from './testing-summary.service';
import type { PageFetcher } from './link-checker';

const admin = { access: 'admin' as const };
const LINK_CHECK_UA = 'MetalCards-LinkCheck-bot/1.0';
const LINK_CHECK_EVERY_MS = 24 * 3600_000;

const CSV_HEADER = [
  'Order ID',
  'Date',
  'Status',
  'Customer',
  'Company',
  'Position',
  'Email',
  'Phone',
  'Address',
  'Card Type',
  'Card Style',
  'Quantity',
  'Delivery',
  'Total (USD)',
  'Special Requests',
  'Source',
];

/** Everything under /api/admin: staff only (the session plugin answers 401 signed out, 403 without the role). */
export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const baseUrl = (req: FastifyRequest) => app.ctx.publicUrl(req);

  r.get('/api/admin/stats', { config: admin, schema: { response: { 200: AdminStatsGetResponse } } }, async () => getAdminStats(app.ctx));

  r.get('/api/admin/orders', { config: admin, schema: { querystring: AdminOrderListQuery, response: { 200: AdminOrderListResponse } } }, async (req) => listOrders(app.ctx, req.query));

  // "Export": a CSV of the orders the list shows (same search and status filter, every page)
  r.get('/api/admin/orders.csv', { config: admin, schema: { querystring: AdminOrderExportQuery, response: { 200: AdminOrderExportResponse } } }, async (req, reply) => {
    const ctx = app.ctx;
    const { q, status } = req.query;
    async function* lines() {
      yield CSV_BOM + csvRow(CSV_HEADER);
      for await (const batch of iterateOrders(ctx, { q, status, max: ADMIN_EXPORT_MAX_ROWS })) {
        yield batch
          .map((o) =>
            csvRow([
              o.id,
              o.createdAt,
              o.status,
              o.customerName,
              o.companyName,
              o.position,
              o.email,
              o.phone,
              o.address,
              o.cardTypeLabel,
              o.cardStyle,
              o.quantity,
              o.deliveryLabel,
              (o.totalCents / 100).toFixed(2),
              o.specialRequests,
              o.source,
            ]),
          )
          .join('');
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="orders-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines()));
  });

  r.get('/api/admin/orders/:id', { config: admin, schema: { params: IdParams, response: { 200: AdminOrderGetResponse } } }, async (req) => getOrderDetail(app.ctx, req.params.id));

  r.patch('/api/admin/orders/:id', { config: admin, schema: { params: IdParams, body: AdminOrderUpdateBody, response: { 200: AdminOrderUpdateResponse } } }, async (req) => {
    const user = req.user!;
    const { changed } = await changeOrderStatus(app.ctx, req.params.id, req.body.status, { id: user.id, label: staffLabel(user) }, { baseUrl: baseUrl(req) });
    return { ...(await getOrderDetail(app.ctx, req.params.id)), changed };
  });

  r.put('/api/admin/orders/:id/notes', { config: admin, schema: { params: IdParams, body: AdminOrderNotesSaveBody, response: { 200: AdminOrderGetResponse } } }, async (req) =>
    saveOrderNotes(app.ctx, req.params.id, req.body.notes, req.user!),
  );

  r.get('/api/admin/business-cards/pending', { config: admin, schema: { response: { 200: AdminDesignPendingListResponse } } }, async (req) => listPendingDesigns(app.ctx, baseUrl(req)));

  r.get('/api/admin/business-cards/:id/scan-check', { config: admin, schema: { params: IdParams, response: { 200: AdminDesignScanCheckResponse } } }, async (req) => {
    const cookie = req.headers.cookie;
    // the stored image is read through the app itself (same access rules), never from the network
    const fetchLocal = async (path: string) => {
      const res = await app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
      return { statusCode: res.statusCode, body: res.rawPayload };
    };
    return scanCheckDesign(app.ctx, req.params.id, baseUrl(req), fetchLocal);
  });

  r.put('/api/admin/business-cards/:id/review', { config: admin, schema: { params: IdParams, body: AdminDesignReviewBody, response: { 200: AdminDesignReviewResponse } } }, async (req) =>
    reviewDesign(app.ctx, req.params.id, req.body, req.user!, baseUrl(req)),
  );

  r.post('/api/admin/business-cards/batches/:orderId/approve', { config: admin, schema: { params: AdminDesignBatchParams, body: AdminDesignBatchApproveBody, response: { 200: AdminDesignBatchApproveResponse } } }, async (req) =>
    approveDesignBatch(app.ctx, req.params.orderId, req.user!, baseUrl(req), req.body?.overrideReason),
  );

  r.get('/api/admin/customers', { config: admin, schema: { querystring: AdminCustomerListQuery, response: { 200: AdminCustomerListResponse } } }, async (req) => listCustomers(app.ctx, req.query));

  r.get('/api/admin/testing-summary', { config: admin, schema: { response: { 200: AdminTestingSummaryResponse } } }, async () => getTestingSummary(app.ctx));

  const fetchPage: PageFetcher = async (path) => {
    const res = await app.inject({ method: 'GET', url: path, headers: { 'user-agent': LINK_CHECK_UA, accept: 'text/html,application/xhtml+xml,*/*' } });
    const contentType = String(res.headers['content-type'] ?? '');
    return { statusCode: res.statusCode, contentType, body: /text\/html/i.test(contentType) ? res.body.slice(0, 2_000_000) : '' };
  };

  r.post('/api/admin/link-check', { config: admin, schema: { body: AdminEmptyBody, response: { 200: AdminLinkCheckResponse } } }, async (req) =>
    runLinkCheck(app.ctx, fetchPage, baseUrl(req)),
  );

  r.get('/api/admin/outbox', { config: admin, schema: { querystring: AdminOutboxListQuery, response: { 200: AdminOutboxListResponse } } }, async (req) => listOutbox(app.ctx, req.query));

  r.get('/api/admin/outbox/:id', { config: admin, schema: { params: IdParams, response: { 200: AdminOutboxEmailResponse } } }, async (req) => getOutboxEmail(app.ctx, req.params.id));

  r.post('/api/admin/outbox/:id/retry', { config: admin, schema: { params: IdParams, body: AdminEmptyBody, response: { 200: AdminOutboxEmailResponse } } }, async (req) =>
    retryOutboxEmail(app.ctx, req.params.id),
  );

  // the link check also runs by itself: shortly after start, then daily (not in tests)
  if (app.ctx.config.NODE_ENV !== 'test') {
    let timer: NodeJS.Timeout | undefined;
    const schedule = (ms: number) => {
      timer = setTimeout(async () => {
        try {
          await runLinkCheck(app.ctx, fetchPage, app.ctx.publicUrl());
        } catch (err: any) {
          app.log.warn({ err: err?.message }, 'scheduled link check failed');
        }
        schedule(LINK_CHECK_EVERY_MS);
      }, ms);
      timer.unref();
    };
    app.addHook('onReady', async () => schedule(60_000));
    app.ctx.onClose.push(() => clearTimeout(timer));
  }
}
