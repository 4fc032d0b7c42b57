import type { FastifyInstance, FastifyTypeProvider, FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

/** Lets route handlers see `request.body` etc. typed from the zod schemas in `schema`. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export class RequestValidationError extends Error {
  constructor(
    public readonly issues: z.core.$ZodIssue[],
    public readonly part: string,
  ) {
    super(issues[0]?.message ?? 'Invalid input');
  }
}

/** zod does the validation; Fastify's Ajv is not used (no type coercion surprises). */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) return { value: r.data };
    return { error: new RequestValidationError(r.error.issues, httpPart ?? 'body') as any };
  };
};

/** Turns zod issues into { "field.path": "message" } (first message per field). */
export function issuesToFieldErrors(issues: z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    let key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        const kk = key ? `${key}.${k}` : k;
        out[kk] ??= `Unknown field: ${k}`;
      }
      continue;
    }
    if (!key) key = '_';
    out[key] ??= issue.message;
  }
  return out;
}

/** Parse anything (e.g. multipart fields) with a schema, throwing the same 400 as route validation. */
export function parseOrThrow<T extends z.ZodType>(schema: T, data: unknown, part = 'body'): z.output<T> {
  const r = schema.safeParse(data);
  if (!r.success) throw new RequestValidationError(r.error.issues, part);
  return r.data;
}

// ---- answers ---------------------------------------------------------------------------------

type ResponseSchemas = Record<string, z.ZodType>;

/** The schema a route declares for a status code: exact code, then `4xx`-style class, then `default`. */
export function responseSchemaFor(schemas: ResponseSchemas | undefined, status: number): z.ZodType | undefined {
  if (!schemas) return undefined;
  return schemas[String(status)] ?? schemas[`${Math.floor(status / 100)}xx`] ?? schemas.default;
}

/** What the route answered does not match the schema it declares (tests only: see buildApp's checkResponses). */
export class ResponseContractError extends Error {
  constructor(
    message: string,
    public readonly issues: z.core.$ZodIssue[] = [],
  ) {
    super(message);
  }
}

const JSON_TYPE = /^application\/([a-z.+-]*\+)?json\b/i;

function innerSchema(schema: z.ZodType): z.ZodType {
  let s: any = schema;
  for (let i = 0; i < 8; i++) {
    const def = s?._zod?.def;
    if (!def) break;
    if (['optional', 'nullable', 'default', 'readonly', 'nonoptional', 'prefault', 'catch'].includes(def.type)) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else break;
  }
  return s;
}

/** A text or binary answer (a string schema, or a union with one): HTML, SVG, CSV, files. */
function acceptsText(schema: z.ZodType): boolean {
  const inner: any = innerSchema(schema);
  const def = inner?._zod?.def;
  if (def?.type === 'string') return true;
  if (def?.type === 'union') return (def.options as z.ZodType[]).some(acceptsText);
  return false;
}

/**
 * Checks one answer against the route's declared response schemas. `payload` is what Fastify is
 * about to send (JSON already serialized to a string; a Buffer or stream for files). Returns the
 * problem, or null when the answer keeps its contract.
 */
export function checkAnswer(
  schemas: ResponseSchemas,
  status: number,
  contentType: string,
  payload: unknown,
  fallbackError: z.ZodType,
): ResponseContractError | null {
  const declared = responseSchemaFor(schemas, status);
  // error answers all share one shape unless the route says otherwise
  const schema = declared ?? (status >= 400 ? fallbackError : undefined);
  if (!schema) return new ResponseContractError(`no response schema declared for status ${status}`);
  const kind = (innerSchema(schema) as any)?._zod?.def?.type;
  const empty = payload === undefined || payload === null || payload === '' || (Buffer.isBuffer(payload) && payload.length === 0);
  if (empty) {
    return acceptsText(schema) || schema.safeParse(null).success ? null : new ResponseContractError(`status ${status} answered no body, but its schema expects one`);
  }
  if (JSON_TYPE.test(contentType) && typeof payload === 'string') {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return new ResponseContractError(`status ${status} answered malformed JSON`);
    }
    const r = schema.safeParse(value);
    return r.success ? null : new ResponseContractError(`status ${status} answer does not match its schema`, r.error.issues);
  }
  // text, files and streams: the declared schema must be a text/binary one (not a JSON shape)
  if (acceptsText(schema)) return null;
  if (typeof payload === 'object' && payload !== null && 'pipe' in payload && JSON_TYPE.test(contentType)) return null; // a JSON stream
  return new ResponseContractError(`status ${status} answered ${contentType || 'a body'} but its schema expects ${kind ?? 'something else'}`);
}

/**
 * Response contracts. Always: every `/api` route must declare `schema.response` (start-up fails
 * otherwise, like `config.access`). With `check` (tests): every answer of a route that declares
 * its responses is checked against the schema for its status code; a mismatch is logged with the
 * zod issues and turned into a 500, so the test that made the request fails loudly.
 */
export function registerResponseContracts(app: FastifyInstance, opts: { check: boolean; errorSchema: z.ZodType }) {
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const response = (route.schema as { response?: ResponseSchemas } | undefined)?.response;
    if (!response && url.startsWith('/api/') && !url.startsWith('/api/*')) {
      throw new Error(`Route ${route.method} ${url} does not declare schema.response`);
    }
  });
  if (!opts.check) return;
  app.addHook('onSend', async (req, reply, payload) => {
    const schemas = (req.routeOptions.schema as { response?: ResponseSchemas } | undefined)?.response;
    if (!schemas) return payload;
    const status = reply.statusCode;
    const problem = checkAnswer(schemas, status, String(reply.getHeader('content-type') ?? ''), payload, opts.errorSchema);
    if (!problem) return payload;
    const where = `${req.method} ${req.routeOptions.url}`;
    const errors = issuesToFieldErrors(problem.issues);
    // the test log shows what broke the contract (the app's logger is usually silent in tests)
    console.error(`[response contract] ${where}: ${problem.message}`, problem.issues.length ? JSON.stringify(errors) : '');
    req.log.error({ route: where, issues: problem.issues }, 'response does not match its schema');
    reply.code(500);
    reply.removeHeader('content-length');
    reply.removeHeader('content-encoding');
    reply.removeHeader('etag');
    reply.header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ message: `Response contract broken: ${where} ${problem.message}`, errors });
  });
}
