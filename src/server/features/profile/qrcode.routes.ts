import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/profile';
import { QR_QUIET_ZONE, qrMinReadableSize, qrSvg, type QrStyle } from '#shared/qr/qr-svg';

const QR_MAX_SIZE = 1024; // QrCodeGetQuery's size limit
import type { ZodTypeProvider } from '#server/http/validation';
import { badRequest } from '#server/http/http-errors';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import { SANDBOX_CSP } from '#server/plugins/security';

/** GET /api/qrcode: the QR code of `data` as SVG (default) or PNG. Deterministic, so cached by browsers. */
export async function qrcodeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  route(r, api.getQrcode, async (req, reply) => {
    const { data, size, style, format } = req.query;
    // ISO/IEC 18004's 4-module quiet zone unless asked otherwise (the circular style's ring is its own)
    const margin = req.query.margin ?? (style === 'circular' ? 0 : QR_QUIET_ZONE);
    let svg: string;
    let minSize: number;
    try {
      minSize = qrMinReadableSize(data, { style: style as QrStyle, margin });
      svg = qrSvg(data, { size, style: style as QrStyle, margin });
    } catch {
      throw badRequest('data is too long for a QR code', { data: 'data is too long for a QR code' });
    }
    // never hand out a code its readers cannot decode (issue 36): too few pixels a module
    if (minSize > QR_MAX_SIZE) {
      const message = `data is too long for a readable ${style} QR code at the largest size (${QR_MAX_SIZE})`;
      throw badRequest(message, { data: message });
    }
    if (size < minSize) {
      const message = `size must be at least ${minSize} for this data and style`;
      throw badRequest(message, { size: message });
    }
    reply.header('cache-control', 'public, max-age=86400');
    if (format === 'png') {
      // rasterised on the worker pool (qrcode.task.ts): 503 + Retry-After when its queue is full
      const png = asBuffer(await runTask<Uint8Array>('visitor', 'qrPng', { svg, size }));
      return reply.type('image/png').send(png);
    }
    reply.header('content-security-policy', SANDBOX_CSP);
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  });
}
