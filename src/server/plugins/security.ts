import type { FastifyInstance } from 'fastify';
import { forbidden, unsupportedMediaType } from '#server/http/http-errors';
import { bearerSecret } from './api-tokens';

const SPA_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Content types that are never a document: a stylesheet, a classic or module script (not a worker:
 * the client starts none), a font, a raster image. Not SVG (a page that can run scripts), not HTML,
 * not JSON or text (shown as a page when opened).
 */
const SUBRESOURCE = /^(text\/css|text\/javascript|application\/javascript|font\/|image\/(png|jpeg|webp|avif|gif|x-icon|vnd\.microsoft\.icon))\b/i;

export const SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** True when the site's public address is https (cookies get the __Host- prefix and Secure, HSTS is sent). */
export function isHttpsSite(publicUrl: string | undefined | null): boolean {
  return !!publicUrl && /^https:\/\//i.test(publicUrl.trim());
}

/** Security headers on every answer, and the cross-site request rules for state-changing calls. */
export function registerSecurity(app: FastifyInstance, opts: { dev?: boolean }) {
  // behind TLS (PUBLIC_URL https) HSTS is sent whatever the proxy says about the protocol (issue 19.8)
  const httpsSite = isHttpsSite(app.ctx.config.PUBLIC_URL);
  app.addHook('onSend', async (req, reply, payload) => {
    const https = httpsSite || req.protocol === 'https';
    reply.header('x-content-type-options', 'nosniff');
    // a stylesheet's own fetches (url(...)) follow the referrer policy it was served with
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // The document policies (framing, opener, permissions, CSP) go on everything a browser may show
    // as a page; a stylesheet, script, font or raster image of the built client never is one, and
    // browsers ignore them there (decision 45-02). SVG can be a page with scripts: it keeps them.
    if (!SUBRESOURCE.test(String(reply.getHeader('content-type') ?? ''))) {
      reply.header('x-frame-options', 'DENY');
      reply.header('cross-origin-opener-policy', 'same-origin');
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
      if (!reply.hasHeader('content-security-policy') && !opts.dev) reply.header('content-security-policy', SPA_CSP);
    }
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    // personal and staff answers are never stored by a browser or a proxy (issue 19.7), set here
    // once for every route: a route for signed-in callers or staff always answers no-store; an API
    // answer that states no caching of its own (public data that may be cached says so) too
    const access = (req.routeOptions?.config as { access?: string } | undefined)?.access;
    if (access === 'user' || access === 'admin' || (req.user && access !== undefined && !reply.hasHeader('cache-control'))) {
      reply.header('cache-control', 'no-store');
    } else if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  // The origins a state-changing call may come from. With an https PUBLIC_URL only that exact origin
  // (scheme, host, port): the http:// of the same host is someone else's page as far as we are
  // concerned (issue 33). Otherwise the origin the request was addressed to, and PUBLIC_URL's if set.
  const pub = app.ctx.config.PUBLIC_URL;
  const pubOrigin = (() => {
    try {
      return pub ? new URL(pub).origin : null;
    } catch {
      return null;
    }
  })();
  const allowedOrigins = (req: { protocol: string; host: string }): Set<string> => {
    if (httpsSite && pubOrigin) return new Set([pubOrigin]);
    const allowed = new Set<string>([`${req.protocol}://${req.host}`]);
    if (pubOrigin) allowed.add(pubOrigin);
    return allowed;
  };

  // State-changing calls: JSON or multipart only, and from our own origin when the browser says where from.
  app.addHook('onRequest', async (req) => {
    const m = req.method;
    if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS') return;
    // the SAML assertion consumer service (issue 39, decision 39-04): the identity provider's page
    // posts a plain form to it from its own site; the signed response is its only credential
    const samlAcs = req.routeOptions?.url === '/api/sso/saml/:teamId/acs';
    const origin = samlAcs ? undefined : req.headers.origin;
    // an API token request carries no ambient credential (no cookie is read for it, decision 23-01),
    // and no cross-site page can attach the header without CORS, which we never grant
    if (bearerSecret(req) !== null) {
      // only the content-type rule below applies
    } else if (origin) {
      let ok: boolean;
      try {
        const o = new URL(origin);
        ok = allowedOrigins(req).has(o.origin);
      } catch {
        ok = false;
      }
      if (!ok) throw forbidden('Cross-site request refused');
    } else if (!samlAcs) {
      const site = req.headers['sec-fetch-site'];
      if (site === 'cross-site') throw forbidden('Cross-site request refused');
    }
    const ct = String(req.headers['content-type'] ?? '').toLowerCase();
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    // application/scim+json: SCIM 2.0 clients at /scim/v2 (issue 39)
    if (hasBody && !(ct.startsWith('application/json') || ct.startsWith('multipart/form-data') || ct.startsWith('application/scim+json') || (samlAcs && ct.startsWith('application/x-www-form-urlencoded')))) {
      throw unsupportedMediaType('Unsupported content type');
    }
  });
}
