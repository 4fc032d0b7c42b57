import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/admin';
import { ADMIN_EXPORT_MAX_ROWS } from '#shared/schemas/admin';
import type { ZodTypeProvider } from '#server/http/validation';
import { changeOrderStatus, markOrdersSeenByStaff, recordPayment } from '#server/features/orders/public-api';
import { getOrderDetail, iterateOrders, listOrders, saveOrderNotes, staffLabel } from './admin-orders.service';
import { getAdminStats } from './admin-stats.service';
import { listCustomers } from './customers.service';
import { CSV_BOM, csvRow } from '#server/http/csv';
import { getOutboxEmail, listOutbox, retryOutboxEmail } from './outbox.service';
import { getStaffTodo } from './staff-todo.service';
import { getTestingSummary, runLinkCheck } from './testing-summary.service';
import type { PageFetcher } from './link-checker';
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

  route(r, api.getAdminStats, async () => getAdminStats(app.ctx));

  route(r, api.getAdminOrders, async (req) => listOrders(app.ctx, req.query));

  // "Export": a CSV of the orders the list shows (same search and status filter, every page)
  route(r, api.getAdminOrdersCsv, async (req, reply) => {
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

  route(r, api.getAdminOrdersById, async (req) => getOrderDetail(app.ctx, req.params.id));

  route(r, api.patchAdminOrdersById, async (req) => {
    const user = req.user!;
    const { changed } = await changeOrderStatus(app.ctx, req.params.id, req.body.status, { id: user.id, label: staffLabel(user) }, { baseUrl: baseUrl(req), overrideReason: req.body.overrideReason });
    return { ...(await getOrderDetail(app.ctx, req.params.id)), changed };
  });

  route(r, api.putAdminOrdersByIdNotes, async (req) =>
    saveOrderNotes(app.ctx, req.params.id, req.body.notes, req.user!));

  // issue 35: staff record a payment (or a refund) on the order; the answer is the order with its payment state
  route(r, api.postAdminOrdersByIdPayments, async (req, reply) => {
    await recordPayment(app.ctx, req.params.id, req.body, { id: req.user!.id, label: staffLabel(req.user!) });
    return reply.code(201).send(await getOrderDetail(app.ctx, req.params.id));
  });

  route(r, api.getAdminCustomers, async (req) => listCustomers(app.ctx, req.query));

  route(r, api.getAdminTestingSummary, async () => getTestingSummary(app.ctx));

  const fetchPage: PageFetcher = async (path) => {
    const res = await app.inject({ method: 'GET', url: path, headers: { 'user-agent': LINK_CHECK_UA, accept: 'text/html,application/xhtml+xml,*/*' } });
    const contentType = String(res.headers['content-type'] ?? '');
    return { statusCode: res.statusCode, contentType, body: /text\/html/i.test(contentType) ? res.body.slice(0, 2_000_000) : '' };
  };

  route(r, api.postAdminLinkCheck, async (req) =>
    runLinkCheck(app.ctx, fetchPage, baseUrl(req)));

  route(r, api.getAdminOutbox, async (req) => listOutbox(app.ctx, req.query));

  route(r, api.getAdminOutboxById, async (req) => getOutboxEmail(app.ctx, req.params.id));

  route(r, api.postAdminOutboxByIdRetry, async (req) =>
    retryOutboxEmail(app.ctx, req.params.id));

  // issue 37: orders placed while no admin existed, until staff mark them seen (decision 37-02)
  route(r, api.getAdminTodo, async () => getStaffTodo(app.ctx));

  route(r, api.postAdminTodoSeen, async (req) => ({ seen: await markOrdersSeenByStaff(app.ctx.db, req.body.orderIds, req.user!.id) }));

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
