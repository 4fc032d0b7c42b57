import { z } from 'zod';
import type { Endpoint, OwnBody } from '#shared/contracts/endpoint';
import { ErrorResponse } from '#shared/schemas/common';

/** Internal routes the public document leaves out (decision 23-01): staff, pages, files, health and the document itself. */
export function isDocumented(route: { url: string; access: string | undefined }): boolean {
  if (route.access === 'admin' || route.access === undefined) return false;
  if (!route.url.startsWith('/api/')) return false;
  // the single sign-on redirects are steps of a browser's sign-in (each answers a 303 to the
  // identity provider or back into the app), not operations an API client calls (decision 39-03)
  return ![
    '/api/health',
    '/api/openapi.json',
    '/api/docs',
    '/api/docs/:file',
    '/api/auth/sso/start',
    '/api/auth/sso/oidc/callback',
    '/api/sso/saml/:teamId/login',
    '/api/sso/saml/:teamId/acs',
  ].includes(route.url);
}

/** A zod schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses); requests as their input, answers as their output. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as Record<string, unknown>;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, unknown>;
  delete out.$defs;
  // a shape with a registered id (ErrorResponse) comes as a local $ref: inlined, so each schema stands alone
  return inlineRefs(out, defs, 0) as Record<string, unknown>;
}

function inlineRefs(node: unknown, defs: Record<string, unknown>, depth: number): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, defs, depth));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  const ref = typeof obj.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(obj.$ref) : null;
  if (ref && defs[ref[1]!] && depth < 8) {
    const { $ref: _ref, ...rest } = obj;
    return { ...(inlineRefs(defs[ref[1]!], defs, depth + 1) as object), ...rest };
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, inlineRefs(v, defs, depth)]));
}

/** The media types a text or file answer names in its description (`textDocument`/`binaryFile`, common.ts). */
export function mediaTypesOf(json: Record<string, unknown>): string[] {
  if (json.type !== 'string' || typeof json.description !== 'string') return [];
  return [...json.description.matchAll(/\b[a-z]+\/[a-z0-9.+-]+/gi)].map((m) => m[0]);
}

/** `/api/x/:id` -> `/api/x/{id}` */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const CAPABILITY: Record<string, string> = {
  account: 'account',
  auth: 'auth',
  ai: 'ai',
  photoroom: 'ai',
  'card-codes': 'engagement',
  leads: 'engagement',
  stats: 'engagement',
  p: 'profile',
  profile: 'profile',
  qrcode: 'profile',
  vcard: 'profile',
  order: 'orders',
  orders: 'orders',
  'order-status': 'orders',
  checkout: 'orders',
  cards: 'templates',
  'generate-card': 'templates',
  'svg-templates': 'templates',
  templates: 'templates',
  'template-customize': 'templates',
  'template-preview': 'templates',
  'template-thumbnail': 'templates',
  upload: 'uploads',
  subscribe: 'site',
  tokens: 'developer',
};

function capabilityOf(url: string): string {
  const seg = url.split('/')[2]?.replace(/\.[a-z]+$/, '') ?? 'api';
  return CAPABILITY[seg] ?? seg;
}

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[/.-]/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `By${w[1]!.toUpperCase()}${w.slice(2)}` : w[0]!.toUpperCase() + w.slice(1)));
  return method.toLowerCase() + words.join('');
}

const VERB: Record<string, string> = { GET: 'Read', POST: 'Send', PUT: 'Save', PATCH: 'Update', DELETE: 'Delete' };

/** The schema of a file or text answer in one media type: a JSON download is a JSON object, others a string. */
function fileSchema(media: string, binary: boolean): Record<string, unknown> {
  if (media === 'application/json') return { type: 'object', description: 'A JSON document (sent as a download).' };
  return { type: 'string', ...(binary ? { format: 'binary' } : {}) };
}

function responseEntry(schema: z.ZodType): Record<string, unknown> {
  const json = toJsonSchema(schema, 'output');
  if (json.type === 'null') return { description: typeof json.description === 'string' ? json.description : 'No body' };
  // one answer in several formats (`z.union` of text/file answers, e.g. the QR code as SVG or PNG): each media type once
  const variants = Array.isArray(json.anyOf) ? (json.anyOf as Array<Record<string, unknown>>) : [json];
  const media = variants.flatMap((v) => mediaTypesOf(v).map((m) => [m, v.format === 'binary'] as const));
  if (media.length && media.length >= variants.length) {
    const description = variants.map((v) => v.description).filter(Boolean).join('; or ');
    return { description, content: Object.fromEntries(media.map(([m, binary]) => [m, { schema: fileSchema(m, binary) }])) };
  }
  return { description: 'JSON', content: { 'application/json': { schema: json } } };
}

/** A multipart request body of one file field (the handler reads the stream itself, with its own cap). */
function fileUpload(field: string, what: string): Record<string, unknown> {
  return {
    required: true,
    description: `multipart/form-data with the ${what} in the field \`${field}\`.`,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: [field], properties: { [field]: { type: 'string', format: 'binary', description: what } } },
        encoding: { [field]: { contentType: 'application/octet-stream' } },
      },
    },
  };
}

