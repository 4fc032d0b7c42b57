import type {
  ContextConfigDefault,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { Endpoint } from '#shared/contracts/endpoint';
import type { ZodTypeProvider } from './validation';

/** The Fastify schema of an endpoint (what types the handler's request and answer). */
export type EndpointSchema<E extends Endpoint> = {
  params: E extends { params: infer P } ? P : undefined;
  querystring: E extends { query: infer Q } ? Q : undefined;
  body: E extends { body: infer B } ? B : undefined;
  response: E['responses'];
};

export type EndpointHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  EndpointSchema<E>,
  ZodTypeProvider
>;

/** Route options that are the server's business, not the contract's (body limit, log level). */
export type EndpointServerOptions = Pick<RouteShorthandOptions, 'bodyLimit' | 'logLevel'>;

/**
 * Registers the route of a shared endpoint contract (decision 34-04): method and path, its access
 * and token scopes as `config`, its schemas as `schema` (request parsed by zod, answers checked in
 * tests); the handler is typed from the contract.
 */
export function route<const E extends Endpoint>(app: FastifyInstance, endpoint: E, ...args: [EndpointHandler<E>] | [EndpointServerOptions, EndpointHandler<E>]): void {
  const [options, handler] = args.length === 2 ? args : [{}, args[0]];
  const schema: Record<string, unknown> = { response: endpoint.responses };
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.summary) schema.summary = endpoint.summary;
  const config: { access: Endpoint['access']; scopes?: Endpoint['scopes'] } = { access: endpoint.access };
  if (endpoint.scopes) config.scopes = endpoint.scopes;
  app.route({ ...options, method: endpoint.method, url: endpoint.path, config, schema, handler: handler as RouteHandlerMethod });
}
