import type { FastifyInstance } from 'fastify';
import { ProfileDesignSaveBody, ProfileGetResponse, ProfileIdParams, ProfileSaveBody, ProfileResponse, UserCardListResponse, VisitStatsGetResponse } from '#shared/schemas/profile';
import type { ZodTypeProvider } from '#server/http/validation';
import { createProfile, getProfileForUser, saveDesignerProfile, updateProfile } from './profile.service';
import { getUserCards, getVisitStats } from './stats.service';

export async function profileRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The signed-in user's profile with links; null when they have none yet. */
  r.get('/api/profile', { config: { access: 'user', scopes: ['profile:read'] }, schema: { response: { 200: ProfileGetResponse } } }, async (req, reply) => {
    const profile = await getProfileForUser(app.ctx, req.user!.id);
    // serialized by hand so that "none yet" is the JSON text null (not an empty body)
    return reply.header('cache-control', 'no-store').type('application/json').send(JSON.stringify(profile) as unknown as typeof profile);
  });

  r.post('/api/profile', { config: { access: 'user', scopes: ['profile:write'] }, schema: { body: ProfileSaveBody, response: { 201: ProfileResponse } } }, async (req, reply) => {
    const profile = await createProfile(app.ctx, req.user!.id, req.body);
    return reply.status(201).send(profile);
  });

  r.put('/api/profile/:id', { config: { access: 'user', scopes: ['profile:write'] }, schema: { params: ProfileIdParams, body: ProfileSaveBody, response: { 200: ProfileResponse } } }, async (req) => {
    return updateProfile(app.ctx, req.user!.id, req.params.id, req.body);
  });

  r.put('/api/profile', { config: { access: 'user', scopes: ['profile:write'] }, schema: { body: ProfileDesignSaveBody, response: { 200: ProfileResponse } } }, async (req) => {
    return saveDesignerProfile(app.ctx, req.user!.id, req.body);
  });

  /** Views of the user's own profile (dashboard analytics). */
  r.get('/api/stats/visits', { config: { access: 'user', scopes: ['stats:read'] }, schema: { response: { 200: VisitStatsGetResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getVisitStats(app.ctx, req.user!.id);
  });

  /** The user's designed cards (dashboard). */
  r.get('/api/cards', { config: { access: 'user' }, schema: { response: { 200: UserCardListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getUserCards(app.ctx, req.user!.id);
  });
}
