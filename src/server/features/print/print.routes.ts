import type { FastifyInstance } from 'fastify';
import { PrintCardParams, PrintCheckGetResponse, PrintPdfGetResponse, PrintSvgGetResponse } from '#shared/schemas/print';
import type { ZodTypeProvider } from '#server/http/validation';
import { printCheck, renderPrintFiles } from './print.service';

const admin = { access: 'admin' as const };

/** Print-ready files of a card and the design review's print check (issue 22). Staff only. */
export async function printRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origin = (req: { protocol: string; host: string }) => app.ctx.publicUrl(req);

  r.get('/api/admin/cards/:cardId/print.pdf', { config: admin, schema: { params: PrintCardParams, response: { 200: PrintPdfGetResponse } } }, async (req, reply) => {
    const f = await renderPrintFiles(app.ctx, req.params.cardId, origin(req));
    return reply.type('application/pdf').header('content-disposition', `attachment; filename="${f.fileBase}.pdf"`).header('cache-control', 'no-store').send(f.pdf);
  });

  r.get('/api/admin/cards/:cardId/print.svg', { config: admin, schema: { params: PrintCardParams, response: { 200: PrintSvgGetResponse } } }, async (req, reply) => {
    const f = await renderPrintFiles(app.ctx, req.params.cardId, origin(req));
    return reply.type('image/svg+xml; charset=utf-8').header('content-disposition', `attachment; filename="${f.fileBase}.svg"`).header('cache-control', 'no-store').send(f.svg);
  });

  r.get('/api/admin/cards/:cardId/print-check', { config: admin, schema: { params: PrintCardParams, response: { 200: PrintCheckGetResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return printCheck(app.ctx, req.params.cardId, origin(req));
  });
}
