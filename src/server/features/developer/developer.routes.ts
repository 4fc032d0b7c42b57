import type { FastifyInstance } from 'fastify';
import { binaryFile, MessageResponse, textDocument } from '#shared/schemas/common';
import { OpenApiDocumentResponse, TokenCreateBody, TokenCreateResponse, TokenListResponse, TokenParams, DocsAssetParams } from '#shared/schemas/developer';
import type { ZodTypeProvider } from '#server/http/validation';
import { notFound } from '#server/http/http-errors';
import { isHttpsSite } from '#server/plugins/security';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '#server/plugins/session';
import { createToken, listTokens, revokeToken } from './tokens.service';
import { buildOpenApiDocument, registeredRoutes } from './openapi';
import { docsAsset, DOCS_PAGE } from './api-docs';

/** Access tokens, the OpenAPI document and its reference page (issue 23, decision 23-01). */
export async function developerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const user = { access: 'user' as const };

  r.get('/api/tokens', { config: user, schema: { response: { 200: TokenListResponse } } }, async (req) => ({ tokens: await listTokens(ctx, req.user!.id) }));

  r.post('/api/tokens', { config: user, schema: { body: TokenCreateBody, response: { 201: TokenCreateResponse } } }, async (req, reply) => {
    const created = await createToken(ctx, req.user!.id, req.body);
    return reply.status(201).send(created);
  });

  r.delete('/api/tokens/:id', { config: user, schema: { params: TokenParams, response: { 200: MessageResponse } } }, async (req) => {
    await revokeToken(ctx, req.user!.id, req.params.id);
    return { message: 'Token revoked' };
  });

  // built once, on first request, when every route is registered
  let doc: ReturnType<typeof buildOpenApiDocument> | null = null;
  r.get('/api/openapi.json', { config: { access: 'public' }, schema: { response: { 200: OpenApiDocumentResponse } } }, async (_req, reply) => {
    doc ??= buildOpenApiDocument(registeredRoutes(app), {
      // the site's address when it is set; otherwise relative to wherever the document was fetched
      serverUrl: ctx.config.PUBLIC_URL ? ctx.publicUrl() : '/',
      sessionCookie: isHttpsSite(ctx.config.PUBLIC_URL) ? SECURE_SESSION_COOKIE : SESSION_COOKIE,
    });
    reply.header('cache-control', 'public, max-age=300');
    return doc;
  });

  r.get('/api/docs', { config: { access: 'public' }, schema: { response: { 200: textDocument('text/html') } } }, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return reply.type('text/html; charset=utf-8').send(DOCS_PAGE);
  });

  r.get('/api/docs/:file', { config: { access: 'public' }, schema: { params: DocsAssetParams, response: { 200: binaryFile('text/javascript') } } }, async (req, reply) => {
    const asset = docsAsset(req.params.file);
    if (!asset) throw notFound();
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type(asset.type).send(asset.body);
  });
}
