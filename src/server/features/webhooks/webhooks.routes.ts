import type { FastifyInstance } from 'fastify';
import { MessageResponse } from '#shared/schemas/common';
import {
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryParams,
  WebhookGetResponse,
  WebhookListResponse,
  WebhookParams,
  WebhookRedeliverResponse,
  WebhookSecretRollResponse,
  WebhookTestResponse,
  WebhookUpdateBody,
  WebhookUpdateResponse,
} from '#shared/schemas/webhooks';
import type { ZodTypeProvider } from '#server/http/validation';
import { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, redeliver, rollSecret, sendTest, updateEndpoint } from './webhooks.service';

/** Webhook endpoints of the signed-in user (and of the team they run), issue 23. */
export async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const user = { access: 'user' as const };

  r.post('/api/webhooks', { config: user, schema: { body: WebhookCreateBody, response: { 201: WebhookCreateResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.status(201).send(await createEndpoint(ctx, req.user!.id, req.body));
  });

  r.get('/api/webhooks', { config: user, schema: { response: { 200: WebhookListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { endpoints: await listEndpoints(ctx, req.user!.id) };
  });

  r.get('/api/webhooks/:id', { config: user, schema: { params: WebhookParams, response: { 200: WebhookGetResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getEndpoint(ctx, req.user!.id, req.params.id);
  });

  r.patch('/api/webhooks/:id', { config: user, schema: { params: WebhookParams, body: WebhookUpdateBody, response: { 200: WebhookUpdateResponse } } }, async (req) =>
    updateEndpoint(ctx, req.user!.id, req.params.id, req.body),
  );

  r.delete('/api/webhooks/:id', { config: user, schema: { params: WebhookParams, response: { 200: MessageResponse } } }, async (req) => {
    await deleteEndpoint(ctx, req.user!.id, req.params.id);
    return { message: 'Webhook endpoint deleted' };
  });

  r.post('/api/webhooks/:id/secret', { config: user, schema: { params: WebhookParams, response: { 200: WebhookSecretRollResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return rollSecret(ctx, req.user!.id, req.params.id);
  });

  r.post('/api/webhooks/:id/test', { config: user, schema: { params: WebhookParams, response: { 202: WebhookTestResponse } } }, async (req, reply) =>
    reply.status(202).send(await sendTest(ctx, req.user!.id, req.params.id)),
  );

  r.get('/api/webhooks/:id/deliveries', { config: user, schema: { params: WebhookParams, response: { 200: WebhookDeliveryListResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { deliveries: await listDeliveries(ctx, req.user!.id, req.params.id) };
  });

  r.post(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    { config: user, schema: { params: WebhookDeliveryParams, response: { 202: WebhookRedeliverResponse } } },
    async (req, reply) => reply.status(202).send(await redeliver(ctx, req.user!.id, req.params.id, req.params.deliveryId)),
  );
}
