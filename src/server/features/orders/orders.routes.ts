import type { FastifyInstance } from 'fastify';
import { ARTWORK_MAX_BYTES, formatUsd } from '#shared/catalogue';
import {
  ArtworkUploadResponse,
  IDEMPOTENCY_KEY_RE,
  MyOrdersResponse,
  OrderClaimBody,
  OrderClaimGetParams,
  OrderClaimGetResponse,
  OrderClaimResponse,
  OrderCreateBody,
  OrderCreateResponse,
  OrderStatusGetParams,
  OrderStatusGetResponse,
  type OrderClaimResult,
} from '#shared/schemas/orders';
import type { ZodTypeProvider } from '#server/http/validation';
import { badRequest } from '#server/http/http-errors';
import { enforceRateLimit } from '#server/infra/rate-limit';
import { createOrder, getOrderStatusView } from './orders.service';
import { uploadArtwork } from './artwork.service';
import { attachOrdersByVerifiedEmail, claimOrder, getClaim } from './order-claim.service';
import { listMyOrders } from './order-view';
import { endSession } from '#server/features/auth/public-api';
import { startSession } from '#server/plugins/session';

/** Claim links tried per IP (a token is unguessable; this keeps junk traffic cheap). */
const CLAIM_IP_LIMIT = { limit: 20, windowSeconds: 15 * 60 };

export async function orderRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // the spec's order call: one order per submit; a retry with the same key answers the same order
  r.post('/api/order', { config: { access: 'public' }, schema: { body: OrderCreateBody, response: { 200: OrderCreateResponse, 201: OrderCreateResponse } } }, async (req, reply) => {
    const header = req.headers['idempotency-key'];
    const idempotencyKey = typeof header === 'string' && header !== '' ? header.trim() : undefined;
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_RE.test(idempotencyKey)) {
      throw badRequest('Invalid Idempotency-Key header', { idempotencyKey: 'Use 8-100 letters, digits, dots, colons, dashes or underscores' });
    }
    await enforceRateLimit(app.ctx.rateLimiter, `order:ip:${req.ip}`, 5, 60, 'Too many orders from this address. Please wait a minute and try again.');
    const { order, replayed, statusUrl } = await createOrder(app.ctx, req.body, {
      source: 'order-form',
      userId: req.user?.id,
      idempotencyKey,
      baseUrl: app.ctx.publicUrl(req),
    });
    const body: OrderCreateResponse = {
      id: order.id,
      orderId: order.id,
      status: order.status,
      totalCents: order.totalCents,
      total: formatUsd(order.totalCents),
      statusUrl,
      checkoutUrl: order.checkoutUrl,
      replayed,
      message: order.checkoutUrl
        ? 'Order submitted. We e-mailed you a checkout link.'
        : 'Order submitted. We e-mailed you a link to your order page.',
    };
    return reply.status(replayed ? 200 : 201).send(body);
  });

  // the customer's order page, reached only by the unguessable token from the e-mail
  r.get('/api/order-status/:token', { config: { access: 'public' }, schema: { params: OrderStatusGetParams, response: { 200: OrderStatusGetResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    return getOrderStatusView(app.ctx, req.params.token, app.ctx.publicUrl(req));
  });

  // the order form's one optional artwork file; answers [{ url }] (signed out also its uploadToken, issue 19)
  r.post('/api/upload/artwork', { config: { access: 'public' }, schema: { response: { 201: ArtworkUploadResponse } } }, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `artwork:ip:${req.ip}`, 10, 600, 'Too many uploads from this address. Please try again later.');
    const saved = await uploadArtwork(app.ctx, req, { userId: req.user?.id ?? null, maxBytes: ARTWORK_MAX_BYTES });
    return reply.status(201).send([saved.uploadToken ? { url: saved.url, uploadToken: saved.uploadToken } : { url: saved.url }]);
  });

  // My orders (issue 20): the signed-in customer's orders; first gathers those placed signed out
  // with the account's verified address
  r.get('/api/orders/mine', { config: { access: 'user' }, schema: { response: { 200: MyOrdersResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    await attachOrdersByVerifiedEmail(app.ctx, req.user!.id);
    return { orders: await listMyOrders(app.ctx, req.user!.id, app.ctx.publicUrl(req)) };
  });

  // the claim link of a visitor's order (issue 20): what it claims, then the claim itself
  r.get('/api/orders/claim/:token', { config: { access: 'public' }, schema: { params: OrderClaimGetParams, response: { 200: OrderClaimGetResponse } } }, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `claim:ip:${req.ip}`, CLAIM_IP_LIMIT.limit * 3, CLAIM_IP_LIMIT.windowSeconds);
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    return getClaim(app.ctx, req.params.token);
  });

  r.post('/api/orders/claim', { config: { access: 'public' }, schema: { body: OrderClaimBody, response: { 200: OrderClaimResponse } } }, async (req, reply) => {
    await enforceRateLimit(app.ctx.rateLimiter, `claim:ip:${req.ip}`, CLAIM_IP_LIMIT.limit, CLAIM_IP_LIMIT.windowSeconds);
    const result = await claimOrder(app.ctx, req.body, req.user ?? null, app.ctx.publicUrl(req));
    if (result.accountCreated) {
      if (req.sessionId) await endSession(app.ctx, req.sessionId);
      await startSession(app, req, reply, result.user.id);
    }
    return {
      orderId: result.order.id,
      profileId: result.profileId,
      accountCreated: result.accountCreated,
      user: result.user,
      statusPath: result.statusPath,
    } satisfies OrderClaimResult;
  });
}
