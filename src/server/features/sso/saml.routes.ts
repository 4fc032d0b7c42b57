import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#server/http/endpoint';
import { unauthorized } from '#server/http/http-errors';
import { clientAddress, clientKey, enforceRateLimit } from '#server/infra/rate-limit';
import * as api from '#shared/contracts/sso/saml';
import { connectionView, samlConfigOf, saveSamlConnection } from './saml-connection';
import { spEndpoints, spMetadataXml } from './saml-metadata';
import { samlAssertionConsumer, startSamlSignIn } from './saml-sign-in';
import { saveSamlConfig } from './sso-connection.service';
import { ownedTeamId } from './sso-owner';

/** The largest form the assertion consumer service reads (the decoded response is capped lower). */
const ACS_BODY_LIMIT = 1024 * 1024;

/**
 * SAML 2.0 for teams (issue 39 item 3, decision 39-04), registered by sso.routes.ts. Its own scope:
 * the identity provider's HTTP-POST binding sends application/x-www-form-urlencoded, read here
 * as text (the handler takes SAMLResponse out of it) and nowhere else.
 */
export async function registerSamlRoutes(app: FastifyInstance) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT }, (_req, body, done) => done(null, body));
    const ctx = scope.ctx;
    const origin = (req: FastifyRequest) => ctx.publicUrl({ protocol: req.protocol, host: req.host });
    const owner = async (req: FastifyRequest) => {
      if (!req.user) throw unauthorized();
      return ownedTeamId(ctx, req.user.id);
    };

    route(scope, api.getSsoSamlMetadata, async (req, reply) => {
      // the same document for any team id, configured or not (the owner downloads it before setting up
      // the IdP): it reads nothing, so it tells nobody which team ids exist
      const xml = spMetadataXml(spEndpoints(origin(req), req.params.teamId));
      return reply.type('application/samlmetadata+xml; charset=utf-8').header('content-disposition', 'attachment; filename="metal-cards-saml-sp.xml"').send(xml);
    });

    // each start keeps a request id for ten minutes, each post checks a signature: per address, generous for people behind one NAT
    route(scope, api.getSsoSamlLogin, async (req, reply) => {
      await enforceRateLimit(ctx.rateLimiter, `saml-login:ip:${clientKey(req)}`, 60, 600);
      return startSamlSignIn(scope, req, reply, req.params.teamId, req.query.returnTo ?? null);
    });

    route(scope, api.postSsoSamlAcs, { bodyLimit: ACS_BODY_LIMIT }, async (req, reply) => {
      await enforceRateLimit(ctx.rateLimiter, `saml-acs:ip:${clientKey(req)}`, 60, 600);
      return samlAssertionConsumer(scope, req, reply, req.params.teamId);
    });

    route(scope, api.getTeamSsoSaml, async (req) => {
      const teamId = await owner(req);
      return connectionView(origin(req), teamId, await samlConfigOf(ctx, teamId));
    });

    route(scope, api.putTeamSsoSaml, { bodyLimit: 2 * 1024 * 1024 }, async (req) => {
      const teamId = await owner(req);
      const cfg = await saveSamlConnection(ctx, teamId, req.body, { actorId: req.user!.id, ip: clientAddress(req) });
      return connectionView(origin(req), teamId, cfg);
    });

    route(scope, api.deleteTeamSsoSaml, async (req) => {
      const teamId = await owner(req);
      await saveSamlConfig(ctx, teamId, null, { actorId: req.user!.id, ip: clientAddress(req) });
      return connectionView(origin(req), teamId, null);
    });
  });
}
