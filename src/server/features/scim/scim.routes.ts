import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import { HttpError } from '#server/http/http-errors';
import { RequestValidationError, type ZodTypeProvider } from '#server/http/validation';
import { stopReadingBody } from '#server/http/body-limit';
import { authenticateBearer } from '#server/plugins/api-tokens';
import { clientAddress } from '#server/infra/rate-limit';
import { recordIdentityEvent } from '#server/features/audit/public-api';
import { teamRoleOf } from '#server/features/team/public-api';
import * as api from '#shared/contracts/scim';
import { ScimError, errorDocument } from './scim-protocol';
import { resourceType, resourceTypes, schema, schemas, serviceProviderConfig } from './scim-discovery';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser, type ScimCaller } from './scim-users.service';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './scim-groups.service';
import { getScimSettings, saveScimSettings, syncedFields } from './scim-settings.service';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    scim?: ScimCaller;
  }
}

function send(reply: FastifyReply, status: number, doc: unknown) {
  return reply.status(status).type(SCIM_CONTENT_TYPE).header('cache-control', 'no-store').send(JSON.stringify(doc));
}

const origin = (app: FastifyInstance, req: FastifyRequest) => app.ctx.publicUrl({ protocol: req.protocol, host: req.host });

/**
 * SCIM 2.0 at /scim/v2 (issue 39, decision 39-02). Its own scope: SCIM's media type
 * (`application/scim+json`, and plain JSON), SCIM errors for everything that goes wrong, and the
 * team token with the `scim` scope checked before any input is read.
 */
