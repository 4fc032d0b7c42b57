import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CustomFetch } from 'openid-client';
import { checkWebhookUrl } from '#server/features/webhooks/public-api';

/** Largest answer read from an identity provider (discovery, keys, tokens, user info). */
const MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 10_000;

/** An outbound request to an identity provider was refused or failed before an answer. */
export class IdpRequestError extends Error {}

/**
 * Every request openid-client makes to a team's identity provider (decision 39-03). The issuer is
 * typed by a team owner, so it is an outbound URL like a webhook's (decision 33-02): https only,
 * the name resolved once and every address checked (no loopback, private, link-local or metadata
 * networks), the connection made to the checked address (a second resolution cannot swap it), no
 * redirects followed, answers capped in size and time. `allowPrivate` (SSO_ALLOW_PRIVATE_NETWORKS,
 * tests and local development) also allows plain http.
 */
export function guardedFetch(allowPrivate: boolean): CustomFetch {
  return async (url, options) => {
    const check = await checkWebhookUrl(url, { allowHttp: allowPrivate, allowPrivate });
    if (!check.ok) throw new IdpRequestError(`${check.message}${check.detail ? ` (${check.detail})` : ''}`);
    const pinned = check.address;
    const lookup: LookupFunction = (_host, opts, cb) => {
      if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
      else cb(null, pinned.address, pinned.family);
    };
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit | undefined).forEach((v, k) => (headers[k] = v));
    const body = options.body === undefined || options.body === null ? undefined : typeof options.body === 'string' ? options.body : options.body instanceof URLSearchParams ? options.body.toString() : Buffer.from(options.body as ArrayBuffer);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const mod = check.url.protocol === 'https:' ? https : http;
      const req = mod.request(check.url, { method: options.method, headers, lookup, agent: false, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BYTES) {
            req.destroy(new IdpRequestError('The identity provider answered with too much data'));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          const noBody = status === 204 || status === 304 || (status >= 100 && status < 200);
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: h }));
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new IdpRequestError('The identity provider did not answer in time')));
      req.on('error', reject);
      options.signal?.addEventListener('abort', () => req.destroy(new IdpRequestError('aborted')));
      req.end(body);
    });
  };
}
