import type { FastifyInstance, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { featureRoutes } from '#server/routes';

export interface RecordedRoute {
  method: string;
  url: string;
  access: 'public' | 'user' | 'admin' | undefined;
  body?: z.ZodType;
  params?: z.ZodType;
  querystring?: z.ZodType;
  /** the declared answers by status code ('200', '4xx', 'default'...) */
  response?: Record<string, z.ZodType>;
}

/**
 * Records every route the app registers, however late a feature lands: an onRoute hook placed
 * before every feature's routes (on the root instance, via skip-override). Call BEFORE building
 * the app; `routes()` then lists each method + path once (HEAD/OPTIONS left out).
 */
export function collectRoutes() {
  const recorded: RecordedRoute[] = [];
  const recorder = Object.assign(
    async (app: FastifyInstance) => {
      app.addHook('onRoute', (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const schema = (route.schema ?? {}) as { body?: z.ZodType; params?: z.ZodType; querystring?: z.ZodType; response?: Record<string, z.ZodType> };
        for (const m of methods) {
          recorded.push({
            method: String(m).toUpperCase(),
            url: route.url,
            access: route.config?.access,
            body: schema.body,
            params: schema.params,
            querystring: schema.querystring,
            response: schema.response,
          });
        }
      });
    },
    { [Symbol.for('skip-override')]: true },
  );
  if (!featureRoutes.includes(recorder)) featureRoutes.unshift(recorder);
  return {
    routes(): RecordedRoute[] {
      const seen = new Set<string>();
      return recorded.filter((r) => {
        const k = `${r.method} ${r.url}`;
        if (r.method === 'HEAD' || r.method === 'OPTIONS' || seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    },
    /** remove the recorder again (the route list module is shared within a test file) */
    detach() {
      const i = featureRoutes.indexOf(recorder);
      if (i >= 0) featureRoutes.splice(i, 1);
    },
  };
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Lone surrogates replaced (encodeURIComponent throws on them). */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Route params filled with a value: `:id` -> value (default "1"), wildcard -> "x". */
export function concreteUrl(url: string, value: (name: string) => string = () => '1'): string {
  return url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_m, name: string) => encodeURIComponent(wellFormed(value(name)))).replace(/\*/g, 'x');
}

/** Field names of a zod object body (unwrapping pipes/defaults/optionals), or []. */
export function bodyKeys(schema: z.ZodType | undefined): string[] {
  let s: any = schema;
  for (let i = 0; i < 6 && s; i++) {
    if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
    const def = s._zod?.def ?? s.def;
    s = def?.in ?? def?.innerType ?? def?.schema ?? undefined;
  }
  return [];
}
