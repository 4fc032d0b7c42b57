import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/print';
import type { ZodTypeProvider } from '#server/http/validation';
import { printCheck, renderPrintFiles } from './print.service';

/** Print-ready files of a card and the design review's print check (issue 22). Staff only. */
export async function printRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origin = (req: { protocol: string; host: string }) => app.ctx.publicUrl(req);

  route(r, api.getAdminCardsByCardIdPrintPdf, async (req, reply) => {
    const f = await renderPrintFiles(app.ctx, req.params.cardId, origin(req));
    return reply.type('application/pdf').header('content-disposition', `attachment; filename="${f.fileBase}.pdf"`).header('cache-control', 'no-store').send(f.pdf);
  });

  route(r, api.getAdminCardsByCardIdPrintSvg, async (req, reply) => {
    const f = await renderPrintFiles(app.ctx, req.params.cardId, origin(req));
    return reply.type('image/svg+xml; charset=utf-8').header('content-disposition', `attachment; filename="${f.fileBase}.svg"`).header('cache-control', 'no-store').send(f.svg);
  });

  route(r, api.getAdminCardsByCardIdPrintCheck, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return printCheck(app.ctx, req.params.cardId, origin(req));
  });
}
