import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/profile';
import type { ZodTypeProvider } from '#server/http/validation';
import { createProfile, getProfileForUser, saveDesignerProfile, updateProfile } from './profile.service';
import { getUserCards } from './stats.service';
import { setProfileHandle } from './handle.service';
import type { SyncedFieldsOf } from './synced-fields';

/** `syncedFieldsOf`: the fields the member's company directory keeps in sync (scim's reader, from the composition root). */
export async function profileRoutes(app: FastifyInstance, opts: { syncedFieldsOf?: SyncedFieldsOf } = {}) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const synced = (userId: string) => opts.syncedFieldsOf?.(app.ctx, userId) ?? Promise.resolve([]);

  /** The signed-in user's profile with links; null when they have none yet. */
  route(r, api.getProfile, async (req, reply) => {
    const profile = await getProfileForUser(app.ctx, req.user!.id);
    // serialized by hand so that "none yet" is the JSON text null (not an empty body)
    return reply.header('cache-control', 'no-store').type('application/json').send(JSON.stringify(profile) as unknown as typeof profile);
  });

  route(r, api.postProfile, async (req, reply) => {
    const profile = await createProfile(app.ctx, req.user!.id, req.body);
    return reply.status(201).send(profile);
  });

  route(r, api.putProfileById, async (req) => {
    return updateProfile(app.ctx, req.user!.id, req.params.id, req.body, await synced(req.user!.id));
  });

  route(r, api.putProfile, async (req) => {
    return saveDesignerProfile(app.ctx, req.user!.id, req.body, await synced(req.user!.id));
  });

  /** The short address /@{handle} (decision 37-04). */
  route(r, api.putProfileHandle, async (req) => {
    return setProfileHandle(app.ctx, req.user!.id, req.body.handle);
  });

  /** The user's designed cards (dashboard). */
  route(r, api.getCards, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getUserCards(app.ctx, req.user!.id);
  });
}
