import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/developer';
import type { ZodTypeProvider } from '#server/http/validation';
import { notFound } from '#server/http/http-errors';
import { isHttpsSite } from '#server/plugins/security';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '#server/plugins/session';
import { createToken, listTokens, revokeToken } from './tokens.service';
import { allEndpoints } from '#shared/contracts/index';
import { buildOpenApiDocument } from './openapi';
import { docsAsset, DOCS_PAGE } from './api-docs';

/** Access tokens, the OpenAPI document and its reference page (issue 23, decision 23-01). */
export async function developerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  route(r, api.getTokens, async (req) => ({ tokens: await listTokens(ctx, req.user!.id) }));

  route(r, api.postTokens, async (req, reply) => {
    const created = await createToken(ctx, req.user!.id, req.body, ctx.publicUrl({ protocol: req.protocol, host: req.host }));
    return reply.status(201).send(created);
  });

  route(r, api.deleteTokensById, async (req) => {
    await revokeToken(ctx, req.user!.id, req.params.id);
    return { message: 'Token revoked' };
  });

  // generated from the shared endpoint contracts (decision 34-04), once, on first request
  let doc: ReturnType<typeof buildOpenApiDocument> | null = null;
  route(r, api.getOpenapiJson, async (_req, reply) => {
    doc ??= buildOpenApiDocument(allEndpoints(), {
      // the site's address when it is set; otherwise relative to wherever the document was fetched
      serverUrl: ctx.config.PUBLIC_URL ? ctx.publicUrl() : '/',
      sessionCookie: isHttpsSite(ctx.config.PUBLIC_URL) ? SECURE_SESSION_COOKIE : SESSION_COOKIE,
    });
    reply.header('cache-control', 'public, max-age=300');
    return doc;
  });

  route(r, api.getDocs, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return reply.type('text/html; charset=utf-8').send(DOCS_PAGE);
  });

  route(r, api.getDocsByFile, async (req, reply) => {
    const asset = docsAsset(req.params.file);
    if (!asset) throw notFound();
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type(asset.type).send(asset.body);
  });
}