/** The request body of an operation that reads its request itself (the contract's `ownBody`: multipart, raw bytes, JSON or a plain form). */
function ownBody(body: OwnBody): Record<string, unknown> {
  if ('upload' in body) return fileUpload(body.upload.field, body.upload.what);
  const json = typeof body.json === 'string' ? { type: 'object', description: body.json } : toJsonSchema(body.json, 'input');
  const content: Record<string, unknown> = { 'application/json': { schema: json } };
  if (body.plainForm) {
    // the same fields as a plain HTML form sends them: strings
    const props = Object.keys((json.properties ?? {}) as object);
    content['multipart/form-data'] = { schema: { type: 'object', properties: Object.fromEntries(props.map((k) => [k, { type: 'string' }])), required: json.required ?? [] } };
  }
  return { required: true, description: body.description, content };
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Array<Record<string, unknown>> {
  if (!schema) return [];
  const json = toJsonSchema(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  account: 'Your account: e-mail, password, sessions, data export and deletion.',
  ai: 'The design assistant: suggestions, feedback, colour palettes and background removal.',
  auth: 'Sign-up, sign-in, sign-out, e-mail verification and password reset.',
  developer: 'Access tokens for this API.',
  engagement: 'Leads, card codes and visit statistics of your profile.',
  orders: 'Metal card orders: placing, status and claiming.',
  profile: 'Your digital profile, its public page data, QR code and contact file.',
  reviews: 'Customer reviews.',
  site: 'Newsletter subscription.',
  team: 'Teams: members, invitations, brand, orders, leads and statistics.',
  templates: 'Card templates, previews, rendering and designs sent for review.',
  uploads: 'Uploading profile images, logos and order artwork.',
  wallet: 'Apple Wallet and Google Wallet passes of your profile.',
  webhooks: 'Webhook endpoints and their deliveries (Standard Webhooks).',
};

/** Answers every operation can give, in `components.responses` (referenced by each operation). */
function sharedResponses(): Record<string, unknown> {
  const error = { 'application/json': { schema: toJsonSchema(ErrorResponse, 'output') } };
  const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } };
  return {
    Error: { description: 'The request was refused: JSON `{ message, errors? }` (`errors` names the fields to fix).', content: error },
    Unauthorized: { description: 'Not signed in, or the API token is unknown, revoked or expired.', content: error },
    Forbidden: { description: 'Not allowed: an API token without the scope this operation needs, or a token on an operation tokens cannot call.', content: error },
    TokenNotAccepted: { description: 'Refused: sent with an API token (public operations take none: send the request without `Authorization`), or not allowed for this resource.', content: error },
    ServiceUnavailable: { description: 'Busy or briefly unavailable (database or worker queue): try again after `Retry-After` seconds.', headers: retryAfter, content: error },
  };
}

/** Path items list their operations in this order. */
const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * The OpenAPI 3.1 document of the public API, generated from the shared endpoint contracts alone
 * (decision 34-04): no app is booted, nothing is recorded at run time.
 */
export function buildOpenApiDocument(endpoints: readonly Endpoint[], opts: { serverUrl: string; sessionCookie: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const e of endpoints) {
    const r = { method: e.method, url: e.path, access: e.access, scopes: e.scopes ?? [], summary: e.summary, params: e.params, querystring: e.query, body: e.body, response: e.responses as Record<string, z.ZodType> };
    if (!isDocumented(r)) continue;
    const tag = capabilityOf(r.url);
    tags.add(tag);
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(r.response ?? {})) responses[status.replace(/xx$/, 'XX')] = responseEntry(schema);
    if (!Object.keys(responses).some((s) => s.startsWith('4'))) responses['4XX'] = { $ref: '#/components/responses/Error' };
    // what the access check answers before the handler runs (plugins/session.ts, plugins/api-tokens.ts)
    if (r.access !== 'public') responses['401'] ??= { $ref: '#/components/responses/Unauthorized' };
    responses['403'] ??= { $ref: r.access === 'public' ? '#/components/responses/TokenNotAccepted' : '#/components/responses/Forbidden' };
    responses['503'] ??= { $ref: '#/components/responses/ServiceUnavailable' };
    const security: Array<Record<string, string[]>> = r.access === 'public' ? [] : [{ cookieAuth: [] }];
    if (r.access !== 'public' && r.scopes.length) security.push({ bearerAuth: [...r.scopes] });
    const scopeNote = r.access === 'public' ? 'Public: no sign-in.' : r.scopes.length ? `API token scope: ${r.scopes.join(', ')}.` : 'Signed-in session only (not available to API tokens).';
    const op: Record<string, unknown> = {
      operationId: operationId(r.method, r.url),
      summary: r.summary ?? `${VERB[r.method] ?? r.method} ${r.url.replace(/^\/api\//, '')}`,
      description: scopeNote,
      tags: [tag],
      security,
      'x-scopes': [...r.scopes],
      parameters: [...parameters(r.params, 'path'), ...parameters(r.querystring, 'query')],
      responses,
    };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(r.body, 'input') } } };
    else if (e.ownBody) op.requestBody = ownBody(e.ownBody);
    const path = openApiPath(r.url);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Metal Cards API',
      version: '1',
      description:
        'The JSON API behind our own screens. Sign in (cookie session) or send `Authorization: Bearer <token>` with an access token made on the Developer section of your account page; a token reaches only the operations whose scope it holds (other operations answer 403 to a token). Errors are JSON `{ message, errors? }`. A method a path does not take answers 405 with an `Allow` header listing the methods it does; 429 and 503 answers carry `Retry-After` (seconds).',
      // an SPDX LicenseRef (SPDX's syntax for a licence not on its list): the API is not open source
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: opts.serverUrl }],
    tags: [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name}.` })),
    components: {
      responses: sharedResponses(),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token (`mc_...`); scopes per operation in `x-scopes`.' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: opts.sessionCookie },
      },
    },
    paths: Object.fromEntries(
      Object.entries(paths)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([p, item]) => [p, Object.fromEntries(Object.entries(item).sort(([a], [b]) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)))]),
    ),
  };
}
