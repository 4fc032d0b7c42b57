import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider on 127.0.0.1 for the single sign-on tests (decision 39-03): the
 * `oidc-provider` package with one confidential client (PKCE required), accounts the test fills,
 * and a one-field login page (`/interaction/:uid`): the account id typed in signs in and consents
 * at once. `tamperIdToken` changes a claim of the next ID token after it was signed (a forged token).
 */
export interface OidcAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  phone_number?: string;
  job_title?: string;
}

export interface OidcStandin {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, OidcAccount>;
  tamperIdToken: boolean;
  close(): Promise<void>;
}

export async function startOidcStandin(redirectUris: string[]): Promise<OidcStandin> {
  const accounts = new Map<string, OidcAccount>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'cards-app';
  const clientSecret = 'a-client-secret-for-tests-only-0123456789';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_post' }],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'job_title'], phone: ['phone_number'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['standin-cookie-key'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: async (_ctx, id) => {
      const a = accounts.get(id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...a }) };
    },
  });
  provider.on('server_error', () => undefined);
  const handler = provider.callback();
  const standin: OidcStandin = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamperIdToken: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  server.on('request', async (req, res) => {
    const m = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec((req.url ?? '').split('?')[0]!);
    if (m) {
      try {
        if (req.method === 'GET') {
          await provider.interactionDetails(req, res);
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html lang="en"><head><title>Stand-in identity provider</title></head><body><main><h1>Company sign-in</h1><form method="post" action="/interaction/${m[1]}"><label for="login">Account</label><input id="login" name="login" autocomplete="off"><button type="submit">Sign in at the provider</button></form></main></body></html>`);
          return;
        }
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const login = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('login') ?? '';
        const details = await provider.interactionDetails(req, res);
        if (!accounts.has(login)) {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'unknown account' }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
        grant.addOIDCScope('openid email profile phone');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (e) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String((e as Error).message));
      }
      return;
    }
    if (standin.tamperIdToken && req.url === '/token') {
      standin.tamperIdToken = false;
      const end = res.end.bind(res) as (...a: unknown[]) => http.ServerResponse;
      (res as unknown as { end: (...a: unknown[]) => unknown }).end = (body?: unknown, ...rest: unknown[]) => {
        try {
          const doc = JSON.parse(String(body)) as { id_token?: string };
          if (doc.id_token) {
            const [h, p, s] = doc.id_token.split('.');
            // a well-formed token with other claims under the old signature: it no longer matches
            const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>;
            claims.name = 'Forged Name';
            doc.id_token = [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.');
            const text = JSON.stringify(doc);
            if (!res.headersSent) res.setHeader('content-length', String(Buffer.byteLength(text)));
            return end(text, ...rest);
          }
        } catch {
          // not JSON: left alone
        }
        return end(body, ...rest);
      };
    }
    handler(req, res);
  });
  return standin;
}

/** A browser's cookie jar for fetch calls to the stand-in (paths ignored; the provider tolerates it). */
export class FetchJar {
  cookies = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}