export async function scimRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ScimError) return send(reply, err.status, errorDocument(err.status, err.message, err.scimType));
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return send(reply, err.statusCode, errorDocument(err.statusCode, err.message));
    }
    const cause = (err as { cause?: unknown }).cause;
    if (err instanceof RequestValidationError || cause instanceof RequestValidationError || (err as { validation?: unknown }).validation) {
      const ve = err instanceof RequestValidationError ? err : cause instanceof RequestValidationError ? cause : null;
      return send(reply, 400, errorDocument(400, ve ? `${ve.part}: ${ve.message}` : 'Invalid request', 'invalidValue'));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status === 413) {
      stopReadingBody(req.raw);
      return send(reply, 413, errorDocument(413, 'Request body is too large'));
    }
    if (status === 415) return send(reply, 415, errorDocument(415, 'Send application/scim+json or application/json'));
    if (status >= 400 && status < 500) {
      const malformed = err.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError;
      return send(reply, status, errorDocument(status, malformed ? 'Malformed JSON body' : err.message || 'Bad request', malformed ? 'invalidSyntax' : undefined));
    }
    req.log.error({ err }, 'SCIM request failed');
    return send(reply, status === 503 ? 503 : 500, errorDocument(status === 503 ? 503 : 500, 'Something went wrong on our side. Please try again.'));
  });

  // the team token with the scim scope, checked before the body is read (routes with scopes only)
  app.addHook('onRequest', async (req) => {
    const scopes = (req.routeOptions.config as { scopes?: readonly string[] } | undefined)?.scopes;
    if (!scopes?.includes('scim')) return;
    const refuse = async (status: number, detail: string) => {
      await recordIdentityEvent(ctx, {
        kind: 'scim-request-refused',
        teamId: req.apiToken?.teamId ?? null,
        req: { ip: clientAddress(req) },
        detail: { method: req.method, path: req.routeOptions.url ?? '', status, reason: detail },
      });
      return new ScimError(status, detail);
    };
    const m = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? '').trim());
    if (!m) {
      const e = await refuse(401, 'A team API token with the scim scope is required (Authorization: Bearer)');
      throw e;
    }
    let user: { id: string };
    try {
      user = await authenticateBearer(app, req, m[1]!.trim());
    } catch (e) {
      if (e instanceof HttpError && e.statusCode === 429) throw e;
      throw await refuse(e instanceof HttpError ? e.statusCode : 401, e instanceof Error ? e.message : 'Invalid token');
    }
    const token = req.apiToken;
    if (!token?.teamId) throw await refuse(403, 'Use a team token with the scim scope');
    const role = await teamRoleOf(ctx, user.id);
    if (!role || role.teamId !== token.teamId || role.role !== 'owner') throw await refuse(403, "Only a token the team's owner created can provision the team");
    req.scim = { teamId: token.teamId, actorId: user.id, tokenId: token.id, ip: clientAddress(req), origin: origin(app, req) };
  });

  const caller = (req: FastifyRequest) => req.scim!;
  /** every SCIM read is logged too (issue 39: "every SCIM operation"), with what it asked */
  const logRead = (req: FastifyRequest, what: Record<string, string | number>) =>
    recordIdentityEvent(ctx, { kind: 'scim-read', teamId: caller(req).teamId, actorId: caller(req).actorId, ip: caller(req).ip, detail: { path: req.routeOptions.url ?? '', token: caller(req).tokenId, ...what } });

  route(r, api.getScimServiceProviderConfig, async (req, reply) => send(reply, 200, serviceProviderConfig(origin(app, req))));
  route(r, api.getScimResourceTypes, async (req, reply) => send(reply, 200, resourceTypes(origin(app, req))));
  route(r, api.getScimResourceTypeById, async (req, reply) => send(reply, 200, resourceType(origin(app, req), req.params.id)));
  route(r, api.getScimSchemas, async (req, reply) => send(reply, 200, schemas(origin(app, req))));
  route(r, api.getScimSchemaById, async (req, reply) => send(reply, 200, schema(origin(app, req), req.params.id)));

  route(r, api.getScimUsers, async (req, reply) => {
    const list = await listUsers(ctx, caller(req), req.query);
    await logRead(req, { filter: req.query.filter ?? '', results: list.Resources.length });
    return send(reply, 200, list);
  });
  route(r, api.postScimUsers, async (req, reply) => {
    const doc = await createUser(ctx, caller(req), req.body);
    reply.header('location', String((doc.meta as { location: string }).location));
    return send(reply, 201, doc);
  });
  route(r, api.getScimUserById, async (req, reply) => {
    const doc = await getUser(ctx, caller(req), req.params.id);
    await logRead(req, { id: req.params.id });
    return send(reply, 200, doc);
  });
  route(r, api.putScimUserById, async (req, reply) => send(reply, 200, await replaceUser(ctx, caller(req), req.params.id, req.body)));
  route(r, api.patchScimUserById, async (req, reply) => send(reply, 200, await patchUser(ctx, caller(req), req.params.id, req.body)));
  route(r, api.deleteScimUserById, async (req, reply) => {
    await deleteUser(ctx, caller(req), req.params.id);
    return reply.status(204).header('cache-control', 'no-store').send(null);
  });

  route(r, api.getScimGroups, async (req, reply) => {
    const list = await listGroups(ctx, caller(req), req.query);
    await logRead(req, { filter: req.query.filter ?? '', results: list.Resources.length });
    return send(reply, 200, list);
  });
  route(r, api.postScimGroups, async (req, reply) => {
    const doc = await createGroup(ctx, caller(req), req.body);
    reply.header('location', String((doc.meta as { location: string }).location));
    return send(reply, 201, doc);
  });
  route(r, api.getScimGroupById, async (req, reply) => {
    const doc = await getGroup(ctx, caller(req), req.params.id, req.query);
    await logRead(req, { id: req.params.id });
    return send(reply, 200, doc);
  });
  route(r, api.putScimGroupById, async (req, reply) => send(reply, 200, await replaceGroup(ctx, caller(req), req.params.id, req.body)));
  route(r, api.patchScimGroupById, async (req, reply) => send(reply, 200, await patchGroup(ctx, caller(req), req.params.id, req.body, req.query)));
  route(r, api.deleteScimGroupById, async (req, reply) => {
    await deleteGroup(ctx, caller(req), req.params.id);
    return reply.status(204).header('cache-control', 'no-store').send(null);
  });
}

/** The team owner's provisioning settings and the member's synced fields (issue 39, decision 39-02). */
export async function scimSettingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  route(r, api.getTeamScimSettings, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getScimSettings(ctx, req.user!.id, origin(app, req));
  });
  route(r, api.putTeamScimSettings, async (req) => saveScimSettings(ctx, req.user!.id, req.body, origin(app, req), { ip: clientAddress(req) }));
  route(r, api.getTeamScimSyncedFields, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return syncedFields(ctx, req.user!.id);
  });
}
