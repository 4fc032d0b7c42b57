import type { z } from 'zod';
import type { ApiScope } from '#shared/schemas/developer';

/** Who may call an endpoint (checked before the handler runs: `server/plugins/session.ts`). */
export type EndpointAccess = 'public' | 'user' | 'admin';
export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a request body the handler reads itself looks like in the OpenAPI document (a multipart
 * upload, a signed raw body, JSON or a plain HTML form): the route then declares no zod `body`.
 */
export type OwnBody =
  /** one file in a multipart field */
  | { upload: { field: string; what: string } }
  /** JSON the handler parses itself (`json`: its schema, or a description of a foreign object), or also the same fields as a plain HTML form */
  | { description: string; json: z.ZodType | string; plainForm?: boolean };

/**
 * One endpoint: method, path (Fastify form, `/api/x/:id`), access, the API-token scopes that may
 * call it, the zod schemas of its parts and its answers by status (`200`, `4xx`, `default`). The
 * server registers the route from it (`server/http/endpoint.ts`), the web calls it with it
 * (`web/lib/api`), and the OpenAPI document is generated from the list of them (decision 34-04).
 */
export interface Endpoint {
  readonly method: EndpointMethod;
  readonly path: string;
  readonly access: EndpointAccess;
  /** the scopes an API token needs (none: tokens cannot call it) */
  readonly scopes?: readonly ApiScope[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** a body the handler reads itself (multipart, raw bytes), described for the document */
  readonly ownBody?: OwnBody;
  readonly responses: Readonly<Record<string | number, z.ZodType>>;
  /** the operation's name in the OpenAPI document (otherwise method + path) */
  readonly summary?: string;
}

/** Declares an endpoint, keeping its literal types (the server's handler and the web's answer are typed from it). */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

type SuccessStatus<E extends Endpoint> = Extract<keyof E['responses'], 200 | 201 | 202 | '200' | '201' | '202'>;

/** The parsed JSON of an endpoint's successful answer (200, 201 or 202). */
export type EndpointResponse<E extends Endpoint> = [SuccessStatus<E>] extends [never] ? unknown : z.output<E['responses'][SuccessStatus<E>]>;
/** What a caller sends as the body (the schema's input; a JSON body the handler reads itself counts). */
export type EndpointBody<E extends Endpoint> = E extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : E extends { ownBody: { json: infer J extends z.ZodType } }
    ? z.input<J>
    : never;
export type EndpointParams<E extends Endpoint> = E extends { params: infer P extends z.ZodType } ? z.input<P> : never;
export type EndpointQuery<E extends Endpoint> = E extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;

/**
 * The URL of an endpoint with its `:name` parameters filled in (encoded) and the query string
 * (entries whose value is undefined, null or '' left out).
 */
export function endpointUrl(endpoint: Pick<Endpoint, 'path'>, params?: Record<string, string | number>, query?: Record<string, unknown>): string {
  let url = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`${endpoint.path}: parameter ${name} is missing`);
    return encodeURIComponent(String(v));
  });
  if (url.includes('*')) url = url.replace('*', String(params?.['*'] ?? ''));
  if (query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += `?${s}`;
  }
  return url;
}
