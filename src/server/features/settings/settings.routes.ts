import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/settings';
import type { ZodTypeProvider } from '#server/http/validation';
import { getShopSettingsForStaff, getSiteLegal, getSiteSettings, getStudio, putShopSettings } from './settings.service';

/** The shop's settings (issue 35): staff read and change them; pages read the studio's details. */
export async function settingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  route(r, api.getAdminSettings, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return getShopSettingsForStaff(app.ctx.db);
  });

  route(r, api.putAdminSettings, async (req) =>
    putShopSettings(app.ctx.db, req.body, req.user!.id));

  // the studio's address, phone, hours and pickup instructions for Help, About and the order page
  route(r, api.getSiteStudio, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return getStudio(app.ctx.db);
  });
  // the claims staff left shown and the link limit (/reviews; issue 37): no-cache, so a change shows at once
  route(r, api.getSiteSettings, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return getSiteSettings(app.ctx.db);
  });
  // the privacy policy and the terms of service (/privacy, /terms)
  route(r, api.getSiteLegal, async (req, reply) => {
    reply.header('cache-control', 'no-cache');
    return getSiteLegal(app.ctx.db, req.params.document);
  });
}
