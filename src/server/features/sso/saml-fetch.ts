import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AppContext } from '#server/context';
import { checkWebhookUrl } from '#server/features/webhooks/public-api';
import { SAML_XML_LIMITS } from './saml-xml-guard';

/**
 * Fetches an identity provider's metadata document from the address the team owner gave
 * (decision 39-04) through the project's outbound guard (decision 33-02): https only, the name
 * resolved once and every answer checked (no private, loopback, link-local or metadata network),
 * the connection pinned to the checked address, no redirects, 10 seconds, 1 MB at most.
 * SSO_ALLOW_PRIVATE_NETWORKS (tests, local development) lets loopback and http through.
 */

export type FetchResult = { ok: true; text: string } | { ok: false; message: string };

const TIMEOUT_MS = 10_000;

export async function fetchMetadata(ctx: AppContext, raw: string): Promise<FetchResult> {
  const allowPrivate = ctx.config.SSO_ALLOW_PRIVATE_NETWORKS;
  const check = await checkWebhookUrl(raw, { allowHttp: allowPrivate, allowPrivate });
  if (!check.ok) {
    ctx.log.info({ url: raw, detail: check.detail }, 'SAML metadata address refused');
    return { ok: false, message: check.message };
  }
  const { url, address: pinned } = check;
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: (typeof pinned)[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const limit = SAML_XML_LIMITS.metadataChars;
  return new Promise<FetchResult>((resolve) => {
    let settled = false;
    const finish = (r: FetchResult) => {
      if (!settled) {
        settled = true;
        clearTimeout(hard);
        resolve(r);
      }
    };
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'GET', headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' }, lookup, agent: false, timeout: TIMEOUT_MS }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        res.resume();
        finish({ ok: false, message: status >= 300 && status < 400 ? 'The metadata address answered a redirect: give its final address' : `The metadata address answered HTTP ${status}` });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limit) {
          req.destroy();
          finish({ ok: false, message: `The metadata is too large (at most ${Math.floor(limit / 1024)} kB)` });
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => finish({ ok: false, message: 'The metadata could not be downloaded' }));
    });
    const tooLong = () => {
      req.destroy();
      finish({ ok: false, message: 'The metadata address did not answer within 10 seconds' });
    };
    const hard = setTimeout(tooLong, TIMEOUT_MS + 1000);
    req.on('timeout', tooLong);
    req.on('error', (err: NodeJS.ErrnoException) => {
      ctx.log.info({ url: raw, code: err.code }, 'SAML metadata download failed');
      finish({ ok: false, message: 'The metadata could not be downloaded' });
    });
    req.end();
  });
}
