import type { FastifyReply } from 'fastify';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * CSP of our server-rendered pages (the public profile, lead and card-code pages): no scripts
 * unless `scriptSrc` allows one by hash, images from us and https, forms post only to us.
 */
export function pageCsp(scriptSrc = "'none'"): string {
  return [
    "default-src 'none'",
    `script-src ${scriptSrc}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data: https:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sends a small server-rendered page (the lead and card-code pages): never cached, no scripts. */
export function sendPlainPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', pageCsp())
    .send(html);
}
