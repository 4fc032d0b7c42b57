import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { EmptyResponse, ErrorResponse, textDocument } from '#shared/schemas/common';
import { registerErrorHandler } from '#server/plugins/errors';
import { registerResponseContracts, zodValidatorCompiler, type ZodTypeProvider } from './validation';

/** A bare app with the response contracts on (as tests run the whole app) and a few routes. */
async function appWith(check: boolean, routes: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerResponseContracts(app, { check, errorSchema: ErrorResponse });
  registerErrorHandler(app);
  routes(app);
  await app.ready();
  return app;
}

const Thing = z.strictObject({ id: z.number().int(), name: z.string(), tags: z.array(z.enum(['a', 'b'])) });

function thingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const schema = { response: { 200: Thing } };
  r.get('/api/right', { schema }, async () => ({ id: 1, name: 'x', tags: ['a' as const] }));
  // deliberately wrong answers (the casts get past the compile-time check the type provider makes)
  r.get('/api/missing-field', { schema }, async () => ({ id: 1, tags: [] }) as never);
  r.get('/api/extra-field', { schema }, async () => ({ id: 1, name: 'x', tags: [], passwordHash: 'secret' }) as never);
  r.get('/api/wrong-enum', { schema }, async () => ({ id: 1, name: 'x', tags: ['c'] }) as never);
  r.get('/api/undeclared-status', { schema }, async (_req, reply) => reply.status(201 as never).send({ id: 1, name: 'x', tags: [] } as never));
  r.get('/api/bad-error', { schema }, async (_req, reply) => reply.status(404 as never).send({ error: 'gone' } as never));
  r.get('/api/good-error', { schema }, async (_req, reply) => reply.status(404 as never).send({ message: 'Not found' } as never));
  r.get('/api/html-for-json', { schema }, async (_req, reply) => reply.type('text/html').send('<p>hi</p>' as never));
  r.get('/api/page', { schema: { response: { 200: textDocument('text/html'), 302: EmptyResponse } } }, async (req, reply) =>
    (req.query as { go?: string }).go ? reply.redirect('/elsewhere', 302) : reply.type('text/html').send('<p>hi</p>'),
  );
}

describe('response contracts', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    vi.restoreAllMocks();
  });

  it('lets an answer that keeps its contract through unchanged', async () => {
    app = await appWith(true, thingRoutes);
    const res = await app.inject('/api/right');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, name: 'x', tags: ['a'] });
    expect((await app.inject('/api/good-error')).statusCode).toBe(404);
    expect((await app.inject('/api/page')).body).toBe('<p>hi</p>');
    expect((await app.inject('/api/page?go=1')).statusCode).toBe(302);
  });

  it('fails a wrong answer loudly: 500 naming the route and the fields, logged for the test output', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    app = await appWith(true, thingRoutes);
    const cases: Array<[string, string | null]> = [
      ['/api/missing-field', 'name'],
      ['/api/extra-field', 'passwordHash'],
      ['/api/wrong-enum', 'tags.0'],
      ['/api/undeclared-status', null],
      ['/api/bad-error', 'error'],
      ['/api/html-for-json', null],
    ];
    for (const [url, field] of cases) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(500);
      const body = res.json();
      expect(body.message, url).toMatch(new RegExp(`^Response contract broken: GET ${url} `));
      if (field) expect(Object.keys(body.errors), url).toContain(field);
    }
    expect(logged).toHaveBeenCalledTimes(cases.length);
    expect(String(logged.mock.calls[0][0])).toContain('[response contract] GET /api/missing-field');
  });

  it('does not check answers when off (production), but still needs every /api route to declare them', async () => {
    app = await appWith(false, thingRoutes);
    expect((await app.inject('/api/missing-field')).statusCode).toBe(200);
    await app.close();
    app = undefined;
    await expect(appWith(false, (a) => a.get('/api/undeclared', async () => ({ ok: true })))).rejects.toThrow(
      'Route GET /api/undeclared does not declare schema.response',
    );
    // pages outside /api may go without (the static client, /metrics)
    app = await appWith(true, (a) => a.get('/page', async () => 'x'));
    expect((await app.inject('/page')).statusCode).toBe(200);
  });
});
