import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The methods a concrete API path answers (empty for an unknown path). */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  return METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}

/**
 * The API's answer to a request no route takes: 405 with `Allow` when the path is known but not
 * the method (RFC 9110 section 15.5.6), otherwise 404. Both as JSON `{ message }`.
 */
export function sendApiNotFound(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const path = req.url.split('?')[0] ?? '';
  const allow = path.startsWith('/api/') ? allowedMethods(app, path) : [];
  if (allow.length) return reply.status(405).header('allow', allow.join(', ')).send({ message: 'Method not allowed' });
  return reply.status(404).send({ message: 'Not found' });
}
