import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/production';
import { type ProductionSheetLayout } from '#shared/schemas/production';
import type { ZodTypeProvider } from '#server/http/validation';
import { CSV_BOM, csvRow } from '#server/http/csv';
import { listProductionQueue, markPickupReady, markShipped, nfcCsvLines, orderJobTicket, orderNfcPayloads } from './production.service';
import { productionZip } from './production-export';
const day = () => new Date().toISOString().slice(0, 10);
const actorOf = (u: { id: string; firstName: string; lastName: string; email: string }) => ({ id: u.id, label: [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email });

/** The shop floor (issue 22): the production queue, job tickets, NFC payloads, print-file ZIPs, shipping and pickup. Staff only. */
export async function productionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origin = (req: { protocol: string; host: string }) => app.ctx.publicUrl(req);

  route(r, api.getAdminProduction, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return listProductionQueue(app.ctx, req.query);
  });

  route(r, api.getAdminOrdersByIdJobTicketPdf, async (req, reply) => {
    const pdf = await orderJobTicket(app.ctx, req.params.id, origin(req));
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="job-ticket-order-${req.params.id}.pdf"`)
      .header('cache-control', 'no-store')
      .send(pdf);
  });

  route(r, api.getAdminOrdersByIdNfc, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { orderId: req.params.id, payloads: await orderNfcPayloads(app.ctx, req.params.id, origin(req)) };
  });

  route(r, api.getAdminOrdersByIdNfcCsv, async (req, reply) => {
    const lines = nfcCsvLines(await orderNfcPayloads(app.ctx, req.params.id, origin(req)));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="nfc-order-${req.params.id}.csv"`)
      .header('cache-control', 'no-store')
      .send(CSV_BOM + lines.map(csvRow).join(''));
  });

  const sendZip = async (req: FastifyRequest, reply: FastifyReply, orderIds: number[], filename: string, sheet?: ProductionSheetLayout) => {
    const abort = new AbortController();
    const stream = await productionZip(app.ctx, orderIds, {
      origin: origin(req),
      sheet,
      signal: abort.signal,
      onError: (err) => app.log.error({ err }, 'production zip failed'),
    });
    // a client that goes away stops the work
    reply.raw.on('close', () => {
      if (reply.raw.writableFinished) return;
      abort.abort();
    });
    return reply.type('application/zip').header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'no-store').send(stream);
  };

  route(r, api.getAdminOrdersByIdPrintFilesZip, async (req, reply) =>
    sendZip(req, reply, [req.params.id], `print-files-order-${req.params.id}.zip`));

  route(r, api.postAdminProductionExport, async (req, reply) =>
    sendZip(req, reply, req.body.orderIds, `production-${day()}.zip`, req.body.sheet));

  route(r, api.postAdminOrdersByIdShipment, async (req) =>
    markShipped(app.ctx, req.params.id, req.body, actorOf(req.user!), origin(req)));

  route(r, api.postAdminOrdersByIdPickupReady, async (req) =>
    markPickupReady(app.ctx, req.params.id, actorOf(req.user!), origin(req)));
}
