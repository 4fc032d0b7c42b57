import type { FastifyInstance } from 'fastify';
import { route } from '#server/http/endpoint';
import * as api from '#shared/contracts/webhooks';
import type { ZodTypeProvider } from '#server/http/validation';
import { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, redeliver, rollSecret, sendTest, updateEndpoint } from './webhooks.service';

/** Webhook endpoints of the signed-in user (and of the team they run), issue 23. */
export async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  route(r, api.postWebhooks, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.status(201).send(await createEndpoint(ctx, req.user!.id, req.body, ctx.publicUrl({ protocol: req.protocol, host: req.host })));
  });

  route(r, api.getWebhooks, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { endpoints: await listEndpoints(ctx, req.user!.id) };
  });

  route(r, api.getWebhooksById, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getEndpoint(ctx, req.user!.id, req.params.id);
  });

  route(r, api.patchWebhooksById, async (req) =>
    updateEndpoint(ctx, req.user!.id, req.params.id, req.body));

  route(r, api.deleteWebhooksById, async (req) => {
    await deleteEndpoint(ctx, req.user!.id, req.params.id);
    return { message: 'Webhook endpoint deleted' };
  });

  route(r, api.postWebhooksByIdSecret, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return rollSecret(ctx, req.user!.id, req.params.id);
  });

  route(r, api.postWebhooksByIdTest, async (req, reply) =>
    reply.status(202).send(await sendTest(ctx, req.user!.id, req.params.id)));

  route(r, api.getWebhooksByIdDeliveries, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { deliveries: await listDeliveries(ctx, req.user!.id, req.params.id) };
  });

  route(r, api.postWebhooksByIdDeliveriesByDeliveryIdRedeliver, async (req, reply) => reply.status(202).send(await redeliver(ctx, req.user!.id, req.params.id, req.params.deliveryId)));
}
