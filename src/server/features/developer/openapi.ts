import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import { ErrorResponse } from '#shared/schemas/common';
import type { ApiScope } from '#shared/schemas/developer';

/** What the document needs to know of one registered route. */
export interface ApiRoute {
  method: string;
  url: string;
  access: string | undefined;
  scopes: readonly ApiScope[];
  summary?: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  response?: Record<string, z.ZodType>;
}

const ROUTES = Symbol.for('metal-cards.api-routes');
type WithRoutes = FastifyInstance & { [ROUTES]?: ApiRoute[] };

/**
 * Records every route the app registers (an onRoute hook on the root instance, placed first in
 * `src/server/routes.ts`), so the document describes exactly what the server answers.
 */
export const apiRouteCollector = Object.assign(
  async (app: FastifyInstance) => {
    const list: ApiRoute[] = [];
    app.decorate(ROUTES, list);
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const schema = (route.schema ?? {}) as { summary?: string; params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType; response?: Record<string, z.ZodType> };
      const config = (route.config ?? {}) as { access?: string; scopes?: readonly ApiScope[] };
      for (const m of methods) {
        const method = String(m).toUpperCase();
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        list.push({ method, url: route.url, access: config.access, scopes: config.scopes ?? [], summary: schema.summary, params: schema.params, querystring: schema.querystring, body: schema.body, response: schema.response });
      }
    });
  },
  { [Symbol.for('skip-override')]: true },
);

export function registeredRoutes(app: FastifyInstance): ApiRoute[] {
  return (app as WithRoutes)[ROUTES] ?? [];
}

/** Internal routes the public document leaves out (decision 23-01): staff, pages, files, health and the document itself. */
export function isDocumented(route: Pick<ApiRoute, 'url' | 'access'>): boolean {
  if (route.access === 'admin' || route.access === undefined) return false;
  if (!route.url.startsWith('/api/')) return false;
  return !['/api/health', '/api/openapi.json', '/api/docs', '/api/docs/:file'].includes(route.url);
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

/** Readable names of the operations a token can call (and of the token routes); the rest get method + path. */
const SUMMARIES: Record<string, string> = {
  'GET /api/profile': 'Your profile',
  'POST /api/profile': 'Create your profile',
  'PUT /api/profile': 'Save your profile and card design',
  'PUT /api/profile/:id': 'Update your profile',
  'GET /api/profile/lead-form': 'Your contact-exchange form settings',
  'PUT /api/profile/lead-form': 'Save your contact-exchange form settings',
  'GET /api/leads': 'List your leads',
  'GET /api/leads.csv': 'Your leads as CSV',
  'GET /api/leads.vcf': 'Your leads as vCards',
  'GET /api/stats/visits': 'Profile visit statistics',
  'GET /api/stats/engagement': 'Views, saves, clicks and leads by day',
  'GET /api/team': 'Your team and your role',
  'PATCH /api/team': 'Update the team',
  'PUT /api/team/brand': 'Save the team brand',
  'GET /api/team/members': 'Team members',
  'PATCH /api/team/members/:userId': "Change a member's role",
  'DELETE /api/team/members/:userId': 'Remove a member',
  'POST /api/team/invites': 'Invite people',
  'POST /api/team/invites/import': 'Invite people from a CSV file',
  'POST /api/team/invites/:id/resend': 'Send an invitation again',
  'DELETE /api/team/invites/:id': 'Withdraw an invitation',
  'GET /api/team/orders': 'Team card orders',
  'GET /api/team/stats': 'Team statistics',
  'GET /api/team/leads': 'Team leads',
  'GET /api/team/leads.csv': 'Team leads as CSV',
  'GET /api/tokens': 'Your access tokens',
  'POST /api/tokens': 'Create an access token (the secret is in this answer only)',
  'DELETE /api/tokens/:id': 'Revoke an access token',
};

function responseEntry(schema: z.ZodType): Record<string, unknown> {
  const json = toJsonSchema(schema, 'output');
  if (json.type === 'null') return { description: typeof json.description === 'string' ? json.description : 'No body' };
  const media = mediaTypesOf(json);
  if (media.length) {
    const body = { schema: { type: 'string', ...(json.format === 'binary' ? { format: 'binary' } : {}) } };
    return { description: json.description, content: Object.fromEntries(media.map((m) => [m, body])) };
  }
  return { description: 'JSON', content: { 'application/json': { schema: json } } };
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Array<Record<string, unknown>> {
  if (!schema) return [];
  const json = toJsonSchema(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

/** The OpenAPI 3.1 document of the public API, built from the routes' own zod contracts. */
export function buildOpenApiDocument(routes: ApiRoute[], opts: { serverUrl: string; sessionCookie: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const r of routes) {
    if (!isDocumented(r)) continue;
    const tag = capabilityOf(r.url);
    tags.add(tag);
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(r.response ?? {})) responses[status.replace(/xx$/, 'XX')] = responseEntry(schema);
    if (!Object.keys(responses).some((s) => s.startsWith('4'))) responses['4XX'] = { description: 'Error', content: { 'application/json': { schema: toJsonSchema(ErrorResponse, 'output') } } };
    const security: Array<Record<string, string[]>> = r.access === 'public' ? [] : [{ cookieAuth: [] }];
    if (r.access !== 'public' && r.scopes.length) security.push({ bearerAuth: [...r.scopes] });
    const scopeNote = r.access === 'public' ? 'Public: no sign-in.' : r.scopes.length ? `API token scope: ${r.scopes.join(', ')}.` : 'Signed-in session only (not available to API tokens).';
    const op: Record<string, unknown> = {
      operationId: operationId(r.method, r.url),
      summary: r.summary ?? SUMMARIES[`${r.method} ${r.url}`] ?? `${VERB[r.method] ?? r.method} ${r.url.replace(/^\/api\//, '')}`,
      description: scopeNote,
      tags: [tag],
      security,
      'x-scopes': [...r.scopes],
      parameters: [...parameters(r.params, 'path'), ...parameters(r.querystring, 'query')],
      responses,
    };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(r.body, 'input') } } };
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
        'The JSON API behind our own screens. Sign in (cookie session) or send `Authorization: Bearer <token>` with an access token made on the Developer section of your account page; a token reaches only the operations whose scope it holds.',
    },
    servers: [{ url: opts.serverUrl }],
    tags: [...tags].sort().map((name) => ({ name })),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token (`mc_...`); scopes per operation in `x-scopes`.' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: opts.sessionCookie },
      },
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}
