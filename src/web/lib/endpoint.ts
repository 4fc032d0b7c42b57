import { queryOptions } from '@tanstack/react-query';
import { endpointUrl, type Endpoint, type EndpointBody, type EndpointParams, type EndpointQuery, type EndpointResponse } from '#shared/contracts/endpoint';
import { ApiError, apiRequest, uploadFile } from './api';

/**
 * The web's client of the shared endpoint contracts (decision 34-04): URL, method and answer type
 * come from the contract (`src/shared/contracts/<x>.ts`); no feature writes an `/api/...` string
 * or picks an answer type. In the web build the contracts carry no zod schemas (the Vite plugin
 * `scripts/vite-web-contracts.mjs` strips them; their types stay): pages do not load zod for a call.
 */
type ParamsPart<E extends Endpoint> = [EndpointParams<E>] extends [never] ? { params?: undefined } : { params: EndpointParams<E> };
type QueryPart<E extends Endpoint> = [EndpointQuery<E>] extends [never] ? { query?: undefined } : { query?: EndpointQuery<E> };
type BodyPart<E extends Endpoint> = [EndpointBody<E>] extends [never]
  ? { body?: undefined }
  : undefined extends EndpointBody<E>
    ? { body?: EndpointBody<E> }
    : { body: EndpointBody<E> };

/** What a call sends: the path parameters, the query and the body the contract declares. */
export type EndpointInput<E extends Endpoint> = ParamsPart<E> & QueryPart<E> & BodyPart<E> & { headers?: Record<string, string> };

type NoInput<E extends Endpoint> = [EndpointParams<E>] extends [never] ? ([EndpointBody<E>] extends [never] ? true : undefined extends EndpointBody<E> ? true : false) : false;
/** The input argument: optional when the contract takes no params and no body. */
type InputArg<E extends Endpoint> = NoInput<E> extends true ? [input?: EndpointInput<E>] : [input: EndpointInput<E>];

/** The URL of a call (for a link, an image or a download). */
export function endpointHref<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>): string {
  const i = input as { params?: Record<string, string | number>; query?: Record<string, unknown> } | undefined;
  return endpointUrl(endpoint, i?.params, i?.query);
}

/** Calls an endpoint; the answer is the contract's (null for an empty body); a non-2xx answer throws an ApiError. */
export async function callEndpoint<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>): Promise<EndpointResponse<E>> {
  const i = input as { body?: unknown; headers?: Record<string, string> } | undefined;
  const res = await apiRequest(endpoint.method, endpointHref(endpoint, ...([input] as InputArg<E>)), i?.body, i?.headers);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as EndpointResponse<E>;
}

/** The raw answer of a call (a file, a CSV or a PDF to save), after the same error handling. */
export function fetchEndpoint<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>): Promise<Response> {
  const i = input as { body?: unknown; headers?: Record<string, string> } | undefined;
  return apiRequest(endpoint.method, endpointHref(endpoint, ...([input] as InputArg<E>)), i?.body, i?.headers);
}

/**
 * The query key of a GET: its URL (so `invalidateQueries({ queryKey: endpointKey(c) })` and a
 * prefix match on `endpointPrefix(c)` find it).
 */
export function endpointKey<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>): readonly [string] {
  return [endpointHref(endpoint, ...([input] as InputArg<E>))] as const;
}

/** The URL up to the first path parameter: matches every query key of this endpoint (and below it). */
export function endpointPrefix(endpoint: Pick<Endpoint, 'path'>): string {
  const i = endpoint.path.search(/[:*]/);
  return i < 0 ? endpoint.path : endpoint.path.slice(0, i);
}

/** `useQuery(endpointQuery(contract, input))`: key, reader and answer type from the contract. */
export function endpointQuery<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>) {
  const args = [input] as InputArg<E>;
  return queryOptions({ queryKey: endpointKey(endpoint, ...args), queryFn: () => callEndpoint(endpoint, ...args) });
}

/** As `callEndpoint`, but a 401 (signed out) answers null instead of an error. */
export async function callEndpointOrNull<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>): Promise<EndpointResponse<E> | null> {
  try {
    return await callEndpoint(endpoint, ...([input] as InputArg<E>));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** As `endpointQuery`, but a 401 (signed out) reads as null instead of an error. */
export function endpointQueryOrNull<E extends Endpoint>(endpoint: E, ...[input]: InputArg<E>) {
  const args = [input] as InputArg<E>;
  return queryOptions({ queryKey: endpointKey(endpoint, ...args), queryFn: () => callEndpointOrNull(endpoint, ...args) });
}

/** Uploads one file to an upload endpoint (its multipart field comes from the contract), with progress. */
export function uploadToEndpoint<E extends Endpoint & { ownBody: { upload: { field: string } } }>(
  endpoint: E,
  file: Blob,
  opts: { onProgress?: (fraction: number) => void; extra?: Record<string, string>; fileName?: string; params?: Record<string, string | number> } = {},
): Promise<EndpointResponse<E>> {
  return uploadFile<EndpointResponse<E>>(endpointUrl(endpoint, opts.params), endpoint.ownBody.upload.field, file, opts);
}
