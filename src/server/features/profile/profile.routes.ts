import type { FastifyInstance } from 'fastify';
import { DesignerProfileBody, ProfileBody, ProfileIdParam } from '#shared/schemas/profile';
import type { ZodTypeProvider } from '../../lib/validation';
import { createProfile, getProfileForUser, saveDesignerProfile, updateProfile } from './profile.service';
import { getUserCards, getVisitStats } from './stats.service';

export async function profileRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The signed-in user's profile with links; null when they have none yet. */
  r.get('/api/profile', { config: { access: 'user' } }, async (req, reply) => {
    const profile = await getProfileForUser(app.ctx, req.user!.id);
    return reply.header('cache-control', 'no-store').type('application/json').send(JSON.stringify(profile));
  });

  r.post('/api/profile', { config: { access: 'user' }, schema: { body: ProfileBody } }, async (req, reply) => {
    const profile = await createProfile(app.ctx, req.user!.id, req.body);
    return reply.status(201).send(profile);
  });

  r.put('/api/profile/:id', { config: { access: 'user' }, schema: { params: ProfileIdParam, body: ProfileBody } }, async (req) => {
    return updateProfile(app.ctx, req.user!.id, req.params.id, req.body);
  });

  r.put('/api/profile', { config: { access: 'user' }, schema: { body: DesignerProfileBody } }, async (req) => {
    return saveDesignerProfile(app.ctx, req.user!.id, req.body);
  });

  /** Views of the user's own profile (dashboard analytics). */
  r.get('/api/stats/visits', { config: { access: 'user' } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getVisitStats(app.ctx, req.user!.id);
  });

  /** The user's designed cards (dashboard). */
  r.get('/api/cards', { config: { access: 'user' } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getUserCards(app.ctx, req.user!.id);
  });
}
