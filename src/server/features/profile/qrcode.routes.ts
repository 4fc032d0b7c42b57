import type { FastifyInstance } from 'fastify';
import { QrCodeGetQuery, QrCodeGetResponse } from '#shared/schemas/profile';
import { qrSvg, type QrStyle } from '#shared/qr/qr-svg';
import type { ZodTypeProvider } from '#server/http/validation';
import { badRequest } from '#server/http/http-errors';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { SANDBOX_CSP } from '#server/plugins/security';

/** GET /api/qrcode: the QR code of `data` as SVG (default) or PNG. Deterministic, so cached by browsers. */
export async function qrcodeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/qrcode', { config: { access: 'public' }, schema: { querystring: QrCodeGetQuery, response: { 200: QrCodeGetResponse } } }, async (req, reply) => {
    const { data, size, style, margin, format } = req.query;
    let svg: string;
    try {
      svg = qrSvg(data, { size, style: style as QrStyle, margin });
    } catch {
      throw badRequest('data is too long for a QR code', { data: 'data is too long for a QR code' });
    }
    reply.header('cache-control', 'public, max-age=86400');
    if (format === 'png') {
      // rasterised on the worker pool (qrcode.task.ts): 503 + Retry-After when its queue is full
      const png = asBuffer(await runTask<Uint8Array>('image', 'qrPng', { svg, size }));
      return reply.type('image/png').send(png);
    }
    reply.header('content-security-policy', SANDBOX_CSP);
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  });
}
