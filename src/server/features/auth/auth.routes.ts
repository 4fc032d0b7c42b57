import type { FastifyInstance } from 'fastify';
import { LoginBody, RegisterBody } from '#shared/schemas/auth';
import type { ZodTypeProvider } from '../../lib/validation';
import { unauthorized } from '../../lib/http-errors';
import { clearSessionCookie, startSession } from '../../plugins/session';
import { enforceRateLimit } from '../../lib/rate-limit';
import { authenticate, endSession, registerUser } from './auth.service';

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/auth/register', { config: { access: 'public' }, schema: { body: RegisterBody } }, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `register:ip:${req.ip}`, 20, 3600, 'Too many sign-ups from this address. Please try again later.');
    const user = await registerUser(app.ctx, req.body);
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    return reply.status(201).send(user);
  });

  r.post('/api/auth/login', { config: { access: 'public' }, schema: { body: LoginBody } }, async (req, reply) => {
    const user = await authenticate(app.ctx, req.ip, req.body.email, req.body.password);
    // a new token at every login; the old session (if any) is ended (no session fixation)
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    await startSession(app, req, reply, user.id);
    return user;
  });

  r.post('/api/auth/logout', { config: { access: 'public' } }, async (req, reply) => {
    if (req.sessionId) await endSession(app.ctx, req.sessionId);
    clearSessionCookie(req, reply);
    return { message: 'Logged out' };
  });

  r.get('/api/auth/user', { config: { access: 'public' } }, async (req) => {
    if (!req.user) throw unauthorized('Not signed in');
    return req.user;
  });
}
